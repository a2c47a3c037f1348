package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/resources"
)

// ShellURI is the app shell the show tool draws in; its entry (title, type)
// is in the resource table like every other resource.
const ShellURI = "ui://selenium-flow/component"

// MaxShown is the most characters of resource JSON show hands to a view.
const MaxShown = 100_000

// Showable is one row of what show can draw: the first pattern that
// matches a URI picks the view.
type Showable struct {
	Pattern   string // a URI, or a template with {name}
	Component string
	template  resources.Template
}

// Showables is the one table of showable URIs, first match wins.
var Showables = compileShowables([]Showable{
	{Pattern: "session://current", Component: "context"},
	{Pattern: "session://files", Component: "files"},
	{Pattern: "session://files/screenshots", Component: "folder"},
	{Pattern: "session://files/downloads", Component: "folder"},
	{Pattern: "flow://flows", Component: "flows"},
	{Pattern: "flow://flows/{name}", Component: "flow"},
})

func compileShowables(rows []Showable) []Showable {
	for i, r := range rows {
		rows[i].template = resources.ParseTemplate(r.Pattern)
	}
	return rows
}

// ComponentFor returns the view that draws uri, or "".
func ComponentFor(uri string) string {
	for _, s := range Showables {
		if _, ok := s.template.Match(uri); ok {
			return s.Component
		}
	}
	return ""
}

func showableList() string {
	var out []string
	for _, s := range Showables {
		out = append(out, s.Pattern)
	}
	return strings.Join(out, ", ")
}

// Shown is show's structured result: the view, the URI and the resource's
// own JSON, exactly as a read returns it.
type Shown struct {
	Component string          `json:"component"`
	URI       string          `json:"uri"`
	Data      json.RawMessage `json:"data"`
}

// Show returns the show tool, which draws a resource for the person in the
// MCP App shell. It is offered only to hosts that declare the MCP Apps
// extension (see internal/server).
func Show(t *resources.Table) []Tool {
	show := New("show", "Show to the Person", ReadOnly,
		"Draw one of the caller's resources for the person, inline in the chat, in this server's app: the browser session (session://current), kept files (session://files, session://files/screenshots, session://files/downloads), saved flows (flow://flows) or one flow (flow://flows/{name}). "+
			"Use it when the person asks to see something; to read a resource yourself, read it instead. "+
			"The view draws exactly what the resource serves, and the person can drill into folders and flows from it. "+
			"Any other URI is refused with the list of showable ones.",
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			uri, err := req.RequireString("uri")
			if err != nil {
				return nil, missing("uri", "a showable URI: "+showableList())
			}
			return showResult(ctx, t, uri)
		},
		mcp.WithString("uri", mcp.Required(), mcp.Description("the resource to show, e.g. flow://flows or session://files/screenshots")),
	)
	show.Def.Meta = mcp.NewMetaFromMap(map[string]any{
		"ui":             map[string]any{"resourceUri": ShellURI, "visibility": []string{"model", "app"}},
		"ui/resourceUri": ShellURI,
	})
	return []Tool{show}
}

func showResult(ctx context.Context, t *resources.Table, uri string) (*mcp.CallToolResult, error) {
	component := ComponentFor(uri)
	if component == "" {
		return nil, refusal.New(fmt.Sprintf("show cannot draw %s.", uri), "Showable URIs: "+showableList()+"; read any other resource instead.")
	}
	c, err := t.Read(ctx, uri)
	if err != nil {
		return nil, err
	}
	if !c.IsText() || !json.Valid([]byte(c.Text)) {
		return nil, fmt.Errorf("%s did not read as JSON, so show cannot draw it; read it instead", uri)
	}
	if len(c.Text) > MaxShown {
		return nil, refusal.New(fmt.Sprintf("%s is %d characters, more than show draws (%d).", uri, len(c.Text), MaxShown), "Read the resource instead, or show a narrower one (a folder, or one flow).")
	}
	res := mcp.NewToolResultStructured(Shown{Component: component, URI: uri, Data: json.RawMessage(c.Text)},
		fmt.Sprintf("Showing %s to the person (%s).", uri, component))
	return res, nil
}
