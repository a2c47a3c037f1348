package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestRepositoryTableIsFresh pins that resources/table_gen.go is what gen
// writes from the repository's own corpus.
func TestRepositoryTableIsFresh(t *testing.T) {
	src, err := Generate("..")
	assert.NilError(t, err)
	have, err := os.ReadFile("../resources/table_gen.go")
	assert.NilError(t, err)
	assert.Check(t, string(have) == string(src), "resources/table_gen.go is stale: run make generate")
}

func TestFixtureGenerates(t *testing.T) {
	src, err := Generate("testdata/corpus")
	assert.NilError(t, err)
	s := string(src)
	assert.Check(t, strings.HasPrefix(s, "// Code generated"))
	assert.Check(t, strings.Contains(s, "DO NOT EDIT."))
	for _, uri := range []string{"knowledge://documents/alpha", "skill://demo/SKILL.md", "skill://demo/references/base.md", "skill://demo/references/NOTES.md", "flow://schema", "session://current"} {
		assert.Check(t, is.Contains(s, `URI:         "`+uri+`"`))
	}
	assert.Check(t, is.Contains(s, `Title:       "Demo: Notes"`))
	assert.Check(t, is.Contains(s, "Topic: One (holds on any site you automate)."))
	// Digests and sizes are computed here, at generate time.
	assert.Check(t, is.Contains(s, `Digest:      "sha256:`))
	assert.Check(t, is.Contains(s, `Frontmatter: "{\"description\":\"Use when testing gen.\",\"name\":\"demo\"}"`))
	assert.Check(t, is.Contains(s, "Unlisted:    true"))
}

// TestProblems breaks a copy of the fixture one way at a time and checks
// gen reports the problem at its file and line.
func TestProblems(t *testing.T) {
	cases := []struct {
		name  string
		edit  func(t *testing.T, root string)
		wants []string
	}{
		{
			name: "document named by no topic",
			edit: func(t *testing.T, root string) {
				write(t, root, "knowledge/documents/gamma.md", "---\nid: gamma\ntitle: Gamma\nsummary: G.\n---\n# Gamma\n")
			},
			wants: []string{`knowledge/documents/gamma.md:1: document "gamma" is named by no topic`},
		},
		{
			name: "topic names a missing document",
			edit: func(t *testing.T, root string) {
				replace(t, root, "knowledge/server-scope.json", `"documents": ["beta"]`, `"documents": ["beta", "delta"]`)
			},
			wants: []string{`knowledge/server-scope.json:6: topic "two" names document "delta", which does not exist`},
		},
		{
			name: "published skill without description",
			edit: func(t *testing.T, root string) {
				replace(t, root, "skills/demo/SKILL.md", "description: Use when testing gen.\n", "")
			},
			wants: []string{`skills/demo/SKILL.md:1: published skill "demo" has no description`},
		},
		{
			name: "link that resolves nowhere",
			edit: func(t *testing.T, root string) {
				replace(t, root, "knowledge/documents/alpha.md", "See [beta](beta)", "See [beta](betta)")
			},
			wants: []string{`knowledge/documents/alpha.md:8: link "betta" resolves to knowledge://documents/betta, which the server does not answer`},
		},
		{
			name: "relative link in a reference resolves against its URI",
			edit: func(t *testing.T, root string) {
				replace(t, root, "skills/demo/references/NOTES.md", "(../SKILL.md)", "(SKILL.md)")
			},
			wants: []string{`skills/demo/references/NOTES.md:3: link "SKILL.md" resolves to skill://demo/references/SKILL.md`},
		},
		{
			name: "web link",
			edit: func(t *testing.T, root string) {
				replace(t, root, "skills/base.md", "first.", "first, or [the web](https://example.com/x).")
			},
			wants: []string{`skills/base.md:3: link "https://example.com/x" resolves to https://example.com/x`},
		},
		{
			name: "titles one letter apart",
			edit: func(t *testing.T, root string) {
				replace(t, root, "knowledge/documents/beta.md", "title: Beta", "title: Alphas")
			},
			wants: []string{`knowledge/documents/beta.md:3: knowledge://documents/beta is titled "Alphas" and knowledge://documents/alpha "Alpha"`},
		},
		{
			name: "topic title in sentence case",
			edit: func(t *testing.T, root string) {
				replace(t, root, "knowledge/server-scope.json", `"title": "Two"`, `"title": "Two things"`)
			},
			wants: []string{`knowledge/server-scope.json:6: topic "two" is titled "Two things"; titles are in title case: "Two Things"`},
		},
		{
			name: "topic names a draft skill",
			edit: func(t *testing.T, root string) {
				replace(t, root, "skills/demo/SKILL.md", "description:", "draft: true\ndescription:")
			},
			wants: []string{`topic "one" names draft skill "demo"`},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := copyTree(t, "testdata/corpus")
			tc.edit(t, root)
			_, err := Generate(root)
			assert.Assert(t, err != nil, "gen accepted a broken corpus")
			for _, w := range tc.wants {
				assert.Check(t, is.Contains(err.Error(), w))
			}
		})
	}
}

func write(t *testing.T, root, rel, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	assert.NilError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	assert.NilError(t, os.WriteFile(p, []byte(body), 0o644))
}

func replace(t *testing.T, root, rel, old, new string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	assert.NilError(t, err)
	assert.Assert(t, strings.Contains(string(b), old), "%s has no %q", rel, old)
	assert.NilError(t, os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644))
}

func copyTree(t *testing.T, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	assert.NilError(t, err)
	return dst
}
