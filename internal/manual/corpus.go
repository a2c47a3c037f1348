package manual

import (
	"fmt"
	"strings"

	"github.com/selenium-flow/selenium-flow/resources"
)

// corpusPages are the skill catalog, each published skill file, the
// knowledge index and each knowledge document, all from the table's bodies.
func (s *source) corpusPages() ([]Page, error) {
	var pages []Page
	var skills, docs []resources.Entry
	for _, e := range s.entries {
		switch {
		case e.Template:
		case strings.HasPrefix(e.URI, "skill://") && strings.HasSuffix(e.URI, "/SKILL.md"):
			skills = append(skills, e)
		case strings.HasPrefix(e.URI, "knowledge://documents/"):
			docs = append(docs, e)
		}
	}
	pages = append(pages, s.skillCatalog(skills))
	for _, e := range s.entries {
		if p, ok := s.pageOf(e.URI); ok && strings.HasPrefix(e.URI, "skill://") {
			page, err := s.bodyPage(p, e)
			if err != nil {
				return nil, err
			}
			pages = append(pages, page)
		}
	}
	pages = append(pages, s.knowledgeIndex(docs))
	for _, e := range docs {
		p, _ := s.pageOf(e.URI)
		page, err := s.bodyPage(p, e)
		if err != nil {
			return nil, err
		}
		pages = append(pages, page)
	}
	return pages, nil
}

func (s *source) skillCatalog(skills []resources.Entry) Page {
	const at = "skills/README.md"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# Skills\n\n")
	fmt.Fprintf(&b, "The %d skills this server publishes as `skill://` resources. `selenium-flow install` writes each into a client's skills directory, byte for byte as served; see %s.\n\n", len(skills), link("Installing", rel(at, "install.md")))
	for _, sk := range skills {
		id := strings.TrimSuffix(strings.TrimPrefix(sk.URI, "skill://"), "/SKILL.md")
		fmt.Fprintf(&b, "## %s\n\n", text(sk.Title))
		b.WriteString(text(sk.Description) + "\n\n")
		var rows [][]string
		p, _ := s.pageOf(sk.URI)
		rows = append(rows, []string{link("SKILL.md", rel(at, p)), codeLink(sk.URI, rel(at, anchor(sk))), text("When to use the skill and which reference to read."), size(sk)})
		prefix := "skill://" + id + "/references/"
		for _, r := range s.entries {
			if !strings.HasPrefix(r.URI, prefix) || r.Template {
				continue
			}
			rp, _ := s.pageOf(r.URI)
			rows = append(rows, []string{link(strings.TrimPrefix(r.URI, "skill://"+id+"/"), rel(at, rp)), codeLink(r.URI, rel(at, anchor(r))), text(r.Title), size(r)})
		}
		table(&b, []string{"file", "resource", "about", "size"}, rows)
	}
	return Page{Path: at, Title: "Skills", Markdown: b.String()}
}

func (s *source) knowledgeIndex(docs []resources.Entry) Page {
	const at = "knowledge/README.md"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# Knowledge\n\n")
	fmt.Fprintf(&b, "The knowledge documents, by topic, as %s groups them. ", codeLink(resources.IndexURI, rel(at, resourcesPath+"#"+slug(resources.IndexURI))))
	b.WriteString("Topics marked *everywhere* hold on any site the server automates; *server* topics are about running and operating it.\n\n")
	listed := map[string]bool{}
	for _, top := range s.scope.Topics {
		fmt.Fprintf(&b, "## %s\n\n", text(top.Title))
		fmt.Fprintf(&b, "*%s.* %s\n\n", text(top.Scope), text(top.Summary))
		for _, id := range top.Documents {
			uri := "knowledge://documents/" + id
			if p, ok := s.pageOf(uri); ok {
				e, _ := s.table.Lookup(uri)
				fmt.Fprintf(&b, "- %s — %s\n", link(e.Title, rel(at, p)), text(firstSentence(stripTopic(e.Description))))
				listed[uri] = true
			}
		}
		for _, id := range top.Skills {
			uri := "skill://" + id + "/SKILL.md"
			if p, ok := s.pageOf(uri); ok {
				e, _ := s.table.Lookup(uri)
				fmt.Fprintf(&b, "- %s (skill)\n", link(e.Title, rel(at, p)))
			}
		}
		if len(top.Tools) > 0 {
			var names []string
			for _, t := range top.Tools {
				if s.hasTool(t) {
					names = append(names, codeLink(t, rel(at, toolPath(t))))
				} else {
					names = append(names, code(t))
				}
			}
			fmt.Fprintf(&b, "\nTools: %s.\n", strings.Join(names, ", "))
		}
		b.WriteString("\n")
	}
	var rest []string
	for _, e := range docs {
		if !listed[e.URI] {
			p, _ := s.pageOf(e.URI)
			rest = append(rest, "- "+link(e.Title, rel(at, p)))
		}
	}
	if len(rest) > 0 {
		b.WriteString("## Other documents\n\n" + strings.Join(rest, "\n") + "\n\n")
	}
	return Page{Path: at, Title: "Knowledge", Markdown: b.String()}
}

func (s *source) hasTool(name string) bool {
	for _, t := range s.tools {
		if t.Name == name {
			return true
		}
	}
	return false
}

// stripTopic drops the "Topic: …" clause gen appends to a description.
func stripTopic(d string) string {
	if i := strings.Index(d, " Topic: "); i >= 0 {
		return d[:i]
	}
	return d
}

// bodyPage is a published body as a manual page: front matter dropped, a
// heading added when the body has none, links pointed at the manual's own
// pages, and where it is served said at the end.
func (s *source) bodyPage(at string, e resources.Entry) (Page, error) {
	if e.Kind != resources.Embedded {
		return Page{}, fmt.Errorf("%s is not embedded in the table; its page cannot be generated", e.URI)
	}
	body := stripFrontMatter(e.Body)
	body = rewriteLinks(body, func(dest string) (string, bool) { return s.linkTo(at, e.URI, dest) })
	var b strings.Builder
	b.WriteString(header)
	if !strings.HasPrefix(body, "# ") {
		fmt.Fprintf(&b, "# %s\n\n", text(e.Title))
	}
	b.WriteString(strings.TrimRight(body, "\n") + "\n\n")
	fmt.Fprintf(&b, "---\n\n*Served as %s (%s, %s). %s*\n", codeLink(e.URI, rel(at, anchor(e))), text(e.MIMEType), size(e), text(stripTopic(e.Description)))
	return Page{Path: at, Title: e.Title, Markdown: b.String()}, nil
}
