package secrets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

const file = `# principal name site value
alice login app.example.com s3cret with spaces
alice login 127.0.0.1:8080 local-pass
alice api * any-site-key
bob login app.example.com bobs-pass
`

func load(t *testing.T, body string) (*Store, error) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(p, []byte(body), 0o600))
	return Load(p)
}

func TestValue(t *testing.T) {
	s, err := load(t, file)
	assert.NilError(t, err)
	cases := []struct {
		principal, name, page, want, err string
	}{
		{"alice", "login", "https://app.example.com/login", "s3cret with spaces", ""},
		{"alice", "login", "http://127.0.0.1:8080/", "local-pass", ""},
		{"alice", "api", "http://anything.test/", "any-site-key", ""},
		{"bob", "login", "https://app.example.com/", "bobs-pass", ""},
		{"alice", "login", "https://evil.example.net/", "", `not bound to evil.example.net; it may only be typed on app.example.com, 127.0.0.1:8080`},
		{"alice", "nope", "https://app.example.com/", "", `no secret named "nope"; yours are api, login`},
		{"carol", "login", "https://app.example.com/", "", "nor any other"},
		{"bob", "api", "https://app.example.com/", "", `yours are login`},
	}
	for _, tc := range cases {
		got, err := s.Value(tc.principal, tc.name, tc.page)
		if tc.err != "" {
			assert.Check(t, is.ErrorContains(err, tc.err))
			for _, v := range []string{"s3cret", "local-pass", "any-site-key", "bobs-pass"} {
				assert.Check(t, !strings.Contains(err.Error(), v), "a refusal leaks a value")
			}
			continue
		}
		assert.NilError(t, err)
		assert.Check(t, is.Equal(got, tc.want))
	}
	assert.Check(t, is.DeepEqual(s.List("bob"), []Secret{{Name: "login", Site: "app.example.com"}}))
	assert.Check(t, is.Equal(s.Redact("alice", "typed local-pass here"), "typed [secret login] here"))
}

func TestLoadRefusalsNeverQuoteTheLine(t *testing.T) {
	_, err := load(t, "alice login hunter2\n")
	assert.Check(t, is.ErrorContains(err, "line 1"))
	assert.Check(t, !strings.Contains(err.Error(), "hunter2"))
	_, err = load(t, "alice bad/name site value\n")
	assert.Check(t, is.ErrorContains(err, "secret name"))
}

func TestRedactEncodedForms(t *testing.T) {
	s, err := load(t, "alice pw * kumquat 4417 & \"co\"/x\nalice pin * 42\n")
	assert.NilError(t, err)
	cases := []struct{ name, text, want string }{
		{"as is", `typed kumquat 4417 & "co"/x here`, "typed [secret pw] here"},
		{"query", "http://h/landing?password=kumquat+4417+%26+%22co%22%2Fx&next=1", "http://h/landing?password=[secret pw]&next=1"},
		{"path", "http://h/u/kumquat%204417%20&%20%22co%22%2Fx", "http://h/u/[secret pw]"},
		{"html", "<input value=\"kumquat 4417 &amp; &#34;co&#34;/x\">", "<input value=\"[secret pw]\">"},
		{"json", `{"text": "kumquat 4417 \u0026 \"co\"/x"}`, `{"text": "[secret pw]"}`},
		{"short values are left", "pin 42", "pin 42"},
		{"other principals' values are left", "bobs-pass", "bobs-pass"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Check(t, is.Equal(s.Redact("alice", tc.text), tc.want))
		})
	}
}
