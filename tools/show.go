package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
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
	// Label is what show's description calls it.
	Label    string
	template resources.Template
}

// Showables is the one table of showable URIs, first match wins.
var Showables = compileShowables([]Showable{
	{Pattern: "session://current", Component: "context", Label: "the browser session"},
	{Pattern: "session://files", Component: "files", Label: "kept files"},
	{Pattern: "session://files/screenshots", Component: "folder", Label: "kept files"},
	{Pattern: "session://files/downloads", Component: "folder", Label: "kept files"},
	{Pattern: "flow://flows", Component: "flows", Label: "saved flows"},
	{Pattern: "flow://flows/{name}", Component: "flow", Label: "one flow"},
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

// served keeps the showables the table serves: an exclusion may have
// withdrawn some (resources.Entry.Tools).
func served(t *resources.Table) []Showable {
	var out []Showable
	for _, s := range Showables {
		if _, ok := t.Lookup(s.Pattern); ok {
			out = append(out, s)
		}
	}
	return out
}

func showableList(rows []Showable) string {
	var out []string
	for _, s := range rows {
		out = append(out, s.Pattern)
	}
	return strings.Join(out, ", ")
}

// showableWords is the description's account of rows: "the browser
// session (session://current), kept files (session://files, …) or …".
func showableWords(rows []Showable) string {
	var parts []string
	for i := 0; i < len(rows); {
		j := i
		var uris []string
		for ; j < len(rows) && rows[j].Label == rows[i].Label; j++ {
			uris = append(uris, rows[j].Pattern)
		}
		parts = append(parts, rows[i].Label+" ("+strings.Join(uris, ", ")+")")
		i = j
	}
	if len(parts) < 2 {
		return strings.Join(parts, "")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " or " + parts[len(parts)-1]
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
	rows := served(t)
	example := "session://files/screenshots"
	if len(rows) > 0 && !slices.ContainsFunc(rows, func(r Showable) bool { return r.Pattern == example }) {
		example = rows[0].Pattern
	}
	show := New("show", "Show to the Person", ReadOnly,
		"Draw one of the caller's resources for the person, inline in the chat, in this server's app: "+showableWords(rows)+". "+
			"Use it when the person asks to see something; to read a resource yourself, read it instead. "+
			"The view draws exactly what the resource serves, and the person can drill into folders and flows from it. "+
			"Any other URI is refused with the list of showable ones.",
		func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			uri, err := req.RequireString("uri")
			if err != nil {
				return nil, missing("uri", "a showable URI: "+showableList(rows))
			}
			return showResult(ctx, t, uri)
		},
		mcp.WithString("uri", mcp.Required(), mcp.Description("the resource to show, e.g. "+example)),
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
		return nil, refusal.New(fmt.Sprintf("show cannot draw %s.", uri), "Showable URIs: "+showableList(served(t))+"; read any other resource instead.")
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
