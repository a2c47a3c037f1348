package main

import (
	"bytes"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// Problem is one thing wrong with the corpus, at a place in a file.
type Problem struct {
	File string
	Line int
	Msg  string
}

func (p Problem) String() string {
	if p.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s: %s", p.File, p.Msg)
}

// Problems is every problem found, reported together so one run shows them all.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// Check cross-checks the corpus: scope against documents and skills, and
// every Markdown link against the URIs the server answers.
func (c *Corpus) Check() error {
	c.checkScope()
	c.checkLinks()
	c.checkNames()
	c.checkTitles()
	c.checkSkillLimits()
	if len(c.problems) > 0 {
		return c.problems
	}
	return nil
}

const scopeFile = "knowledge/server-scope.json"

func (c *Corpus) checkScope() {
	raw := c.Scope.raw
	if raw == nil {
		return
	}
	if strings.TrimSpace(c.Scope.Purpose) == "" {
		c.problem(scopeFile, lineOf(raw, `"purpose"`), "the scope has no purpose")
	}
	docs := map[string]bool{}
	for _, d := range c.Docs {
		docs[d.ID] = true
	}
	skills := map[string]Skill{}
	for _, s := range c.Skills {
		skills[s.ID] = s
	}
	namedDoc := map[string]string{}
	namedSkill := map[string]string{}
	topicIDs := map[string]bool{}
	for _, t := range c.Scope.Topics {
		at := lineOf(raw, `"`+t.ID+`"`)
		if t.ID == "" || topicIDs[t.ID] {
			c.problem(scopeFile, at, "topic id %q is empty or used twice", t.ID)
		}
		topicIDs[t.ID] = true
		if t.Scope != "everywhere" && t.Scope != "server" {
			c.problem(scopeFile, at, "topic %q has scope %q; want everywhere or server", t.ID, t.Scope)
		}
		if len(t.Tools) == 0 {
			c.problem(scopeFile, at, "topic %q names no tools; name the tools that answer it", t.ID)
		}
		for _, d := range t.Documents {
			switch {
			case !docs[d]:
				c.problem(scopeFile, lineOf(raw, `"`+d+`"`), "topic %q names document %q, which does not exist (knowledge/documents/%s.md)", t.ID, d, d)
			case namedDoc[d] != "":
				c.problem(scopeFile, lineOf(raw, `"`+d+`"`), "document %q is named by topics %q and %q; one topic owns each document", d, namedDoc[d], t.ID)
			}
			namedDoc[d] = t.ID
		}
		for _, s := range t.Skills {
			sk, ok := skills[s]
			switch {
			case !ok:
				c.problem(scopeFile, lineOf(raw, `"`+s+`"`), "topic %q names skill %q, which does not exist (skills/%s/SKILL.md)", t.ID, s, s)
			case sk.Draft:
				c.problem(scopeFile, lineOf(raw, `"`+s+`"`), "topic %q names draft skill %q; drafts are offered nowhere", t.ID, s)
			case namedSkill[s] != "":
				c.problem(scopeFile, lineOf(raw, `"`+s+`"`), "skill %q is named by topics %q and %q; one topic owns each skill", s, namedSkill[s], t.ID)
			}
			namedSkill[s] = t.ID
		}
	}
	for _, d := range c.Docs {
		if namedDoc[d.ID] == "" {
			c.problem(d.File, 1, "document %q is named by no topic; add it to a topic's documents in %s", d.ID, scopeFile)
		}
	}
	for _, s := range c.Published() {
		if namedSkill[s.ID] == "" {
			c.problem(s.File, 1, "published skill %q is named by no topic; add it to a topic's skills in %s", s.ID, scopeFile)
		}
	}
}

// checkLinks parses every published Markdown page with goldmark and checks
// each link destination, resolved against the page's own URI by RFC 3986
// rules, names a URI the server answers.
func (c *Corpus) checkLinks() {
	known := map[string]bool{}
	for _, e := range c.Entries() {
		if !e.Template {
			known[e.URI] = true
		}
	}
	for _, pg := range c.pages() {
		c.checkPageLinks(pg.uri, pg.page, known)
	}
}

type servedPage struct {
	uri  string
	page Page
}

// pages lists each Markdown page with the URI it is served at. The shared
// base.md is checked once per published skill, since its relative links
// resolve differently under each.
func (c *Corpus) pages() []servedPage {
	var out []servedPage
	for _, d := range c.Docs {
		out = append(out, servedPage{docURI(d.ID), d.Page})
	}
	for _, s := range c.Published() {
		out = append(out, servedPage{skillURI(s.ID), s.Page})
		for _, r := range s.Refs {
			out = append(out, servedPage{refURI(s.ID, r.Name), r.Page})
		}
		if c.Base.Body != nil {
			out = append(out, servedPage{refURI(s.ID, "base.md"), c.Base})
		}
	}
	return out
}

func (c *Corpus) checkPageLinks(base string, pg Page, known map[string]bool) {
	if pg.Body == nil {
		return
	}
	baseURL, err := url.Parse(base)
	if err != nil {
		c.problem(pg.File, 1, "served at %q, which is not a URI", base)
		return
	}
	src := pg.Body
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		var dest string
		switch l := n.(type) {
		case *ast.Link:
			dest = string(l.Destination)
		case *ast.Image:
			dest = string(l.Destination)
		case *ast.AutoLink:
			dest = string(l.URL(src))
		default:
			return ast.WalkContinue, nil
		}
		line := linkLine(src, n, dest)
		ref, err := url.Parse(dest)
		if err != nil {
			c.problem(pg.File, line, "link %q is not a URI reference", dest)
			return ast.WalkContinue, nil
		}
		target := baseURL.ResolveReference(ref)
		target.Fragment = ""
		if !known[target.String()] {
			c.problem(pg.File, line, "link %q resolves to %s, which the server does not answer; link one of: %s",
				dest, target, strings.Join(sortedKeys(known), ", "))
		}
		return ast.WalkContinue, nil
	})
}

// linkLine finds the line of a link: from the start of its enclosing block,
// the first place its destination appears.
func linkLine(src []byte, n ast.Node, dest string) int {
	start := 0
	for p := n; p != nil; p = p.Parent() {
		if p.Type() == ast.TypeBlock && p.Lines().Len() > 0 {
			start = p.Lines().At(0).Start
			break
		}
	}
	i := strings.Index(string(src[start:]), dest)
	if i < 0 {
		return lineAt(src, start)
	}
	return lineAt(src, start+i)
}

func (c *Corpus) checkNames() {
	seen := map[string]string{}
	for _, e := range c.Entries() {
		if prev, ok := seen[e.Name]; ok {
			c.problem("resources/runtime.json", lineOf(c.runtimeRaw(), `"`+e.Name+`"`), "name %q is used by %s and %s; names must be unique (cursors rely on them)", e.Name, prev, e.URI)
		}
		seen[e.Name] = e.URI
	}
}

// The Skills extension's per-skill limits: every conforming host loads a
// skill up to these, and a server should serve none larger.
const (
	maxSkillFiles = 512
	maxSkillBytes = 16 << 20
)

// checkSkillLimits refuses a published skill a host need not load.
func (c *Corpus) checkSkillLimits() {
	for _, s := range c.Published() {
		files, size := 1+len(s.Refs), len(s.Body)
		if c.Base.Body != nil {
			files, size = files+1, size+len(c.Base.Body)
		}
		for _, r := range s.Refs {
			size += len(r.Body)
		}
		if files > maxSkillFiles || size > maxSkillBytes {
			c.problem(s.File, 1, "skill %q has %d files of %d bytes in all; the Skills extension's limits are %d files and %d bytes a skill", s.ID, files, size, maxSkillFiles, maxSkillBytes)
		}
	}
}

// checkTitles keeps the titles a person browses apart: no two entries share
// a title or have titles one letter apart ("Saved Flow", "Saved Flows"),
// and topic titles are in title case like every other title.
func (c *Corpus) checkTitles() {
	entries := c.Entries()
	for i, a := range entries {
		for _, b := range entries[:i] {
			if near(strings.ToLower(a.Title), strings.ToLower(b.Title)) {
				file, line := c.titleAt(a)
				c.problem(file, line, "%s is titled %q and %s %q; give each a title a person tells apart at a glance", a.URI, a.Title, b.URI, b.Title)
			}
		}
	}
	for _, t := range c.Scope.Topics {
		if want := headline(t.Title); want != t.Title {
			c.problem(scopeFile, lineOf(c.Scope.raw, `"`+t.Title+`"`), "topic %q is titled %q; titles are in title case: %q", t.ID, t.Title, want)
		}
	}
}

// titleAt is where an entry's title is written.
func (c *Corpus) titleAt(e entry) (string, int) {
	for _, d := range c.Docs {
		if docURI(d.ID) == e.URI {
			return d.File, lineOf(d.Body, "title:")
		}
	}
	if raw := c.runtimeRaw(); bytes.Contains(raw, []byte(`"`+e.URI+`"`)) {
		return "resources/runtime.json", lineOf(raw, `"`+e.Title+`"`)
	}
	return "gen/entries.go", 0
}

// near reports whether two strings are equal or one edit (insert, delete
// or replace one letter) apart.
func near(a, b string) bool {
	if a == b {
		return true
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	if len(rb)-len(ra) > 1 {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	if len(ra) == len(rb) {
		return string(ra[i+1:]) == string(rb[i+1:])
	}
	return string(ra[i:]) == string(rb[i+1:])
}

func (c *Corpus) runtimeRaw() []byte {
	return c.readPage("resources/runtime.json").Body
}

func sortedKeys(m map[string]bool) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
