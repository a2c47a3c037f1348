package resources_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/resources"
)

// skillConfig is a table with two skills, one with nested folders, and
// two documents, paged two at a time.
func skillConfig() resources.Config {
	fm := func(name string) string { return `{"description":"Use ` + name + `.","name":"` + name + `"}` }
	return resources.Config{
		Scope: resources.Scope{Topics: []resources.Topic{
			{ID: "t", Title: "T", Scope: "everywhere", Documents: []string{"a", "b"}, Skills: []string{"demo", "other"}, Tools: []string{"x"}},
		}},
		Entries: []resources.Entry{
			{URI: resources.IndexURI, Name: "index", Title: "Index", Kind: resources.Runtime, Reader: "knowledge.index"},
			{URI: "knowledge://documents/a", Name: "doc-a", Title: "A", MIMEType: "text/markdown", Body: "# A\n"},
			{URI: "knowledge://documents/b", Name: "doc-b", Title: "B", MIMEType: "text/markdown", Body: "# B\n"},
			{URI: "skill://demo/SKILL.md", Name: "demo", Title: "Demo Skill", MIMEType: "text/markdown", Body: "---\nname: demo\n---\n", Frontmatter: fm("demo")},
			{URI: "skill://demo/references/NOTES.md", Name: "demo-notes", Title: "Demo: Notes", MIMEType: "text/markdown", Body: "# Notes\n", Unlisted: true},
			{URI: "skill://demo/references/deep/MORE.md", Name: "demo-more", Title: "Demo: More", MIMEType: "text/markdown", Body: "# More\n", Unlisted: true},
			{URI: "skill://demo/references/base.md", Name: "demo-base", Title: "Demo: Base", MIMEType: "text/markdown", Body: "# Base\n", Unlisted: true},
			{URI: "skill://other/SKILL.md", Name: "other", Title: "Other Skill", MIMEType: "text/markdown", Body: "---\nname: other\n---\n", Frontmatter: fm("other")},
			{URI: "skill://{id}/references/{file}", Name: "ref", Title: "Reference", Template: true},
			{URI: "flow://schema", Name: "schema", Title: "Schema", MIMEType: "application/schema+json", Tools: []string{"save_flow"},
				Body: `{"properties":{"steps":{"items":{"properties":{"tool":{"enum":["navigate","click"]}}}}}}`},
		},
		PageSize: 2,
	}
}

func skillTable(t *testing.T, change func(*resources.Config)) *resources.Table {
	t.Helper()
	cfg := skillConfig()
	if change != nil {
		change(&cfg)
	}
	tb, err := resources.New(cfg)
	assert.NilError(t, err)
	return tb
}

// TestSkillEntries: a skill's entry is its front matter and every file
// under it, SKILL.md first, with the digest and size of the bytes a read
// returns; skills/list pages without splitting an entry.
func TestSkillEntries(t *testing.T) {
	tb := skillTable(t, nil)
	assert.Check(t, tb.HasSkills())
	s, err := tb.Skill("skill://demo/SKILL.md")
	assert.NilError(t, err)
	var fm map[string]string
	assert.NilError(t, json.Unmarshal(s.Frontmatter, &fm))
	assert.Check(t, is.Equal(fm["name"], "demo"))
	var uris []string
	for _, f := range s.Resources {
		uris = append(uris, f.URI)
		c, err := tb.Read(context.Background(), f.URI)
		assert.NilError(t, err)
		assert.Check(t, is.Equal(f.Size, int64(len(c.Text))), f.URI)
		assert.Check(t, is.Equal(f.Digest, resources.Digest([]byte(c.Text))), f.URI)
	}
	assert.DeepEqual(t, uris, []string{"skill://demo/SKILL.md", "skill://demo/references/NOTES.md", "skill://demo/references/base.md", "skill://demo/references/deep/MORE.md"})

	page, next, err := tb.Skills("")
	assert.NilError(t, err)
	assert.Check(t, is.Len(page, 2))
	assert.Check(t, is.Equal(next, ""), "two skills fit a page of two")

	for _, bad := range []string{"skill://demo", "skill://nope/SKILL.md", "knowledge://documents/a", ""} {
		_, err := tb.Skill(bad)
		assert.Check(t, errors.Is(err, resources.ErrInvalid), bad)
		assert.Check(t, is.ErrorContains(err, "skills/list"), bad)
	}
	_, _, err = tb.Skills("bogus")
	assert.Check(t, errors.Is(err, resources.ErrInvalid))

	// One a page: the first page lists one skill, and the other, absent
	// from it, is still answered by URI; the cursor gives the second page.
	tb = skillTable(t, func(c *resources.Config) { c.PageSize = 1 })
	page, next, err = tb.Skills("")
	assert.NilError(t, err)
	assert.Check(t, is.Len(page, 1))
	assert.Check(t, is.Equal(page[0].URI, "skill://demo/SKILL.md"))
	other, err := tb.Skill("skill://other/SKILL.md")
	assert.NilError(t, err)
	assert.Check(t, is.Len(other.Resources, 1))
	page, next, err = tb.Skills(next)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(page[0].URI, "skill://other/SKILL.md"))
	assert.Check(t, is.Equal(next, ""))
}

// TestDirectories: each skill's root and folders, and the documents, are
// directories; a read lists one level, pages like a list, and a file or a
// URI that is nothing is refused with the directories that exist.
func TestDirectories(t *testing.T) {
	tb := skillTable(t, nil)
	assert.DeepEqual(t, tb.Directories(), []string{
		"knowledge://documents", "skill://demo", "skill://demo/references", "skill://demo/references/deep", "skill://other",
	})
	walk := func(dir string) (names []string, types []string) {
		cursor := ""
		for {
			page, next, err := tb.Directory(dir, cursor)
			assert.NilError(t, err, dir)
			assert.Check(t, len(page) <= 2)
			for _, r := range page {
				names = append(names, r.URI)
				types = append(types, r.MIMEType)
			}
			if next == "" {
				return
			}
			cursor = next
		}
	}
	names, types := walk("skill://demo/references")
	assert.DeepEqual(t, names, []string{"skill://demo/references/NOTES.md", "skill://demo/references/base.md", "skill://demo/references/deep"})
	assert.DeepEqual(t, types, []string{"text/markdown", "text/markdown", resources.DirectoryMIMEType})
	names, _ = walk("skill://demo")
	assert.DeepEqual(t, names, []string{"skill://demo/SKILL.md", "skill://demo/references"})
	names, _ = walk(resources.DocumentsDirectory)
	assert.DeepEqual(t, names, []string{"knowledge://documents/a", "knowledge://documents/b"})

	_, _, err := tb.Directory("skill://demo/SKILL.md", "")
	assert.Check(t, errors.Is(err, resources.ErrInvalid))
	assert.Check(t, is.ErrorContains(err, "is not a directory resource: read it with resources/read"))
	_, _, err = tb.Directory("skill://nope", "")
	assert.Check(t, is.ErrorContains(err, "no directory at skill://nope. The directories are: knowledge://documents, skill://demo"))
	_, _, err = tb.Directory("skill://demo", "bogus")
	assert.Check(t, is.ErrorContains(err, "is not one resources/directory/read gave"))

	// A read of a directory says what it holds.
	_, err = tb.Read(context.Background(), "skill://demo/references")
	assert.Check(t, is.ErrorContains(err, "skill://demo/references is a directory, not a file: list it with resources/directory/read, or read one of its entries: skill://demo/references/NOTES.md"))
}

// TestWithoutSkills: a table without skills serves no skill:// entry and
// no skill directory; the documents are still a directory.
func TestWithoutSkills(t *testing.T) {
	tb := skillTable(t, func(c *resources.Config) { c.WithoutSkills = true })
	assert.Check(t, !tb.HasSkills())
	for _, e := range tb.Entries() {
		assert.Check(t, !strings.HasPrefix(e.URI, "skill://"), e.URI)
	}
	assert.DeepEqual(t, tb.Directories(), []string{"knowledge://documents"})
}

// TestExclusionWithdraws: an entry whose own text names an excluded tool
// is not served; the flow schema keeps only the step tools left; the index
// says what was taken away; the skill is still read first.
func TestExclusionWithdraws(t *testing.T) {
	tb := skillTable(t, func(c *resources.Config) { c.ExcludedTools = []string{"click"} })
	c, err := tb.Read(context.Background(), "flow://schema")
	assert.NilError(t, err)
	assert.Check(t, is.Contains(c.Text, `"navigate"`))
	assert.Check(t, json.Valid([]byte(c.Text)))
	e, _ := tb.Lookup("flow://schema")
	assert.Check(t, is.Equal(e.Size, int64(len(c.Text))))
	assert.Check(t, is.Equal(e.Digest, resources.Digest([]byte(c.Text))))
	assert.Check(t, !strings.Contains(c.Text, `"click"`))

	tb = skillTable(t, func(c *resources.Config) { c.ExcludedTools = []string{"save_flow", "x"} })
	_, ok := tb.Lookup("flow://schema")
	assert.Check(t, !ok, "flow://schema names save_flow and is still served")
	assert.DeepEqual(t, tb.Withdrawn(), []string{"flow://schema"})
	idx, err := tb.Read(context.Background(), resources.IndexURI)
	assert.NilError(t, err)
	var doc resources.Index
	assert.NilError(t, json.Unmarshal([]byte(idx.Text), &doc))
	assert.Check(t, is.Len(doc.Topics, 0), "the only topic's tool is excluded")
	assert.DeepEqual(t, doc.ReadFirst, []string{resources.IndexURI, "skill://demo/SKILL.md"})
	assert.Assert(t, doc.Unavailable != nil)
	assert.DeepEqual(t, doc.Unavailable.Tools, []string{"save_flow", "x"})
	assert.DeepEqual(t, doc.Unavailable.Resources, []string{"flow://schema"})
}
