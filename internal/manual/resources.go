package manual

import (
	"fmt"
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/resources"
)

const resourcesPath = "resources.md"

// anchor is where an entry is described on the resource page.
func anchor(e resources.Entry) string { return resourcesPath + "#" + slug(e.URI) }

func (s *source) resourcePage() Page {
	const at = resourcesPath
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# Resources\n\n")
	b.WriteString("Every resource and resource template this server serves, from its resource table, highest priority first. ")
	b.WriteString("A client reads them with `resources/read` (or the `read_resource` tool where its model cannot read resources); ")
	fmt.Fprintf(&b, "a caller without MCP reads the same bytes with %s. Start with %s.\n\n", link("GET /resources/{uri}", rel(at, "http-api.md")), codeLink(resources.IndexURI, "#"+slug(resources.IndexURI)))

	var concrete, templates [][]string
	for _, e := range s.entries {
		name := codeLink(e.URI, "#"+slug(e.URI))
		if e.Template {
			templates = append(templates, []string{name, text(e.Title), text(cellOr(e.MIMEType, "varies")), prio(e.Priority)})
			continue
		}
		concrete = append(concrete, []string{name, text(e.Title), text(cellOr(e.MIMEType, "varies")), size(e), prio(e.Priority)})
	}
	b.WriteString("## Resources\n\n")
	table(&b, []string{"URI", "title", "type", "size", "priority"}, concrete)
	b.WriteString("## Templates\n\n")
	b.WriteString("A template is filled in before reading: `knowledge://documents/{id}` is read as, for example, `knowledge://documents/sessions`.\n\n")
	table(&b, []string{"template", "title", "type", "priority"}, templates)

	b.WriteString("## Each resource\n\n")
	for _, e := range s.entries {
		fmt.Fprintf(&b, "### %s\n\n", code(e.URI))
		fmt.Fprintf(&b, "**%s.** %s\n\n", text(e.Title), text(e.Description))
		rows := [][]string{
			{"name", code(e.Name)},
			{"type", text(cellOr(e.MIMEType, "given by each resource"))},
			{"priority", prio(e.Priority)},
		}
		if !e.Template {
			rows = append(rows, []string{"size", size(e)})
		}
		rows = append(rows, []string{"read", readHow(e)})
		if vars := variables(e); vars != "" {
			rows = append(rows, []string{"values", vars})
		}
		if p, ok := s.pageOf(e.URI); ok {
			rows = append(rows, []string{"in this manual", link(titleOf(e), rel(at, p))})
		}
		rows = append(rows, []string{"over HTTP", code("GET " + server.ReadPrefix + e.URI)})
		table(&b, []string{"property", "value"}, rows)
	}
	return Page{Path: at, Title: "Resources", Markdown: b.String()}
}

func titleOf(e resources.Entry) string { return e.Title }

func cellOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

func prio(p float64) string { return strconv.FormatFloat(p, 'f', -1, 64) }

func size(e resources.Entry) string {
	if e.Size > 0 {
		return strconv.FormatInt(e.Size, 10) + " bytes"
	}
	return "varies"
}

func readHow(e resources.Entry) string {
	switch {
	case e.URI == resources.IndexURI:
		return "built when the server starts, from its table and scope"
	case e.Kind == resources.Embedded:
		return "embedded in the binary; the same bytes everywhere"
	case e.Template:
		return "read at request time, for the caller"
	}
	return "read at request time, for the caller (per principal)"
}

func variables(e resources.Entry) string {
	if !e.Template || len(e.Values) == 0 {
		return ""
	}
	var names []string
	for n := range e.Values {
		names = append(names, n)
	}
	slices.Sort(names)
	var parts []string
	for _, n := range names {
		var vals []string
		for _, v := range e.Values[n] {
			vals = append(vals, code(v))
		}
		parts = append(parts, code(n)+": "+strings.Join(vals, ", "))
	}
	return strings.Join(parts, "; ")
}

// pageOf is the manual page that shows a resource's own content: a
// knowledge document or a skill file.
func (s *source) pageOf(uri string) (string, bool) {
	if id, ok := strings.CutPrefix(uri, "knowledge://documents/"); ok && !strings.Contains(id, "{") {
		return "knowledge/" + id + ".md", s.served(uri)
	}
	if rest, ok := strings.CutPrefix(uri, "skill://"); ok && !strings.Contains(rest, "{") {
		return "skills/" + rest, s.served(uri)
	}
	return "", false
}

func (s *source) served(uri string) bool {
	return slices.ContainsFunc(s.entries, func(e resources.Entry) bool { return e.URI == uri && !e.Template })
}

// linkTo maps a link found in a published body to its place in the manual,
// from the page at `at`. base is the URI of the body, against which a
// relative link resolves ("sessions" in a knowledge document is
// knowledge://documents/sessions; "../SKILL.md" in a skill reference is the
// skill's SKILL.md). A URI the server does not serve is dropped.
func (s *source) linkTo(at, base, dest string) (string, bool) {
	if strings.HasPrefix(dest, "#") || strings.HasPrefix(dest, "http://") || strings.HasPrefix(dest, "https://") || strings.HasPrefix(dest, "mailto:") {
		return dest, true
	}
	target, frag, _ := strings.Cut(dest, "#")
	if !strings.Contains(target, "://") {
		scheme, p, _ := strings.Cut(base, "://")
		target = scheme + "://" + path.Join(path.Dir(p), target)
	}
	if frag != "" {
		frag = "#" + frag
	}
	if p, ok := s.pageOf(target); ok {
		return rel(at, p) + frag, true
	}
	if e, _, ok := s.table.Match(target); ok && !e.Hidden {
		return rel(at, anchor(e)), true
	}
	return "", false
}
