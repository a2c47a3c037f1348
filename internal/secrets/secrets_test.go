package secrets

import (
	"errors"
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

// values are every value in file, dirs and envs below, for checking that no
// refusal or problem quotes one.
var values = []string{"s3cret", "local-pass", "any-site-key", "bobs-pass", "ada-user", "gh-pass-1", "wild-value", "deep-value"}

func writeFile(t testing.TB, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(p, []byte(body), 0o600))
	return p
}

func load(t testing.TB, body string) (*Store, error) {
	t.Helper()
	return Load(Sources{File: writeFile(t, body)})
}

func mustLoad(t testing.TB, body string) *Store {
	t.Helper()
	s, err := load(t, body)
	assert.NilError(t, err)
	return s
}

func checkNoValue(t *testing.T, text string, vals ...string) {
	t.Helper()
	for _, v := range append(vals, values...) {
		assert.Check(t, !strings.Contains(text, v), "%q leaks a value", text)
	}
}

func TestValue(t *testing.T) {
	s := mustLoad(t, file+`
alice gh/username github.com,*.github.com ada-user
alice gh/password github.com,*.github.com gh-pass-1
alice wild *.example.com wild-value
alice wild *.deep.example.com deep-value
alice wild app.example.com s3cret-app
`)
	cases := []struct {
		name, principal, secret, key, page, want, err string
	}{
		{"host", "alice", "login", "", "https://app.example.com/login", "s3cret with spaces", ""},
		{"host any port", "alice", "login", "", "http://app.example.com:3000/", "s3cret with spaces", ""},
		{"host:port", "alice", "login", "", "http://127.0.0.1:8080/", "local-pass", ""},
		{"host:port, other port", "alice", "login", "", "http://127.0.0.1:9090/", "", "may only be typed on 127.0.0.1:8080 or app.example.com; this page is on 127.0.0.1:9090. Navigate to that site first"},
		{"star", "alice", "api", "", "http://anything.test/", "any-site-key", ""},
		{"star, key value", "alice", "api", "value", "http://anything.test/", "any-site-key", ""},
		{"star never on data:", "alice", "api", "", "data:text/html,<form>", "", "this page is not on a web site (its address begins with data:), and secrets are typed only on http and https pages"},
		{"star never on about:", "alice", "api", "", "about:blank", "", "begins with about:"},
		{"star never on blob:", "alice", "api", "", "blob:https://app.example.com/0b1c", "", "begins with blob:"},
		{"star never on file:", "alice", "api", "", "file:///etc/passwd", "", "begins with file:"},
		{"no page", "alice", "api", "", "", "", "cannot tell which site this page is on"},
		{"host in upper case, trailing dot", "alice", "login", "", "https://APP.Example.COM./", "s3cret with spaces", ""},
		{"user info does not fool", "alice", "login", "", "https://app.example.com@evil.test/", "", "this page is on evil.test"},
		{"other principal", "bob", "login", "", "https://app.example.com/", "bobs-pass", ""},
		{"wrong site", "alice", "login", "", "https://evil.example.net/", "", `the secret "login" may only be typed on 127.0.0.1:8080 or app.example.com; this page is on evil.example.net. Navigate to that site first, or ask the operator to add evil.example.net to its sites`},
		{"not a host of a site's name", "alice", "login", "", "https://app.example.com.evil.test/", "", "this page is on app.example.com.evil.test"},
		{"unknown", "alice", "nope", "", "https://app.example.com/", "", `you have no secret named "nope"; yours are api, gh, login, wild (secret://secrets lists them`},
		{"no secrets at all", "carol", "login", "", "https://app.example.com/", "", "nor any other; ask the operator"},
		{"other principal's name", "bob", "api", "", "https://app.example.com/", "", `yours are login`},
		{"keys: one named", "alice", "gh", "password", "https://github.com/login", "gh-pass-1", ""},
		{"keys: name/key", "alice", "gh/username", "", "https://github.com/login", "ada-user", ""},
		{"keys: name/key and the same key", "alice", "gh/username", "username", "https://github.com/login", "ada-user", ""},
		{"keys: two keys", "alice", "gh/username", "password", "https://github.com/", "", `the secret "gh/username" names the key "username", and the key asked for is "password"`},
		{"keys: none named", "alice", "gh", "", "https://github.com/login", "", `the secret "gh" has the keys password and username; name the one to type: write with secret "gh/password" or "gh/username"`},
		{"keys: unknown", "alice", "gh", "pin", "https://github.com/login", "", `the secret "gh" has no key "pin" on github.com; write with secret "gh/password" or "gh/username"`},
		{"wildcard: subdomain", "alice", "gh", "password", "https://api.github.com/", "gh-pass-1", ""},
		{"wildcard: deeper", "alice", "wild", "", "https://a.b.example.com/", "wild-value", ""},
		{"wildcard: not the domain itself", "alice", "wild", "", "https://example.com/", "", "may only be typed on *.deep.example.com, *.example.com or app.example.com"},
		{"wildcard: not a look-alike", "alice", "wild", "", "https://badexample.com/", "", "this page is on badexample.com"},
		{"wildcard: longest wins", "alice", "wild", "", "https://x.deep.example.com/", "deep-value", ""},
		{"wildcard: host beats wildcard", "alice", "wild", "", "https://app.example.com/", "s3cret-app", ""},
		{"wildcard: the longer is not the domain", "alice", "wild", "", "https://deep.example.com/", "wild-value", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := s.Value(tc.principal, tc.secret, tc.key, tc.page)
			if tc.err != "" {
				assert.Check(t, is.ErrorContains(err, tc.err))
				assert.Check(t, is.Equal(got, ""))
				checkNoValue(t, err.Error(), "s3cret-app")
				return
			}
			assert.NilError(t, err)
			assert.Check(t, is.Equal(got, tc.want))
		})
	}
}

func TestSite(t *testing.T) {
	cases := []struct {
		text, want string
		err        error
	}{
		{"app.example.com", "app.example.com", nil},
		{"App.Example.COM.", "app.example.com", nil},
		{"app.example.com:8443", "app.example.com:8443", nil},
		{"127.0.0.1", "127.0.0.1", nil},
		{"[::1]:8080", "[::1]:8080", nil},
		{"[0:0::1]", "[::1]", nil},
		{"*", "*", nil},
		{"*.example.com", "*.example.com", nil},
		{"my_host", "my_host", nil},
		{"", "", errBlankSite},
		{"  ", "", errBlankSite},
		{"https://app.example.com", "", errSiteScheme},
		{"app.example.com/login", "", errSitePath},
		{"user@app.example.com", "", errSitePath},
		{"*example.com", "", errSiteStar},
		{"app.*.com", "", errSiteStar},
		{"*.*.com", "", errSiteHostname},
		{"*.", "", errBlankSite},
		{"host:0", "", errSitePort},
		{"host:70000", "", errSitePort},
		{"host:", "", errSitePort},
		{"host:+80", "", errSitePort},
		{"::1", "", errSiteIPv6},
		{"[::1", "", errSiteHostname},
		{"[1.2.3.4]", "", errSiteHostname},
		{"a..b", "", errSiteHostname},
		{"héllo.example", "", errSiteHostname},
		{"a b", "", errSiteHostname},
	}
	for _, tc := range cases {
		t.Run(tc.text, func(t *testing.T) {
			s, err := parseSite(tc.text)
			if tc.err != nil {
				assert.Check(t, is.ErrorIs(err, tc.err))
				return
			}
			assert.NilError(t, err)
			assert.Check(t, is.Equal(s.String(), tc.want))
		})
	}
}

func TestList(t *testing.T) {
	s := mustLoad(t, file+`
alice gh/username github.com,*.github.com ada-user
alice gh/password *.github.com,github.com gh-pass-1
alice gh/_description github.com,*.github.com   The release bot's account  
`)
	assert.Check(t, is.DeepEqual(s.List("alice"), []Secret{
		{Name: "api", Sites: []string{"*"}, Keys: []string{"value"}},
		{Name: "gh", Description: "The release bot's account", Sites: []string{"*.github.com", "github.com"}, Keys: []string{"password", "username"}},
		{Name: "login", Sites: []string{"127.0.0.1:8080"}, Keys: []string{"value"}},
		{Name: "login", Sites: []string{"app.example.com"}, Keys: []string{"value"}},
	}))
	assert.Check(t, is.DeepEqual(s.List("bob"), []Secret{{Name: "login", Sites: []string{"app.example.com"}, Keys: []string{"value"}}}))
	assert.Check(t, is.Len(s.List("carol"), 0))
	var none *Store
	assert.Check(t, is.Len(none.List("alice"), 0))
	_, err := none.Value("alice", "x", "", "https://a.test/")
	assert.Check(t, is.ErrorContains(err, "nor any other"))
	assert.Check(t, is.Equal(none.Redact("alice", "text"), "text"))
}

func TestBroken(t *testing.T) {
	s, err := load(t, "alice login app.example.com s3cret\nalice api ,x any-site-key\nbob login app.example.com\n")
	assert.Assert(t, s != nil, "a broken store is still a store")
	assert.Check(t, is.ErrorContains(err, "line 2: site 1 of field 3: a site is blank"))
	assert.Check(t, is.ErrorContains(err, "line 3: the line has 3 of its 4 fields"))
	checkNoValue(t, err.Error())
	assert.Check(t, is.Equal(s.Err(), err))
	var le *LoadError
	assert.Check(t, errors.As(err, &le))

	_, verr := s.Value("alice", "login", "", "https://app.example.com/")
	assert.Check(t, errors.Is(verr, ErrBroken))
	assert.Check(t, is.Error(verr, "the server's secret configuration is broken (2 problems, the first in the FLOW_SECRETS file at line 2); ask the operator to fix it and restart the server"))
	assert.Check(t, !strings.Contains(verr.Error(), filepath.Dir(os.TempDir())+"/"), "no operator path")
	assert.Check(t, is.Len(s.List("alice"), 0))
	// Values that could be read are still redacted, the one of the line
	// with bad sites too.
	assert.Check(t, is.Equal(s.Redact("alice", "s3cret any-site-key"), "[secret login] [secret api]"))
	assert.Check(t, s.Contains("alice", "x any-site-key"))

	_, err = Load(Sources{File: filepath.Join(t.TempDir(), "missing")})
	assert.Check(t, is.ErrorContains(err, "FLOW_SECRETS file "))
	assert.Check(t, is.ErrorContains(err, "missing: cannot open it"))
}

func TestFromEnviron(t *testing.T) {
	src := FromEnviron([]string{"HOME=/root", "FLOW_SECRETS=/etc/s", "FLOW_SECRETS_DIR=/run/s", "FLOW_SECRET_a__b=c"})
	assert.Check(t, is.Equal(src.File, "/etc/s"))
	assert.Check(t, is.Equal(src.Dir, "/run/s"))
	assert.Check(t, is.Len(src.Environ, 4))
}

// TestCombined takes one secret's keys from the three sources and checks
// that conflicts between them are named.
func TestCombined(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"alice/gh/password":       "gh-pass-1\n",
		"alice/gh/_allowed_sites": "github.com\n",
	})
	env := []string{"FLOW_SECRET_alice__gh__token=tok-123456", "FLOW_SECRET_alice__gh_SITES=github.com"}
	s, err := Load(Sources{File: writeFile(t, "alice gh/username github.com ada-user\n"), Dir: dir, Environ: env})
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(s.List("alice"), []Secret{{Name: "gh", Sites: []string{"github.com"}, Keys: []string{"password", "token", "username"}}}))
	v, err := s.Value("alice", "gh/token", "", "https://github.com/")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(v, "tok-123456"))

	_, err = Load(Sources{File: writeFile(t, "alice gh/password github.com gh-pass-2\n"), Dir: dir})
	assert.Check(t, is.ErrorContains(err, "alice/gh/password: defines the same secret, key and sites as FLOW_SECRETS line 1; remove one"))
	_, err = Load(Sources{File: writeFile(t, "alice gh/username github.com,gitlab.com ada-user\n"), Dir: dir})
	assert.Check(t, is.ErrorContains(err, "alice/gh/password: binds a secret name to a site that FLOW_SECRETS line 1 also binds it to"))
	checkNoValue(t, err.Error(), "gh-pass-2")
}
