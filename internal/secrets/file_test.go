package secrets

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestFile(t *testing.T) {
	cases := []struct {
		name, body string
		want       []Secret
		values     map[string]string // name/key → value on https://app.example.com/
	}{
		{"single spaces, as before", "alice login app.example.com s3cret with spaces\n",
			[]Secret{{Name: "login", Sites: []string{"app.example.com"}, Keys: []string{"value"}}},
			map[string]string{"login": "s3cret with spaces"}},
		{"aligned columns and tabs", "# principal  name   site              value\n  alice\t\tlogin  app.example.com   \t s3cret  with  spaces \t\r\n",
			[]Secret{{Name: "login", Sites: []string{"app.example.com"}, Keys: []string{"value"}}},
			map[string]string{"login": "s3cret  with  spaces"}},
		{"comments and blank lines", "\n# a comment\n   # an indented comment\n\nalice login app.example.com #not-a-comment\n",
			[]Secret{{Name: "login", Sites: []string{"app.example.com"}, Keys: []string{"value"}}},
			map[string]string{"login": "#not-a-comment"}},
		{"byte order mark and CRLF", "\ufeffalice login app.example.com s3cret\r\n",
			[]Secret{{Name: "login", Sites: []string{"app.example.com"}, Keys: []string{"value"}}},
			map[string]string{"login": "s3cret"}},
		{"keys, sites and a description", strings.Join([]string{
			"alice gh/username app.example.com,*.example.com ada-user",
			"alice gh/password *.example.com,APP.example.com gh-pass-1",
			"alice gh/_description app.example.com,*.example.com The bot's account",
		}, "\n"),
			[]Secret{{Name: "gh", Description: "The bot's account", Sites: []string{"*.example.com", "app.example.com"}, Keys: []string{"password", "username"}}},
			map[string]string{"gh/username": "ada-user", "gh/password": "gh-pass-1"}},
		{"a name per environment", "alice login app.example.com s3cret\nalice login 127.0.0.1:8080 local-pass\n",
			[]Secret{{Name: "login", Sites: []string{"127.0.0.1:8080"}, Keys: []string{"value"}}, {Name: "login", Sites: []string{"app.example.com"}, Keys: []string{"value"}}},
			map[string]string{"login": "s3cret"}},
		{"dots in names, as before", "alice api.token * tok-123456\n",
			[]Secret{{Name: "api.token", Sites: []string{"*"}, Keys: []string{"value"}}},
			map[string]string{"api.token": "tok-123456"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := mustLoad(t, tc.body)
			assert.Check(t, is.DeepEqual(s.List("alice"), tc.want))
			for name, want := range tc.values {
				v, err := s.Value("alice", name, "", "https://app.example.com/")
				assert.Check(t, err)
				assert.Check(t, is.Equal(v, want))
			}
		})
	}
}

// TestFileProblems checks that every problem names its line and never a
// field: the columns may be shifted, so that any field is a value.
func TestFileProblems(t *testing.T) {
	cases := []struct{ name, body, want string }{
		{"three fields", "alice login s3cret\n", "line 1: the line has 3 of its 4 fields; want \"principal name[/key] site[,site...] value\""},
		{"one field", "\n\ns3cret\n", "line 3: the line has 1 of its 4 fields"},
		{"blank site", "alice login  ,app.example.com  s3cret\n", "line 1: site 1 of field 3: a site is blank"},
		{"trailing comma", "alice login app.example.com, s3cret\n", "line 1: site 2 of field 3: a site is blank"},
		{"scheme", "alice login https://app.example.com s3cret\n", "line 1: site 1 of field 3: a site has a scheme such as https://; write the host alone"},
		{"value in the site column", "alice login s3cret!x app.example.com\n", "line 1: site 1 of field 3: a site is not a host name"},
		{"value in the name column", "alice s3cret!x app.example.com value\n", "line 1: the secret name (field 2) must be"},
		{"value in the principal column", "s3cret!x alice app.example.com value\n", "line 1: the principal (field 1) is not valid"},
		{"bad key", "alice login/-x app.example.com s3cret\n", "line 1: the key (field 2, after /) must be"},
		{"empty key", "alice login/ app.example.com s3cret\n", "line 1: the key (field 2, after /) must be"},
		{"reserved key", "alice login/_sites app.example.com s3cret\n", "line 1: the key (field 2, after /) begins with _"},
		{"twice", "alice login app.example.com s3cret\n# x\nalice login app.example.com local-pass\n", "line 3: defines the same secret, key and sites as line 1; remove one"},
		{"overlapping sites", "alice login app.example.com s3cret\nalice login app.example.com,b.test local-pass\n", "line 2: binds a secret name to a site that line 1 also binds it to"},
		{"two descriptions", "alice login a.test s3cret\nalice login/_description a.test one\nalice login/_description a.test two\n", "line 3: describes the secret differently from line 2"},
		{"description alone", "alice login/_description a.test one\n", "line 1: describes a secret that nothing gives a value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := writeFile(t, tc.body)
			s, err := Load(Sources{File: p})
			assert.Check(t, is.ErrorContains(err, "FLOW_SECRETS file "+p+", "+tc.want))
			checkNoValue(t, err.Error(), "s3cret!x")
			_, verr := s.Value("alice", "login", "", "https://a.test/")
			assert.Check(t, is.ErrorIs(verr, ErrBroken))
			checkNoValue(t, verr.Error(), "s3cret!x")
		})
	}
}
