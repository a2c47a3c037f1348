package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/format"
	"slices"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
)

// entry mirrors resources.Entry; gen writes it out as Go source.
type entry struct {
	URI, Name, Title, Description, MIMEType string
	Priority                                float64
	Template                                bool
	Runtime                                 bool
	Body                                    []byte
	Reader, Completer                       string
	Values                                  map[string][]string
	Hidden                                  bool
	// Unlisted entries are read by URI and enumerated by the Skills
	// extension, but not listed one by one: a skill's references.
	Unlisted bool
	// Frontmatter is a SKILL.md's front matter as a JSON object.
	Frontmatter []byte
	// Tools are the tools the entry's own text names (resources.Entry.Tools).
	Tools []string
	// NoneYet is resources.Entry.NoneYet.
	NoneYet string
}

// digest is the Skills extension's form of a SHA-256: sha256:{64 hex}.
func digest(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// The priorities of resources/scope.go, repeated here because gen must build
// while the package it writes into may not.
const (
	priorityIndex      = 1.0
	priorityEverywhere = 0.8
	priorityServer     = 0.6
	priorityReference  = 0.3
	prioritySchema     = 0.7
)

func docURI(id string) string       { return "knowledge://documents/" + id }
func skillURI(id string) string     { return "skill://" + id + "/SKILL.md" }
func refURI(id, file string) string { return "skill://" + id + "/references/" + file }
func scopeClause(t ScopeTopic) string {
	if t.Scope == "server" {
		return fmt.Sprintf("Topic: %s (running and operating this server).", t.Title)
	}
	return fmt.Sprintf("Topic: %s (holds on any site you automate).", t.Title)
}

func topicPriority(t ScopeTopic) float64 {
	if t.Scope == "server" {
		return priorityServer
	}
	return priorityEverywhere
}

// Entries derives the table from the corpus. Order is the order of the
// emitted file; the server sorts by priority when it lists.
func (c *Corpus) Entries() []entry {
	docTopic := map[string]ScopeTopic{}
	skillTopic := map[string]ScopeTopic{}
	for _, t := range c.Scope.Topics {
		for _, d := range t.Documents {
			docTopic[d] = t
		}
		for _, s := range t.Skills {
			skillTopic[s] = t
		}
	}
	out := []entry{{
		URI:         "knowledge://index",
		Name:        "knowledge-index",
		Title:       "Knowledge Index",
		Description: "Read this first: what the server is for, what its knowledge covers, and every document and skill by URI, grouped by topic.",
		MIMEType:    "application/json",
		Priority:    priorityIndex,
		Runtime:     true,
		Reader:      indexReaderKey,
	}}
	var docIDs []string
	for _, d := range c.Docs {
		t := docTopic[d.ID]
		out = append(out, entry{
			URI:         docURI(d.ID),
			Name:        "document-" + d.ID,
			Title:       d.Title,
			Description: strings.TrimSpace(d.Summary + " " + scopeClause(t)),
			MIMEType:    "text/markdown",
			Priority:    topicPriority(t),
			Body:        d.Body,
		})
		docIDs = append(docIDs, d.ID)
	}
	var skillIDs, refNames []string
	for _, s := range c.Published() {
		t := skillTopic[s.ID]
		out = append(out, entry{
			URI: skillURI(s.ID),
			// The Skills extension: a SKILL.md's name and description are
			// its front matter's.
			Name:        s.Name,
			Title:       titleCase(s.Name) + " Skill",
			Description: s.Description,
			MIMEType:    "text/markdown",
			Priority:    topicPriority(t),
			Body:        s.Body,
			Frontmatter: s.Frontmatter,
		})
		skillIDs = append(skillIDs, s.ID)
		refs := append([]Ref{{Page: c.Base, Name: "base.md"}}, s.Refs...)
		for _, r := range refs {
			heading, lead := outlineOf(r.Body)
			if heading == "" {
				heading = titleCase(strings.TrimSuffix(r.Name, ".md"))
			}
			heading = headline(heading)
			desc := fmt.Sprintf("Reference %s of the %s skill.", r.Name, s.Name)
			if lead != "" {
				desc += " " + lead
			}
			out = append(out, entry{
				URI:         refURI(s.ID, r.Name),
				Name:        "skill-" + s.ID + "-" + strings.ToLower(strings.TrimSuffix(r.Name, ".md")),
				Title:       titleCase(s.Name) + ": " + heading,
				Description: desc,
				MIMEType:    "text/markdown",
				Priority:    priorityReference,
				Body:        r.Body,
				Unlisted:    true,
			})
			if !slices.Contains(refNames, r.Name) {
				refNames = append(refNames, r.Name)
			}
		}
	}
	slices.Sort(refNames)
	var schemaDesc struct {
		Description string `json:"description"`
	}
	_ = json.Unmarshal(c.Schema.Body, &schemaDesc)
	out = append(out, entry{
		URI:         "flow://schema",
		Name:        "flow-schema",
		Title:       "Flow Document Schema",
		Description: strings.TrimSpace("JSON Schema 2020-12 of a flow document, the shape save_flow accepts. " + schemaDesc.Description),
		MIMEType:    "application/schema+json",
		Priority:    prioritySchema,
		Body:        c.Schema.Body,
		Tools:       []string{"save_flow", "run_flow"},
	},
		entry{
			URI: "knowledge://documents/{id}", Name: "document", Title: "Knowledge Document",
			Description: "One knowledge document by id; knowledge://index lists them all.",
			MIMEType:    "text/markdown", Priority: priorityServer, Template: true,
			Values: map[string][]string{"id": docIDs},
		},
		entry{
			URI: "skill://{id}/SKILL.md", Name: "skill", Title: "Skill",
			Description: "A skill's routing page by skill id: when to use the skill and which reference to read.",
			MIMEType:    "text/markdown", Priority: priorityServer, Template: true,
			Values: map[string][]string{"id": skillIDs},
		},
		entry{
			URI: "skill://{id}/references/{file}", Name: "skill-reference", Title: "Skill Reference",
			Description: "One reference page of a skill; the skill's SKILL.md says which to read when.",
			MIMEType:    "text/markdown", Priority: priorityReference, Template: true,
			Values: map[string][]string{"id": skillIDs, "file": refNames},
		})
	for _, r := range c.Runtime {
		out = append(out, entry{
			URI: r.URI, Name: r.Name, Title: r.Title, Description: r.Description,
			MIMEType: r.MIMEType, Priority: r.Priority, Template: r.Template,
			Runtime: true, Reader: r.Reader, Completer: r.Completer, Hidden: r.Hidden,
			Tools: r.Tools, NoneYet: r.NoneYet,
		})
	}
	return out
}

// outlineOf returns a page's first heading and the first sentence of its
// first paragraph, as plain text.
func outlineOf(src []byte) (heading, lead string) {
	doc := goldmark.New().Parser().Parse(text.NewReader(src))
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch b := n.(type) {
		case *ast.Heading:
			if heading == "" {
				heading = plainText(b, src)
			}
		case *ast.Paragraph:
			if lead == "" {
				lead = firstSentence(plainText(b, src))
			}
		}
		if heading != "" && lead != "" {
			break
		}
	}
	return heading, lead
}

func plainText(n ast.Node, src []byte) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		case *ast.CodeSpan:
			for k := t.FirstChild(); k != nil; k = k.NextSibling() {
				if tx, ok := k.(*ast.Text); ok {
					b.Write(tx.Segment.Value(src))
				}
			}
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	return strings.Join(strings.Fields(b.String()), " ")
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 && i < 240 {
		return s[:i+1]
	}
	if len(s) > 240 {
		cut := strings.LastIndexByte(s[:240], ' ')
		return s[:max(cut, 0)] + "…"
	}
	return s
}

// titleCase turns "selenium-flow" or "FLOWS" into "Selenium Flow" / "Flows".
func titleCase(s string) string {
	words := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == ' ' })
	for i, w := range words {
		r := []rune(strings.ToLower(w))
		r[0] = unicode.ToUpper(r[0])
		words[i] = string(r)
	}
	return strings.Join(words, " ")
}

// smallWords stay lower case inside a title, as in most style guides.
var smallWords = map[string]bool{"a": true, "an": true, "and": true, "the": true, "of": true, "to": true, "in": true, "on": true, "for": true, "or": true, "with": true, "by": true}

// headline puts a heading in title case for pickers: "Driving a page" →
// "Driving a Page"; words already carrying capitals (PDFs, URLs) are kept.
func headline(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		lower := strings.ToLower(w)
		switch {
		case w != lower && w != strings.ToUpper(w[:1])+lower[1:]:
			// PDFs, MCP, iOS: written that way with intent.
		case i > 0 && smallWords[lower]:
			words[i] = lower
		default:
			r := []rune(w)
			r[0] = unicode.ToUpper(r[0])
			words[i] = string(r)
		}
	}
	return strings.Join(words, " ")
}

// Emit writes the table as Go source.
func (c *Corpus) Emit() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString("// Code generated by gen from skills/, knowledge/ and resources/; DO NOT EDIT.\n\n")
	b.WriteString("package resources\n\n")
	c.emitKeys(&b)
	b.WriteString("// generatedEntries is the resource table as go generate wrote it.\n")
	b.WriteString("var generatedEntries = []Entry{\n")
	for _, e := range c.Entries() {
		b.WriteString("\t{\n")
		fmt.Fprintf(&b, "\t\tURI: %q,\n\t\tName: %q,\n\t\tTitle: %q,\n\t\tDescription: %q,\n", e.URI, e.Name, e.Title, e.Description)
		if e.MIMEType != "" {
			fmt.Fprintf(&b, "\t\tMIMEType: %q,\n", e.MIMEType)
		}
		fmt.Fprintf(&b, "\t\tPriority: %v,\n", e.Priority)
		if e.Template {
			b.WriteString("\t\tTemplate: true,\n")
		}
		if e.Runtime {
			b.WriteString("\t\tKind: Runtime,\n")
			fmt.Fprintf(&b, "\t\tReader: %s,\n", keyName("Reader", e.Reader))
		} else if !e.Template {
			fmt.Fprintf(&b, "\t\tSize: %d,\n\t\tDigest: %q,\n\t\tBody: %q,\n", len(e.Body), digest(e.Body), e.Body)
		}
		if e.Frontmatter != nil {
			fmt.Fprintf(&b, "\t\tFrontmatter: %q,\n", e.Frontmatter)
		}
		if e.Unlisted {
			b.WriteString("\t\tUnlisted: true,\n")
		}
		if e.NoneYet != "" {
			fmt.Fprintf(&b, "\t\tNoneYet: %q,\n", e.NoneYet)
		}
		if len(e.Tools) > 0 {
			fmt.Fprintf(&b, "\t\tTools: %#v,\n", e.Tools)
		}
		if e.Completer != "" {
			fmt.Fprintf(&b, "\t\tCompleter: %s,\n", keyName("Completer", e.Completer))
		}
		if len(e.Values) > 0 {
			b.WriteString("\t\tValues: map[string][]string{\n")
			for _, k := range sortedKeys(boolKeys(e.Values)) {
				fmt.Fprintf(&b, "\t\t\t%q: %#v,\n", k, e.Values[k])
			}
			b.WriteString("\t\t},\n")
		}
		if e.Hidden {
			b.WriteString("\t\tHidden: true,\n")
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString("// generatedScope is knowledge/server-scope.json as go generate read it.\n")
	b.WriteString("var generatedScope = Scope{\n")
	fmt.Fprintf(&b, "\tPurpose: %q,\n\tCoverage: %q,\n\tTopics: []Topic{\n", c.Scope.Purpose, c.Scope.Coverage)
	for _, t := range c.Scope.Topics {
		fmt.Fprintf(&b, "\t\t{ID: %q, Title: %q, Summary: %q, Scope: %q, Documents: %#v, Skills: %#v, Tools: %#v},\n",
			t.ID, t.Title, t.Summary, t.Scope, nonNil(t.Documents), nonNil(t.Skills), nonNil(t.Tools))
	}
	b.WriteString("\t},\n}\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("formatting the generated table: %w", err)
	}
	return src, nil
}

// emitKeys writes one constant per reader and completer key the runtime
// entries name, so a key the server binds is checked by the compiler.
// knowledge.index is the table's own (see indexReader) and gets none.
func (c *Corpus) emitKeys(b *bytes.Buffer) {
	var readers, completers []string
	for _, e := range c.Entries() {
		if e.Runtime && e.Reader != indexReaderKey && !slices.Contains(readers, e.Reader) {
			readers = append(readers, e.Reader)
		}
		if e.Completer != "" && !slices.Contains(completers, e.Completer) {
			completers = append(completers, e.Completer)
		}
	}
	slices.Sort(readers)
	slices.Sort(completers)
	b.WriteString("// The reader keys of the runtime entries (resources/runtime.json).\nconst (\n")
	for _, r := range readers {
		fmt.Fprintf(b, "\t%s Reader = %q\n", keyName("Reader", r), r)
	}
	b.WriteString(")\n\n// The completer keys of the runtime templates (resources/runtime.json).\nconst (\n")
	for _, k := range completers {
		fmt.Fprintf(b, "\t%s Completer = %q\n", keyName("Completer", k), k)
	}
	b.WriteString(")\n\n")
}

// indexReaderKey is the key of knowledge://index, which the table builds.
const indexReaderKey = "knowledge.index"

// keyName is the Go constant of a reader or completer key:
// "session.current" → ReaderSessionCurrent, "ui.shell" → ReaderUIShell.
func keyName(prefix, key string) string {
	if key == indexReaderKey {
		return "indexReader"
	}
	var b strings.Builder
	b.WriteString(prefix)
	for _, part := range strings.FieldsFunc(key, func(r rune) bool { return r == '.' || r == '-' || r == '_' }) {
		if initialisms[part] {
			b.WriteString(strings.ToUpper(part))
			continue
		}
		b.WriteString(strings.ToUpper(part[:1]) + part[1:])
	}
	return b.String()
}

// initialisms are written in capitals in Go names.
var initialisms = map[string]bool{"ui": true, "url": true, "uri": true, "id": true, "html": true}

func boolKeys(m map[string][]string) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
