package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// TestRefusalArrivesAsIsError pins that a refusal sentence crosses the wire
// as an isError tool result, never as a JSON-RPC error, in process and over
// Streamable HTTP:
// a read of a URI that does not exist through the mirror names the
// templates, and a call without its required argument names the argument.
func TestRefusalArrivesAsIsError(t *testing.T) {
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, servertest.New(t, server.Config{Resources: surface.Off}), tr, servertest.Options{})
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
	srv := servertest.New(t, server.Config{})
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
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, panicking(t), tr, servertest.Options{Info: mcp.Implementation{Name: "panic-test", Version: "1"}})
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
			_, err := servertest.Read(t, c, "knowledge://index")
			assert.NilError(t, err)
		})
	}
}
