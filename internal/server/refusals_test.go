package server_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestRefusalArrivesAsIsError pins that a refusal sentence crosses the wire
// as an isError tool result, never as a JSON-RPC error, on both transports:
// a read of a URI that does not exist through the mirror names the
// templates, and a call without its required argument names the argument.
func TestRefusalArrivesAsIsError(t *testing.T) {
	for _, tr := range servertest.Transports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Connect(t, tr, servertest.Options{
				Args: []string{"--resources", "off"},
				Env:  []string{"FLOW_DATA_DIR=" + t.TempDir()},
			})
			tests := []struct {
				args map[string]any
				want []string
			}{
				{map[string]any{"uri": "knowledge://no-such-document"}, []string{"knowledge://no-such-document", "knowledge://documents/{id}", "e.g. knowledge://documents/"}},
				{map[string]any{}, []string{`"uri"`, "knowledge://index"}},
			}
			for _, tc := range tests {
				res := servertest.Call(t, c, "read_resource", tc.args) // a transport error fails here
				assert.Check(t, res.IsError, "read_resource %v was not refused: %s", tc.args, servertest.Text(res))
				text := servertest.Text(res)
				for _, w := range tc.want {
					assert.Check(t, is.Contains(text, w))
				}
				assert.Check(t, !strings.Contains(strings.ToLower(text), "error executing tool"), text)
			}
		})
	}
}

// panicking registers a tool whose handler panics on the server's own MCP
// server, so it runs behind the same middleware as every other tool.
func panicking(t *testing.T) *server.Server {
	t.Helper()
	srv, err := server.New(server.Config{DataDir: t.TempDir()})
	assert.NilError(t, err)
	t.Cleanup(srv.Close)
	srv.MCP().AddTool(mcp.NewTool("explode", mcp.WithDescription("panics, for the test")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var m map[string]int
			m["boom"]++ // a nil-map write: a real runtime panic
			return nil, nil
		})
	return srv
}

// TestPanicBecomesRefusal: a handler that panics gives the caller a clear
// isError result naming the tool, and the connection keeps working — in
// process and over Streamable HTTP.
func TestPanicBecomesRefusal(t *testing.T) {
	clients := map[string]func(t *testing.T) mcpclient.MCPClient{
		"in-process": func(t *testing.T) mcpclient.MCPClient {
			c, err := mcpclient.NewInProcessClient(panicking(t).MCP())
			assert.NilError(t, err)
			t.Cleanup(func() { _ = c.Close() })
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			assert.NilError(t, c.Start(ctx))
			req := mcp.InitializeRequest{}
			req.Params.ClientInfo = mcp.Implementation{Name: "panic-test", Version: "1"}
			_, err = c.Initialize(ctx, req)
			assert.NilError(t, err)
			return c
		},
		"http": func(t *testing.T) mcpclient.MCPClient {
			hs := httptest.NewServer(panicking(t).HTTPHandler())
			t.Cleanup(hs.Close)
			return servertest.ConnectHTTP(t, hs.URL+"/mcp", servertest.Options{}).Client
		},
	}
	for name, connect := range clients {
		t.Run(name, func(t *testing.T) {
			c := connect(t)
			for range 2 {
				res := servertest.Call(t, c, "explode", nil)
				assert.Check(t, res.IsError)
				text := servertest.Text(res)
				assert.Check(t, is.Contains(text, "explode tool failed unexpectedly"))
				assert.Check(t, !strings.Contains(text, "nil map"), "the panic value reached the caller: %s", text)
				assert.Check(t, !strings.Contains(text, ".go:"), "a stack reached the caller: %s", text)
			}
			// The connection still answers ordinary requests.
			names := servertest.ToolNames(t, c)
			assert.Check(t, is.Contains(names, "explode"))
			req := mcp.ReadResourceRequest{}
			req.Params.URI = "knowledge://index"
			_, err := c.ReadResource(context.Background(), req)
			assert.NilError(t, err)
		})
	}
}
