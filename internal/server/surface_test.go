package server_test

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/text"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/resources"
)

func listResources(t *testing.T, c *servertest.Client) []mcp.Resource {
	t.Helper()
	res, err := c.ListResources(servertest.Context(t), mcp.ListResourcesRequest{})
	assert.NilError(t, err)
	return res.Resources
}

func listTemplates(t *testing.T, c *servertest.Client) []mcp.ResourceTemplate {
	t.Helper()
	res, err := c.ListResourceTemplates(servertest.Context(t), mcp.ListResourceTemplatesRequest{})
	assert.NilError(t, err)
	return res.ResourceTemplates
}

func readText(t *testing.T, c *servertest.Client, uri string) string {
	t.Helper()
	return servertest.ReadText(t, c, uri)
}

func priority(a *mcp.Annotations) float64 {
	if a == nil || a.Priority == nil {
		return -1
	}
	return *a.Priority
}

// TestSurface: every resource says what it is, declares the size a read
// really returns, sorts by priority, and sets no audience or invented time.
func TestSurface(t *testing.T) {
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, servertest.New(t, server.Config{}), tr, servertest.Options{})
			rs := listResources(t, c)
			assert.Assert(t, len(rs) >= 10, "only %d resources", len(rs))
			assert.Equal(t, rs[0].URI, "knowledge://index", "the index is listed first")
			for i, r := range rs {
				assert.Check(t, r.Title != "" && r.Description != "" && r.MIMEType != "", "%s lacks a title, description or type", r.URI)
				assert.Check(t, isTitleCase(r.Title), "%s title %q is not in title case", r.URI, r.Title)
				assert.Check(t, r.Annotations != nil && r.Annotations.Priority != nil, "%s has no priority", r.URI)
				if r.Annotations != nil {
					assert.Check(t, r.Annotations.Audience == nil, "%s sets an audience", r.URI)
					assert.Check(t, r.Annotations.LastModified == "", "%s invents lastModified", r.URI)
				}
				if i > 0 {
					assert.Check(t, priority(rs[i-1].Annotations) >= priority(r.Annotations), "%s is listed after a lower priority", r.URI)
				}
				if strings.HasPrefix(r.URI, "knowledge://") || strings.HasPrefix(r.URI, "skill://") || r.URI == "flow://schema" {
					body := readText(t, c, r.URI)
					assert.Check(t, r.Size != nil && int(*r.Size) == len(body), "%s declares %v bytes, a read returns %d", r.URI, r.Size, len(body))
				}
			}
			// index highest, then everywhere, then server, references lowest.
			p := map[string]float64{}
			for _, r := range rs {
				p[r.URI] = priority(r.Annotations)
			}
			assert.Check(t, p["knowledge://index"] > p["knowledge://documents/locating-elements"])
			assert.Check(t, p["knowledge://documents/locating-elements"] > p["knowledge://documents/selenium-grid"])
			assert.Check(t, p["knowledge://documents/selenium-grid"] > p["skill://selenium-flow/references/FLOWS.md"])
			for _, tm := range listTemplates(t, c) {
				assert.Check(t, tm.Title != "" && tm.Description != "", "template %s lacks a title or description", tm.URITemplate.Raw())
			}
		})
	}
}

func isTitleCase(s string) bool {
	small := map[string]bool{"a": true, "an": true, "and": true, "the": true, "of": true, "to": true, "in": true, "on": true, "for": true, "or": true, "with": true, "by": true}
	for i, w := range strings.Fields(s) {
		r := []rune(w)
		if r[0] >= 'a' && r[0] <= 'z' && (i == 0 || !small[w]) {
			return false
		}
	}
	return true
}

// TestPublishedBytes: a skill goes over the wire exactly as written.
func TestPublishedBytes(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{})
	for uri, file := range map[string]string{
		"skill://selenium-flow/SKILL.md":           "skills/selenium-flow/SKILL.md",
		"skill://selenium-flow/references/base.md": "skills/base.md",
		"flow://schema":                            "resources/schemas/flow.schema.json",
	} {
		assert.Check(t, is.Equal(readText(t, c, uri), repoFile(t, file)), uri)
	}
}

// TestLinksResolve: every link in every skill and document resolves, by
// ordinary URI reference rules, to a URI the server answers: a listed
// resource, or one a listed template matches (a skill's references are
// reached from its SKILL.md). Links are followed from the listed pages
// to the pages they reach.
func TestLinksResolve(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{})
	served := map[string]bool{}
	var queue []string
	for _, r := range listResources(t, c) {
		served[r.URI] = true
		if r.MIMEType == "text/markdown" {
			queue = append(queue, r.URI)
		}
	}
	var tmpls []resources.Template
	for _, tm := range listTemplates(t, c) {
		tmpls = append(tmpls, resources.ParseTemplate(tm.URITemplate.Raw()))
	}
	answers := func(u string) bool {
		return served[u] || slices.ContainsFunc(tmpls, func(tm resources.Template) bool { _, ok := tm.Match(u); return ok })
	}
	visited := map[string]bool{}
	checked := 0
	for len(queue) > 0 {
		uri := queue[0]
		queue = queue[1:]
		if visited[uri] {
			continue
		}
		visited[uri] = true
		base, err := url.Parse(uri)
		assert.NilError(t, err)
		src := []byte(readText(t, c, uri))
		doc := goldmark.New().Parser().Parse(text.NewReader(src))
		_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
			l, ok := n.(*ast.Link)
			if !entering || !ok {
				return ast.WalkContinue, nil
			}
			ref, err := url.Parse(string(l.Destination))
			assert.NilError(t, err)
			target := base.ResolveReference(ref)
			target.Fragment = ""
			if !answers(target.String()) {
				t.Errorf("%s links %q, which resolves to %s: neither listed nor matched by a listed template", uri, l.Destination, target)
			} else if readText(t, c, target.String()); target.Scheme == "skill" || strings.HasPrefix(target.String(), "knowledge://documents/") {
				queue = append(queue, target.String())
			}
			checked++
			return ast.WalkContinue, nil
		})
	}
	assert.Check(t, visited["skill://selenium-flow/references/FLOWS.md"], "the references were not reached from SKILL.md")
	assert.Assert(t, checked > 20, "only %d links checked", checked)
}

type index struct {
	ReadFirst []string `json:"readFirst"`
	Topics    []struct {
		ID        string `json:"id"`
		Scope     string `json:"scope"`
		Documents []struct {
			URI string `json:"uri"`
		} `json:"documents"`
		Skills []struct {
			URI        string `json:"uri"`
			References []struct {
				URI string `json:"uri"`
			} `json:"references"`
		} `json:"skills"`
		Tools []string `json:"tools"`
	} `json:"topics"`
}

func readIndex(t *testing.T, c *servertest.Client) (index, string) {
	t.Helper()
	raw := readText(t, c, "knowledge://index")
	var idx index
	assert.NilError(t, json.Unmarshal([]byte(raw), &idx))
	return idx, raw
}

// TestScope, both directions: every document and published skill is named
// by a topic, every topic names only things that exist, and the draft skill
// is offered nowhere.
func TestScope(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{Info: mcp.Implementation{Name: "Visual Studio Code", Version: "1.99"}})
	idx, raw := readIndex(t, c)
	assert.DeepEqual(t, idx.ReadFirst, []string{"knowledge://index", "skill://selenium-flow/SKILL.md"})
	named := map[string]bool{}
	for _, tp := range idx.Topics {
		assert.Check(t, tp.Scope == "everywhere" || tp.Scope == "server", tp.ID)
		assert.Check(t, len(tp.Tools) > 0, tp.ID)
		for _, d := range tp.Documents {
			named[d.URI] = true
			readText(t, c, d.URI)
		}
		for _, s := range tp.Skills {
			named[s.URI] = true
			readText(t, c, s.URI)
			assert.Check(t, len(s.References) >= 4, "%s lists %d references", s.URI, len(s.References))
			for _, r := range s.References {
				readText(t, c, r.URI)
			}
		}
	}
	listed := listResources(t, c)
	for _, r := range listed {
		if strings.HasPrefix(r.URI, "knowledge://documents/") || strings.HasSuffix(r.URI, "/SKILL.md") {
			assert.Check(t, named[r.URI], "%s is named by no topic in the index", r.URI)
		}
	}

	// The draft skill: not listed, not indexed, not mirrored, not completed, not readable.
	const draft = "grid-operations"
	assert.Check(t, !strings.Contains(raw, draft), "the index mentions the draft skill")
	for _, r := range listed {
		assert.Check(t, !strings.Contains(r.URI, draft), "resources/list offers %s", r.URI)
	}
	mirror := mirrorList(t, c)
	assert.Check(t, !strings.Contains(mirror, draft), "list_resources offers the draft skill")
	for _, arg := range []string{"id"} {
		vals := complete(t, c, "skill://{id}/SKILL.md", arg, "")
		assert.Check(t, !slices.Contains(vals, draft), "completion offers the draft: %v", vals)
		assert.Check(t, slices.Contains(vals, "selenium-flow"), "completion misses the skill: %v", vals)
	}
	_, err := servertest.Read(t, c, "skill://"+draft+"/SKILL.md")
	assert.Check(t, err != nil, "the draft skill is readable")
}

func complete(t *testing.T, c *servertest.Client, template, arg, prefix string) []string {
	t.Helper()
	req := mcp.CompleteRequest{}
	req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: template}
	req.Params.Argument.Name = arg
	req.Params.Argument.Value = prefix
	res, err := c.Complete(servertest.Context(t), req)
	assert.NilError(t, err)
	return res.Completion.Values
}

// TestCompletions: templates complete document ids, skill ids and
// reference file names, filtered by prefix.
func TestCompletions(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{})
	assert.Check(t, is.DeepEqual(complete(t, c, "knowledge://documents/{id}", "id", "se"), []string{"secrets", "selenium-grid", "sessions"}))
	files := complete(t, c, "skill://{id}/references/{file}", "file", "")
	for _, f := range []string{"base.md", "FLOWS.md", "SECRETS.md", "SESSIONS.md"} {
		assert.Check(t, slices.Contains(files, f), "missing %s in %v", f, files)
	}
	assert.Check(t, is.DeepEqual(complete(t, c, "skill://{id}/SKILL.md", "id", "sel"), []string{"selenium-flow"}))
}

// TestExcludeTools: excluded tools leave the tool list, a topic nothing
// left can answer leaves the index, and its document stays readable. How
// FLOW_EXCLUDE_TOOLS is read is TestSmoke's (the binary's) to check.
func TestExcludeTools(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{
		Resources:    surface.Off,
		ExcludeTools: []string{"wait_for", "assert", "read_resource"},
	}), servertest.Options{})
	names := servertest.ToolNames(t, c)
	assert.Check(t, !slices.Contains(names, "read_resource"), "%v", names)
	assert.Check(t, slices.Contains(names, "list_resources"), "%v", names)
	idx, _ := readIndex(t, c)
	for _, tp := range idx.Topics {
		assert.Check(t, tp.ID != "waiting-and-timing", "the index keeps a topic no tool can answer")
		assert.Check(t, !slices.Contains(tp.Tools, "assert"), "topic %s still names an excluded tool", tp.ID)
	}
	assert.Check(t, is.Contains(readText(t, c, "knowledge://documents/waiting-and-timing"), "wait_for"))
	// the declared size of the index follows the smaller index
	for _, r := range listResources(t, c) {
		if r.URI == "knowledge://index" {
			assert.Check(t, r.Size != nil && int(*r.Size) == len(readText(t, c, r.URI)))
		}
	}
}
