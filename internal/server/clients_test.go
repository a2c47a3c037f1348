package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
	"gotest.tools/v3/golden"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

var (
	vscode  = mcp.Implementation{Name: "Visual Studio Code", Version: "1.99.0"}
	insider = mcp.Implementation{Name: "Visual Studio Code - Insiders", Version: "1.100.0"}
	other   = mcp.Implementation{Name: "some-agent", Version: "0.1"}
)

// TestWhoIsCalling: the mirror is listed exactly when the caller's model
// cannot read resources, decided on the very first tools/list, on both
// protocol generations, with the server-wide setting (--resources, seen by
// the in-process client as by stdio) and the per-request one over HTTP
// (?resources=, X-MCP-Resources).
func TestWhoIsCalling(t *testing.T) {
	cases := []struct {
		name string
		tr   servertest.Transport
		// resources is the server-wide setting (serve --resources).
		resources surface.Setting
		opts      servertest.Options
		mirror    bool
	}{
		{name: "vscode in process", tr: servertest.InProc, opts: servertest.Options{Info: vscode}, mirror: true},
		{name: "insiders http", tr: servertest.HTTP, opts: servertest.Options{Info: insider}, mirror: true},
		{name: "vscode with --resources on", tr: servertest.InProc, resources: surface.On, opts: servertest.Options{Info: vscode}},
		{name: "vscode with ?resources=on", tr: servertest.HTTP, opts: servertest.Options{Info: vscode, Query: "resources=on"}},
		{name: "vscode with header on", tr: servertest.HTTP, opts: servertest.Options{Info: vscode, Headers: map[string]string{"X-MCP-Resources": "on"}}},
		{name: "unknown client", tr: servertest.HTTP, opts: servertest.Options{Info: other}},
		{name: "unknown client with ?resources=off", tr: servertest.HTTP, opts: servertest.Options{Info: other, Query: "resources=off"}, mirror: true},
		{name: "unknown client with header off", tr: servertest.HTTP, opts: servertest.Options{Info: other, Headers: map[string]string{"X-MCP-Resources": "off"}}, mirror: true},
		{name: "query wins over header", tr: servertest.HTTP, opts: servertest.Options{Info: other, Query: "resources=on", Headers: map[string]string{"X-MCP-Resources": "off"}}},
		{name: "unknown client with --resources off", tr: servertest.InProc, resources: surface.Off, opts: servertest.Options{Info: other}, mirror: true},
		{name: "vscode over http with --resources on", tr: servertest.HTTP, resources: surface.On, opts: servertest.Options{Info: vscode}},
		{name: "unknown client over http with --resources off", tr: servertest.HTTP, resources: surface.Off, opts: servertest.Options{Info: other}, mirror: true},
	}
	for _, tc := range cases {
		for _, proto := range servertest.Protocols {
			t.Run(tc.name+" "+servertest.Generation(proto), func(t *testing.T) {
				o := tc.opts
				o.Protocol = proto
				c := servertest.Local(t, servertest.New(t, server.Config{Resources: tc.resources}), tc.tr, o)
				names := servertest.ToolNames(t, c)
				listed := slices.Contains(names, "list_resources") && slices.Contains(names, "read_resource")
				assert.Check(t, is.Equal(listed, tc.mirror), "tools: %v", names)

				call := servertest.Call(t, c, "read_resource", map[string]any{"uri": "knowledge://index"})
				assert.Check(t, is.Equal(!call.IsError, tc.mirror), "read_resource callable=%v: %s", !call.IsError, servertest.Text(call))
				if !tc.mirror {
					assert.Check(t, is.Contains(servertest.Text(call), "Use resources/list and resources/read instead, starting with knowledge://index"))
				}

				instr := c.Init.Instructions
				if tc.mirror {
					assert.Check(t, is.Contains(instr, "call read_resource with uri knowledge://index"))
				} else {
					assert.Check(t, is.Contains(instr, "reading the resource knowledge://index, then skill://selenium-flow/SKILL.md"))
					assert.Check(t, !strings.Contains(instr, "read_resource"))
				}
			})
		}
	}
}

// TestBadSetting: a surface setting that is neither on, off nor auto is
// refused before any MCP processing, with a sentence that names the values.
func TestBadSetting(t *testing.T) {
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{}))
	for _, tc := range []struct{ query, header string }{{query: "resources=maybe"}, {header: "yes please"}} {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"?"+tc.query, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", "application/json")
		if tc.header != "" {
			req.Header.Set("X-MCP-Resources", tc.header)
		}
		res, err := http.DefaultClient.Do(req)
		assert.NilError(t, err)
		body := readAll(t, res)
		assert.Check(t, is.Equal(res.StatusCode, http.StatusBadRequest))
		assert.Check(t, is.Contains(body, "use on, off or auto"))
	}
}

// TestGolden pins tools/list, resources/list and resources/templates/list
// as a mirror client (VS Code) and a resource-reading client see them.
// Regenerate with: go test ./internal/server -run TestGolden -update
func TestGolden(t *testing.T) {
	for _, who := range []struct {
		file string
		info mcp.Implementation
	}{{"vscode", vscode}, {"reader", other}} {
		t.Run(who.file, func(t *testing.T) {
			c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{Info: who.info, Protocol: servertest.Legacy})
			tl, err := c.ListTools(servertest.Context(t), mcp.ListToolsRequest{})
			assert.NilError(t, err)
			golden.Assert(t, pretty(t, tl.Tools), who.file+".tools.golden")
			golden.Assert(t, pretty(t, listResources(t, c)), who.file+".resources.golden")
			golden.Assert(t, pretty(t, listTemplates(t, c)), who.file+".templates.golden")
		})
	}
}

func pretty(t *testing.T, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	assert.NilError(t, err)
	return string(b) + "\n"
}

func readAll(t *testing.T, res *http.Response) string {
	t.Helper()
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	assert.NilError(t, err)
	return string(b)
}

func repoFile(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", filepath.FromSlash(rel)))
	assert.NilError(t, err)
	return string(b)
}
