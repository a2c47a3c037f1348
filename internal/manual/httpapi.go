package manual

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/server"
)

// openAPIView is what the manual reads of the OpenAPI document.
type openAPIView struct {
	Tags []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"tags"`
	Paths map[string]map[string]json.RawMessage `json:"paths"`
}

type openAPIOperation struct {
	Summary  string   `json:"summary"`
	Tags     []string `json:"tags"`
	Tool     string   `json:"x-mcp-tool"`
	Resource string   `json:"x-mcp-resource"`
}

type endpoint struct {
	method, path string
	op           openAPIOperation
}

// httpGroupPath is the manual page of one endpoint group.
func httpGroupPath(group string) string { return "http/" + group + ".md" }

// httpPages are the HTTP API's overview and a page per endpoint group
// (the OpenAPI document's tags), all read from the document the server
// serves.
func (s *source) httpPages() []Page {
	var doc openAPIView
	_ = json.Unmarshal(s.openapi, &doc)
	byGroup := map[string][]endpoint{}
	for p, item := range doc.Paths {
		for method, raw := range item {
			var op openAPIOperation
			if method == "parameters" || json.Unmarshal(raw, &op) != nil || len(op.Tags) == 0 {
				continue
			}
			byGroup[op.Tags[0]] = append(byGroup[op.Tags[0]], endpoint{strings.ToUpper(method), p, op})
		}
	}
	const at = "http-api.md"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# HTTP API\n\n")
	b.WriteString("A caller without an MCP client (a workflow engine's HTTP node, a script, curl) reaches everything the tools do over plain HTTP, from a server started with `selenium-flow serve --http ADDR`. ")
	fmt.Fprintf(&b, "Every tool is an endpoint, `POST %s{tool}` for the page tools: it calls the very handler `tools/call` reaches, with the same validation and the same refusal sentences. ", server.BrowserPrefix)
	b.WriteString("The JSON body is the tool's arguments; the answer is `{\"tool\", \"text\", \"result\", \"images\", \"files\"}`; a refusal is `{\"error\": sentence, \"tool\", \"status\"}` with the status of its kind: 400 bad arguments, 401 no or unknown token, 403 not allowed, 404 missing, 409 the page is not in the state the call needs, 413 too large, 502 the browser failed, 503 no browser endpoint.\n\n")
	b.WriteString("Authentication and per-caller scoping are those of the MCP endpoint `/mcp`: with tokens configured, send `Authorization: Bearer <token>`; sessions, files, flows and secrets are the token's principal's. ")
	b.WriteString("Links to kept files in results are signed and expire (`LINK_TTL`), so an `<img>` tag or a person opens them without a token. ")
	b.WriteString("Pages of other origins may call the API only when the operator lists them in `FLOW_ALLOWED_ORIGINS`.\n\n")
	fenced(&b, "sh", fmt.Sprintf("curl -H 'Authorization: Bearer <token>' -d '{\"url\": \"https://example.com\"}' %s%sopen_session\n"+
		"curl -H 'Authorization: Bearer <token>' -H 'Accept: image/png' -d '{}' %s%sscreenshot -o page.png\n"+
		"curl -H 'Authorization: Bearer <token>' -H 'Accept: text/event-stream' -d '{\"params\": {}}' %s%s/login/runs",
		server.DefaultBase, server.BrowserPrefix, server.DefaultBase, server.BrowserPrefix, server.DefaultBase, server.FlowsPath))
	fmt.Fprintf(&b, "The server describes the API in an OpenAPI %s document at `%s` and `%s` (%s), generated from the tool schemas and the resource table: every action endpoint names its tool in `x-mcp-tool`, every read endpoint its resource in `x-mcp-resource`.\n\n",
		server.OpenAPIVersion, server.OpenAPIPath, server.OpenAPIYAMLPath, link("a copy", "openapi.json"))
	b.WriteString("## Endpoint groups\n\n")
	var rows [][]string
	var pages []Page
	for _, tag := range doc.Tags {
		eps := byGroup[tag.Name]
		if len(eps) == 0 {
			continue
		}
		rows = append(rows, []string{link(tag.Name, rel(at, httpGroupPath(tag.Name))), fmt.Sprint(len(eps)), text(tag.Description)})
		pages = append(pages, s.httpGroupPage(tag.Name, tag.Description, eps))
	}
	table(&b, []string{"group", "endpoints", "what it holds"}, rows)
	return append([]Page{{Path: at, Title: "HTTP API", Markdown: b.String()}}, pages...)
}

// httpGroupPage lists one group's endpoints with the tool or resource
// each stands for.
func (s *source) httpGroupPage(group, about string, eps []endpoint) Page {
	at := httpGroupPath(group)
	slices.SortFunc(eps, func(a, b endpoint) int {
		if c := strings.Compare(a.path, b.path); c != 0 {
			return c
		}
		return strings.Compare(a.method, b.method)
	})
	var b strings.Builder
	b.WriteString(header)
	fmt.Fprintf(&b, "# HTTP API: %s\n\n%s See %s for authentication, answers and refusals.\n\n", group, text(about), link("the HTTP API", rel(at, "http-api.md")))
	var rows [][]string
	for _, ep := range eps {
		mcpName := "—"
		switch {
		case ep.op.Tool != "":
			mcpName = "tool " + codeLink(ep.op.Tool, rel(at, toolPath(ep.op.Tool)))
		case ep.op.Resource != "":
			mcpName = "resource " + code(ep.op.Resource)
			if e, ok := s.table.Lookup(ep.op.Resource); ok {
				mcpName = "resource " + codeLink(ep.op.Resource, rel(at, anchor(e)))
			}
		}
		rows = append(rows, []string{code(ep.method + " " + ep.path), mcpName, text(ep.op.Summary)})
	}
	table(&b, []string{"endpoint", "MCP", "summary"}, rows)
	return Page{Path: at, Title: "HTTP API: " + group, Markdown: b.String()}
}
