package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/adrg/frontmatter"

	"github.com/selenium-flow/selenium-flow/internal/jsonschema"
)

// Corpus is everything the table is made from, as read from disk.
type Corpus struct {
	root     string
	Scope    ScopeFile
	Docs     []Doc
	Skills   []Skill // published and draft, sorted by id
	Base     Page    // skills/base.md, served as references/base.md of every published skill
	Schema   Page    // resources/schemas/flow.schema.json
	Runtime  []RuntimeEntry
	problems Problems
}

// ScopeFile is knowledge/server-scope.json.
type ScopeFile struct {
	Purpose  string       `json:"purpose"`
	Coverage string       `json:"coverage"`
	Topics   []ScopeTopic `json:"topics"`
	raw      []byte
}

// ScopeTopic is one topic of the scope file.
type ScopeTopic struct {
	ID        string   `json:"id"`
	Title     string   `json:"title"`
	Scope     string   `json:"scope"`
	Summary   string   `json:"summary"`
	Documents []string `json:"documents"`
	Skills    []string `json:"skills"`
	Tools     []string `json:"tools"`
}

// Page is one published file: where it lives and its bytes.
type Page struct {
	File string // slash path relative to the root, for messages
	Body []byte
}

// Doc is a knowledge document.
type Doc struct {
	Page
	ID, Title, Summary string
}

// Skill is a skill folder: SKILL.md and its references.
type Skill struct {
	Page
	ID, Name, Description string
	Draft                 bool
	Refs                  []Ref
	// Frontmatter is SKILL.md's front matter, every field the author wrote,
	// as a JSON object: what skills/list and skills/get carry.
	Frontmatter []byte
}

// Ref is one file under a skill's references/.
type Ref struct {
	Page
	Name string // file name, e.g. FLOWS.md
}

// RuntimeEntry is one entry of resources/runtime.json.
type RuntimeEntry struct {
	URI         string  `json:"uri"`
	Name        string  `json:"name"`
	Title       string  `json:"title"`
	Description string  `json:"description"`
	MIMEType    string  `json:"mimeType"`
	Priority    float64 `json:"priority"`
	Template    bool    `json:"template"`
	Reader      string  `json:"reader"`
	Completer   string  `json:"completer"`
	Hidden      bool    `json:"hidden"`
	// Tools are the tools the entry's title and description name; the
	// server does not serve the entry when one of them is excluded.
	Tools []string `json:"tools"`
	// NoneYet says, for a template, how a value comes to exist when none
	// does yet; refusals offer it in place of an example.
	NoneYet string `json:"noneYet"`
}

// Load reads the corpus under root. Problems found while reading are kept
// and reported by Check together with the cross-checks.
func Load(root string) (*Corpus, error) {
	c := &Corpus{root: root}
	c.loadScope()
	c.loadDocs()
	c.loadSkills()
	c.Base = c.readPage("skills/base.md")
	c.Schema = c.readPage("resources/schemas/flow.schema.json")
	if c.Schema.Body != nil {
		// Compiled here, so a schema the flow store could not use fails
		// go generate, not the first save_flow.
		if s, err := jsonschema.New(c.Schema.Body); err != nil {
			c.problem(c.Schema.File, 1, "the flow schema is not valid JSON")
		} else if err := s.Check(); err != nil {
			c.problem(c.Schema.File, 1, "the flow schema does not compile: %v", err)
		}
	}
	c.loadRuntime()
	return c, nil
}

func (c *Corpus) problem(file string, line int, format string, args ...any) {
	c.problems = append(c.problems, Problem{File: file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (c *Corpus) readPage(rel string) Page {
	b, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(rel)))
	if err != nil {
		c.problem(rel, 0, "cannot read: %v", errorText(err))
		return Page{File: rel}
	}
	return Page{File: rel, Body: b}
}

// errorText drops the path an *os.PathError carries; messages name the file themselves.
func errorText(err error) string {
	if pe, ok := errors.AsType[*os.PathError](err); ok {
		return pe.Err.Error()
	}
	return err.Error()
}

func (c *Corpus) loadScope() {
	p := c.readPage("knowledge/server-scope.json")
	if p.Body == nil {
		return
	}
	c.Scope.raw = p.Body
	dec := json.NewDecoder(bytes.NewReader(p.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c.Scope); err != nil {
		line := 1
		if se, ok := err.(*json.SyntaxError); ok {
			line = lineAt(p.Body, int(se.Offset))
		}
		c.problem(p.File, line, "not a scope document: %v", err)
	}
}

func (c *Corpus) loadDocs() {
	names, _ := filepath.Glob(filepath.Join(c.root, "knowledge", "documents", "*.md"))
	sort.Strings(names)
	for _, n := range names {
		p := c.readPage(path.Join("knowledge/documents", filepath.Base(n)))
		var fm struct {
			ID      string `yaml:"id"`
			Title   string `yaml:"title"`
			Summary string `yaml:"summary"`
		}
		if _, err := frontmatter.Parse(bytes.NewReader(p.Body), &fm); err != nil {
			c.problem(p.File, 1, "front matter: %v", err)
			continue
		}
		want := strings.TrimSuffix(filepath.Base(n), ".md")
		switch {
		case fm.ID == "":
			c.problem(p.File, 1, "front matter has no id (want id: %s)", want)
		case fm.ID != want:
			c.problem(p.File, lineOf(p.Body, "id:"), "id %q differs from the file name; name the file %s.md or set id: %s", fm.ID, fm.ID, want)
		}
		if fm.Title == "" {
			c.problem(p.File, 1, "front matter has no title")
		}
		if fm.Summary == "" {
			c.problem(p.File, 1, "front matter has no summary; it becomes the resource description")
		}
		c.Docs = append(c.Docs, Doc{Page: p, ID: want, Title: fm.Title, Summary: strings.TrimSpace(fm.Summary)})
	}
}

func (c *Corpus) loadSkills() {
	dirs, _ := os.ReadDir(filepath.Join(c.root, "skills"))
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		id := d.Name()
		p := c.readPage(path.Join("skills", id, "SKILL.md"))
		if p.Body == nil {
			continue
		}
		var fm struct {
			Name        string `yaml:"name"`
			Description string `yaml:"description"`
			Draft       bool   `yaml:"draft"`
		}
		if _, err := frontmatter.Parse(bytes.NewReader(p.Body), &fm); err != nil {
			c.problem(p.File, 1, "front matter: %v", err)
			continue
		}
		if fm.Name != id {
			c.problem(p.File, max(1, lineOf(p.Body, "name:")), "name %q must equal the folder name %q", fm.Name, id)
		}
		if !fm.Draft && strings.TrimSpace(fm.Description) == "" {
			c.problem(p.File, 1, "published skill %q has no description; add description: to the front matter (or draft: true)", id)
		}
		s := Skill{Page: p, ID: id, Name: fm.Name, Description: strings.TrimSpace(fm.Description), Draft: fm.Draft}
		var all map[string]any
		if _, err := frontmatter.Parse(bytes.NewReader(p.Body), &all); err != nil {
			c.problem(p.File, 1, "front matter: %v", err)
			continue
		}
		fmJSON, err := json.Marshal(jsonValue(all))
		if err != nil {
			c.problem(p.File, 1, "front matter does not render as JSON: %v", err)
			continue
		}
		s.Frontmatter = fmJSON
		refs, _ := filepath.Glob(filepath.Join(c.root, "skills", id, "references", "*.md"))
		sort.Strings(refs)
		for _, r := range refs {
			name := filepath.Base(r)
			rp := c.readPage(path.Join("skills", id, "references", name))
			if name == "base.md" {
				c.problem(rp.File, 1, "base.md is shared: edit skills/base.md and delete this copy")
				continue
			}
			s.Refs = append(s.Refs, Ref{Page: rp, Name: name})
		}
		c.Skills = append(c.Skills, s)
	}
}

func (c *Corpus) loadRuntime() {
	p := c.readPage("resources/runtime.json")
	if p.Body == nil {
		return
	}
	var m struct {
		Comment string         `json:"$comment"`
		Entries []RuntimeEntry `json:"entries"`
	}
	dec := json.NewDecoder(bytes.NewReader(p.Body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		c.problem(p.File, 1, "not a runtime manifest: %v", err)
		return
	}
	for _, e := range m.Entries {
		line := lineOf(p.Body, `"`+e.URI+`"`)
		switch {
		case e.URI == "" || e.Name == "" || e.Title == "" || e.Description == "":
			c.problem(p.File, line, "entry %q needs uri, name, title and description", e.URI)
		case e.Reader == "":
			c.problem(p.File, line, "entry %q names no reader", e.URI)
		case e.Template && !strings.Contains(e.URI, "{"):
			c.problem(p.File, line, "entry %q is marked template but has no {variable}", e.URI)
		}
		c.Runtime = append(c.Runtime, e)
	}
}

// jsonValue turns what the YAML decoder gives (maps keyed by any value)
// into values encoding/json renders: maps keyed by strings.
func jsonValue(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	case map[any]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[fmt.Sprint(k)] = jsonValue(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	}
	return v
}

// Published returns the skills that are not drafts.
func (c *Corpus) Published() []Skill {
	var out []Skill
	for _, s := range c.Skills {
		if !s.Draft {
			out = append(out, s)
		}
	}
	return out
}

// lineAt returns the 1-based line of a byte offset.
func lineAt(b []byte, off int) int {
	off = min(max(off, 0), len(b))
	return bytes.Count(b[:off], []byte("\n")) + 1
}

// lineOf returns the line where needle first occurs, or 1.
func lineOf(b []byte, needle string) int {
	i := bytes.Index(b, []byte(needle))
	if i < 0 {
		return 1
	}
	return lineAt(b, i)
}
