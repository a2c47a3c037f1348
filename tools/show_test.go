package tools_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/tools"
)

var appsHost = servertest.Options{
	Info:         mcp.Implementation{Name: "apps-host", Version: "1"},
	Capabilities: mcp.ClientCapabilities{Extensions: map[string]any{"io.modelcontextprotocol/ui": map[string]any{"mimeTypes": []string{"text/html;profile=mcp-app"}}}},
}

func read(t *testing.T, c *servertest.Client, uri string) string {
	t.Helper()
	return servertest.ReadText(t, c, uri)
}

func saveFlow(t *testing.T, c *servertest.Client, name, desc string) {
	t.Helper()
	servertest.CallOK(t, c, "save_flow", map[string]any{"document": map[string]any{
		"name": name, "description": desc,
		"steps": []any{map[string]any{"tool": "navigate", "args": map[string]any{"url": "http://127.0.0.1:1/"}}},
	}})
}

// TestShowOnlyForAppHosts: show, and the app shell resource, are offered
// to a host that declares the MCP Apps extension and to no one else.
func TestShowOnlyForAppHosts(t *testing.T) {
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			srv := servertest.New(t, server.Config{})
			plain := servertest.Local(t, srv, tr, servertest.Options{})
			assert.Check(t, !slices.Contains(servertest.ToolNames(t, plain), "show"))
			r := servertest.Call(t, plain, "show", map[string]any{"uri": "flow://flows"})
			assert.Check(t, r.IsError)
			assert.Check(t, is.Contains(servertest.Text(r), "did not declare the io.modelcontextprotocol/ui extension"))

			app := servertest.Local(t, srv, tr, appsHost)
			tl, err := app.ListTools(servertest.Context(t), mcp.ListToolsRequest{})
			assert.NilError(t, err)
			var show *mcp.Tool
			for i := range tl.Tools {
				if tl.Tools[i].Name == "show" {
					show = &tl.Tools[i]
				}
			}
			assert.Assert(t, show != nil, "show is not listed for an apps host")
			meta, _ := json.Marshal(show.Meta)
			assert.Check(t, is.Contains(string(meta), `"resourceUri":"ui://selenium-flow/component"`))
			assert.Check(t, is.Contains(string(meta), `"visibility":["model","app"]`))

			shell := read(t, app, tools.ShellURI)
			assert.Check(t, is.Contains(shell, "<html"))
		})
	}
}

// TestShowDrawsWhatTheResourceServes: each showable URI gives its view and
// the resource's own JSON; anything else is refused naming what is showable.
func TestShowDrawsWhatTheResourceServes(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), appsHost)
	saveFlow(t, c, "login", "Sign in.")
	for _, tc := range []struct{ uri, component string }{
		{"session://current", "context"},
		{"session://files", "files"},
		{"session://files/screenshots", "folder"},
		{"session://files/downloads", "folder"},
		{"flow://flows", "flows"},
		{"flow://flows/login", "flow"},
	} {
		r := servertest.Call(t, c, "show", map[string]any{"uri": tc.uri})
		assert.Assert(t, !r.IsError, servertest.Text(r))
		assert.Check(t, is.Equal(servertest.Text(r), fmt.Sprintf("Showing %s to the person (%s).", tc.uri, tc.component)))
		var got tools.Shown
		b, _ := json.Marshal(r.StructuredContent)
		assert.NilError(t, json.Unmarshal(b, &got))
		assert.Check(t, is.Equal(got.Component, tc.component))
		assert.Check(t, is.Equal(got.URI, tc.uri))
		var want, have any
		assert.NilError(t, json.Unmarshal([]byte(read(t, c, tc.uri)), &want))
		assert.NilError(t, json.Unmarshal(got.Data, &have))
		if tc.component != "context" { // session://current carries lastUsedAt, which the read itself moves
			assert.Check(t, is.DeepEqual(have, want), tc.uri)
		}
	}

	other := servertest.Call(t, c, "show", map[string]any{"uri": "knowledge://index"})
	assert.Check(t, other.IsError)
	for _, s := range tools.Showables {
		assert.Check(t, is.Contains(servertest.Text(other), s.Pattern))
	}
	gone := servertest.Call(t, c, "show", map[string]any{"uri": "flow://flows/nope"})
	assert.Check(t, gone.IsError)
	assert.Check(t, is.Contains(servertest.Text(gone), `You have no flow named "nope". Your flows: login`))
}

// TestShowRefusesTooMuch: a resource over 100,000 characters is refused
// with a sentence saying to read it instead.
func TestShowRefusesTooMuch(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), appsHost)
	desc := strings.Repeat("A long description of what this flow does. ", 22)
	for i := range 110 {
		saveFlow(t, c, fmt.Sprintf("flow-%03d", i), desc)
	}
	r := servertest.Call(t, c, "show", map[string]any{"uri": "flow://flows"})
	assert.Check(t, r.IsError)
	assert.Check(t, is.Contains(servertest.Text(r), "Read the resource instead"))
	ok := servertest.Call(t, c, "show", map[string]any{"uri": "flow://flows/flow-007"})
	assert.Check(t, !ok.IsError, servertest.Text(ok))
}
