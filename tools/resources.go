package tools

import (
	"context"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/resources"
)

// Mirror names the tools that stand in for resources/list and
// resources/read for clients whose model cannot read resources.
var Mirror = []string{"list_resources", "read_resource"}

// Resources returns the mirror tools over the table.
func Resources(t *resources.Table) []Tool {
	return []Tool{
		New("list_resources", "List Resources", ReadOnly,
			"List this server's resources and resource templates: knowledge documents, skills, the flow schema, your session, kept files, saved flows and secret names, each with URI, title, description, type and size, highest priority first. "+
				"Start with knowledge://index, then read what you need with read_resource. "+
				"Results come in pages; pass nextCursor back as cursor for the next page and stop when there is none. "+
				"Templates such as knowledge://documents/{id} are filled in by you before reading.",
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return t.MirrorListResult(req.GetString("cursor", ""))
			},
			mcp.WithString("cursor", mcp.Description("nextCursor from the previous page; omit for the first page")),
		),
		New("read_resource", "Read Resource", ReadOnly,
			"Read one resource by URI, as a client that reads resources natively would: knowledge://index first, then "+readable(t)+". "+
				"Text comes back as text and a PNG or JPEG as an image; a PDF or other binary is described by type, size and link, never sent as base64. "+
				"A URI that does not exist is refused with the templates and an example that works.",
			func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				uri, err := req.RequireString("uri")
				if err != nil {
					return nil, missing("uri", "a URI from list_resources, e.g. knowledge://index")
				}
				return t.MirrorReadResult(ctx, uri)
			},
			mcp.WithString("uri", mcp.Required(), mcp.Description("the resource URI, e.g. knowledge://index or skill://selenium-flow/SKILL.md")),
		),
	}
}

// readable names what read_resource reads, as far as the table serves it.
func readable(t *resources.Table) string {
	parts := []string{"documents (knowledge://documents/{id})"}
	if skills := t.SkillURIs(); len(skills) > 0 {
		parts = append(parts, "skills ("+skills[0]+" and its references)")
	}
	for _, uri := range []string{"flow://schema", "session://current", "session://files", "flow://flows", "secret://secrets"} {
		if _, ok := t.Lookup(uri); ok {
			parts = append(parts, uri)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
