package secrets

import (
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// writeTree writes files under dir; a path ending in / is a folder.
func writeTree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, body := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if p[len(p)-1] == '/' {
			assert.NilError(t, os.MkdirAll(full, 0o700))
			continue
		}
		assert.NilError(t, os.MkdirAll(filepath.Dir(full), 0o700))
		assert.NilError(t, os.WriteFile(full, []byte(body), 0o600))
	}
}

func TestDir(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"alice/gh/username":        "ada-user\n",
		"alice/gh/password":        "gh-pass-1\r\n",
		"alice/gh/_allowed_sites":  "# where\ngithub.com\n\n*.github.com, gist.github.com\n",
		"alice/gh/_description":    "  The release bot\n",
		"alice/pem/value":          "line one\nline two\n\n",
		"alice/pem/_allowed_sites": "*",
		"bob/login/value":          "  bobs-pass  ",
		"bob/login/_allowed_sites": "app.example.com",
		".hidden/x/value":          "ignored",
		"bob/.ignored/value":       "ignored",
	})
	// A Kubernetes mount: keys are links into a timestamped folder.
	k8s := filepath.Join(dir, "carol", "k8s")
	writeTree(t, k8s, map[string]string{"..2024_01_01/value": "k8s-value\n", "..2024_01_01/_allowed_sites": "k8s.example.com\n"})
	assert.NilError(t, os.Symlink("..2024_01_01", filepath.Join(k8s, "..data")))
	for _, f := range []string{"value", "_allowed_sites"} {
		assert.NilError(t, os.Symlink(filepath.Join("..data", f), filepath.Join(k8s, f)))
	}

	s, err := Load(Sources{Dir: dir})
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(s.List("alice"), []Secret{
		{Name: "gh", Description: "The release bot", Sites: []string{"*.github.com", "gist.github.com", "github.com"}, Keys: []string{"password", "username"}},
		{Name: "pem", Sites: []string{"*"}, Keys: []string{"value"}},
	}))
	cases := []struct{ principal, name, page, want string }{
		{"alice", "gh/password", "https://github.com/", "gh-pass-1"},
		{"alice", "gh/username", "https://gist.github.com/", "ada-user"},
		{"alice", "pem", "https://a.test/", "line one\nline two\n"},
		{"bob", "login", "https://app.example.com/", "  bobs-pass  "},
		{"carol", "k8s", "https://k8s.example.com/", "k8s-value"},
	}
	for _, tc := range cases {
		v, err := s.Value(tc.principal, tc.name, "", tc.page)
		assert.Check(t, err)
		assert.Check(t, is.Equal(v, tc.want), tc.name)
	}
	assert.Check(t, is.Len(s.List(".hidden"), 0))
}

func TestDirProblems(t *testing.T) {
	cases := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"no sites file", map[string]string{"alice/gh/password": "gh-pass-1"},
			[]string{"alice/gh/_allowed_sites: is missing; list the sites"}},
		{"blank sites", map[string]string{"alice/gh/password": "gh-pass-1", "alice/gh/_allowed_sites": "\n\n"},
			[]string{"alice/gh/_allowed_sites: lists no site"}},
		{"blank site in a list", map[string]string{"alice/gh/password": "gh-pass-1", "alice/gh/_allowed_sites": "github.com,\n"},
			[]string{"alice/gh/_allowed_sites: site 2: a site is blank"}},
		{"bad site", map[string]string{"alice/gh/password": "gh-pass-1", "alice/gh/_allowed_sites": "https://github.com"},
			[]string{"alice/gh/_allowed_sites: site 1: a site has a scheme"}},
		{"no key", map[string]string{"alice/gh/_allowed_sites": "github.com"},
			[]string{"alice/gh: has no key file"}},
		{"empty key", map[string]string{"alice/gh/password": "\n", "alice/gh/_allowed_sites": "github.com"},
			[]string{"alice/gh/password: is empty", "alice/gh: has no key file"}},
		{"bad key", map[string]string{"alice/gh/-pw": "gh-pass-1", "alice/gh/_allowed_sites": "github.com"},
			[]string{"alice/gh/-pw: is not a valid key"}},
		{"reserved key", map[string]string{"alice/gh/_sites": "github.com", "alice/gh/password": "gh-pass-1", "alice/gh/_allowed_sites": "github.com"},
			[]string{"alice/gh/_sites: is not a key: names beginning with _ are kept"}},
		{"key folder", map[string]string{"alice/gh/password/": "", "alice/gh/_allowed_sites": "github.com"},
			[]string{"alice/gh/password: is not a file"}},
		{"file for a secret", map[string]string{"alice/gh": "gh-pass-1"},
			[]string{"alice/gh: is not a folder; a secret is a folder"}},
		{"file for a principal", map[string]string{"alice": "gh-pass-1"},
			[]string{"alice: is not a folder; FLOW_SECRETS_DIR holds a folder per principal"}},
		{"bad principal", map[string]string{"al ice/gh/password": "gh-pass-1", "al ice/gh/_allowed_sites": "github.com"},
			[]string{"al ice: is not a valid principal"}},
		{"bad name", map[string]string{"alice/g h/password": "gh-pass-1", "alice/g h/_allowed_sites": "github.com"},
			[]string{"alice/g h: is not a valid secret name"}},
		{"too large", map[string]string{"alice/gh/password": string(make([]byte, maxValueFile+1)), "alice/gh/_allowed_sites": "github.com"},
			[]string{"alice/gh/password: is larger than 64 KiB"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			s, err := Load(Sources{Dir: dir})
			assert.Assert(t, err != nil)
			for _, w := range tc.want {
				assert.Check(t, is.ErrorContains(err, "FLOW_SECRETS_DIR "+dir+", "+w))
			}
			checkNoValue(t, err.Error())
			assert.Check(t, s.Err() != nil)
			// The values that could be read are redacted all the same.
			assert.Check(t, !s.Contains("alice", "github.com") && (tc.files["alice/gh/password"] != "gh-pass-1" || s.Contains("alice", "gh-pass-1")))
		})
	}
	_, err := Load(Sources{Dir: filepath.Join(t.TempDir(), "missing")})
	assert.Check(t, is.ErrorContains(err, "missing: cannot read the folder"))
}
