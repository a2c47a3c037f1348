package secrets

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// docBlocks returns the fenced code blocks of the knowledge document on
// secrets, so its examples are the ones the tests load.
func docBlocks(t *testing.T) [][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "knowledge", "documents", "secrets.md"))
	assert.NilError(t, err)
	var blocks [][]string
	var cur []string
	in := false
	for line := range strings.SplitSeq(string(b), "\n") {
		if strings.HasPrefix(line, "```") {
			if in {
				blocks = append(blocks, cur)
			}
			in, cur = !in, nil
			continue
		}
		if in {
			cur = append(cur, line)
		}
	}
	return blocks
}

// docExample is the block whose lines (but for comments) all begin with
// prefix.
func docExample(t *testing.T, prefix string) []string {
	t.Helper()
	for _, b := range docBlocks(t) {
		ok := len(b) > 0
		for _, l := range b {
			if !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, prefix) {
				ok = false
			}
		}
		if ok {
			return b
		}
	}
	t.Fatalf("knowledge/documents/secrets.md has no example of lines beginning %q", prefix)
	return nil
}

// TestKnowledgeExamples loads the file, folder and environment examples of
// knowledge/documents/secrets.md together.
func TestKnowledgeExamples(t *testing.T) {
	var file []string
	for _, b := range docBlocks(t) {
		if len(b) > 0 && strings.HasPrefix(b[0], "# principal") {
			file = b
		}
	}
	assert.Assert(t, file != nil, "knowledge/documents/secrets.md has no FLOW_SECRETS example beginning with its \"# principal\" header")

	dir := t.TempDir()
	for _, l := range docExample(t, "$FLOW_SECRETS_DIR/") {
		path, content, ok := strings.Cut(strings.TrimPrefix(l, "$FLOW_SECRETS_DIR/"), " ")
		assert.Assert(t, ok, "%q is a path and its content", l)
		writeTree(t, dir, map[string]string{path: strings.TrimSpace(content) + "\n"})
	}
	env := docExample(t, EnvPrefix)

	s, err := Load(Sources{File: writeFile(t, strings.Join(file, "\n")), Dir: dir, Environ: env})
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(s.List("local"), []Secret{
		{Name: "api-token", Sites: []string{"api.example.com"}, Keys: []string{"value"}},
		{Name: "mail", Description: "The shared test mailbox", Sites: []string{"*.mail.example.com", "mail.example.com"}, Keys: []string{"password", "username"}},
		{Name: "staging-admin", Sites: []string{"staging.example.com"}, Keys: []string{"password", "username"}},
		{Name: "staging-password", Sites: []string{"127.0.0.1:8080"}, Keys: []string{"value"}},
		{Name: "staging-password", Sites: []string{"staging.example.com"}, Keys: []string{"value"}},
	}))
	assert.Check(t, is.DeepEqual(s.List("ci-bot"), []Secret{
		{Name: "deploy-key", Description: "Token for the deploy console", Sites: []string{"deploy.example.com"}, Keys: []string{"value"}},
		{Name: "github", Description: "The release bot's account", Sites: []string{"*.github.com", "github.com"}, Keys: []string{"password", "username"}},
		{Name: "smtp-relay", Sites: []string{"*"}, Keys: []string{"value"}},
	}))
	cases := []struct{ principal, name, page, want string }{
		{"local", "staging-password", "https://staging.example.com/login", "<the password>"},
		{"local", "staging-password", "http://127.0.0.1:8080/login", "<the local password>"},
		{"local", "staging-admin/username", "https://staging.example.com/", "admin"},
		{"local", "mail/username", "https://www.mail.example.com/", "ada@example.com"},
		{"ci-bot", "github/username", "https://github.com/login", "release-bot"},
		{"ci-bot", "deploy-key", "https://deploy.example.com/", "<the token>"},
		{"ci-bot", "smtp-relay", "https://anything.test/", "<the relay password>"},
	}
	for _, tc := range cases {
		v, err := s.Value(tc.principal, tc.name, "", tc.page)
		assert.Check(t, err)
		assert.Check(t, is.Equal(v, tc.want), tc.name)
	}
}
