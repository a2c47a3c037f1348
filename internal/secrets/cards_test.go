package secrets

import (
	"strings"
	"testing"
)

func TestCards(t *testing.T) {
	const value = "s3cr3t-value-never-shown"
	s, err := Load(Sources{
		File:    writeFile(t, "bob login example.com "+value+"\nbob api/token *.example.org tok-"+value+"\n"),
		Environ: []string{"FLOW_SECRET_alice__mail=" + value, "FLOW_SECRET_alice__mail_SITES=mail.example.com"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(s.Owners(), ","); got != "alice,bob" {
		t.Errorf("Owners = %s", got)
	}
	for _, tc := range []struct {
		owner string
		want  []string // name|keys|source
	}{
		{"bob", []string{"api|token|FLOW_SECRETS file, line 2", "login|value|FLOW_SECRETS file, line 1"}},
		{"alice", []string{"mail|value|environment (FLOW_SECRET_alice__mail)"}},
		{"carol", nil},
	} {
		var got []string
		for _, c := range s.Cards(tc.owner) {
			if c.Owner != tc.owner {
				t.Errorf("card of %s has owner %s", tc.owner, c.Owner)
			}
			got = append(got, c.Name+"|"+strings.Join(c.Keys, ",")+"|"+c.Source)
			if strings.Contains(c.Source+c.Description+strings.Join(c.Sites, ""), value) {
				t.Errorf("a card shows the value: %+v", c)
			}
		}
		if strings.Join(got, ";") != strings.Join(tc.want, ";") {
			t.Errorf("Cards(%s) = %q, want %q", tc.owner, got, tc.want)
		}
	}
}
