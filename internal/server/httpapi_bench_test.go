package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// BenchmarkActionSurfaces measures one page action (read_text on the
// login page) through the HTTP API (POST /browser/read_text) beside the
// same call as MCP tools/call over Streamable HTTP, on one server and one
// browser: the HTTP envelope should cost no more than MCP's.
func BenchmarkActionSurfaces(b *testing.B) {
	testenv.NeedBrowser(b)
	site := fixtures.Serve(b)
	srv := servertest.New(b, server.Config{})
	hs := servertest.ServeHTTP(b, srv)
	c := servertest.ConnectHTTP(b, hs.URL, servertest.Options{})
	servertest.CallOK(b, c, "open_session", map[string]any{"url": site + "/login"})
	args := map[string]any{"locator": map[string]any{"role": "heading", "name": "Sign in"}}

	b.Run("http", func(b *testing.B) {
		for b.Loop() {
			req, _ := http.NewRequest("POST", hs.Base+"/browser/read_text", strings.NewReader(`{"locator": {"role": "heading", "name": "Sign in"}}`))
			req.Header.Set("Content-Type", "application/json")
			res, err := http.DefaultClient.Do(req)
			if err != nil || res.StatusCode != http.StatusOK {
				b.Fatalf("POST /browser/read_text: %v %v", err, res)
			}
			_ = res.Body.Close()
		}
	})
	b.Run("mcp", func(b *testing.B) {
		for b.Loop() {
			req := mcp.CallToolRequest{}
			req.Params.Name = "read_text"
			req.Params.Arguments = args
			res, err := c.CallTool(servertest.Context(b), req)
			if err != nil || res.IsError {
				b.Fatalf("tools/call read_text: %v %v", err, res)
			}
		}
	})
}
