package server_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestMain: no server binary, chromedriver or goroutine outlives the
// tests, and the binary's build folder is removed (see servertest.Main).
func TestMain(m *testing.M) { servertest.Main(m) }

// TestSmoke is the one test of the real binary per transport (stdio,
// Streamable HTTP) and protocol generation (the initialize handshake,
// 2025-11-25, and the stateless protocol, 2026-07-28); every other surface
// test runs the server in process. It checks what only the binary does:
// cmd/selenium-flow reading its flags (--resources, --token) and
// environment (FLOW_EXCLUDE_TOOLS with spaces, FLOW_SECRETS, FLOW_DATA_DIR),
// the transports' wiring, and run_flow's progress notifications arriving
// before its result on each transport (tools.CountProgress on stdio,
// tools.TrackProgress on HTTP), with steps that need no browser.
func TestSmoke(t *testing.T) {
	const token = "smoke-test-token-0123456789abcdef"
	for _, tr := range servertest.Transports {
		for _, proto := range servertest.Protocols {
			t.Run(string(tr)+"/"+servertest.Generation(proto), func(t *testing.T) {
				secrets := filepath.Join(t.TempDir(), "secrets")
				assert.NilError(t, os.WriteFile(secrets, []byte("local smoke-secret 127.0.0.1 smoke-value-77\n"), 0o600))
				o := servertest.Options{
					Protocol: proto,
					Args:     []string{"--resources", "off"},
					Env:      []string{"FLOW_EXCLUDE_TOOLS=wait_for, screenshot", "FLOW_SECRETS=" + secrets},
				}
				var srv *servertest.Server
				var c *servertest.Client
				if tr == servertest.HTTP {
					srv = servertest.StartHTTP(t, append(o.Args, "--token", token), o.Env)
					o.Headers = map[string]string{"Authorization": "Bearer " + token}
					c = servertest.ConnectHTTP(t, srv.URL, o)
				} else {
					c = servertest.Connect(t, tr, o)
				}

				// The generation asked for is the one spoken.
				want := servertest.Legacy
				if proto == "" {
					want = mcp.LATEST_PROTOCOL_VERSION
				}
				assert.Check(t, is.Equal(c.ProtocolVersion(), want))
				assert.Check(t, is.Equal(c.Init.ServerInfo.Name, server.Name))
				assert.Check(t, is.Contains(c.Init.Instructions, "call read_resource with uri knowledge://index"), "--resources off")

				// Flags and environment.
				names := servertest.ToolNames(t, c)
				for _, n := range []string{"list_resources", "read_resource", "open_session", "run_flow"} {
					assert.Check(t, slices.Contains(names, n), "%s is not listed: %v", n, names)
				}
				for _, n := range []string{"wait_for", "screenshot"} {
					assert.Check(t, !slices.Contains(names, n), "FLOW_EXCLUDE_TOOLS left %s in: %v", n, names)
				}
				assert.Check(t, is.Contains(servertest.Text(servertest.MirrorRead(t, c, "secret://secrets")), "smoke-secret"))

				// Resources, natively and through the mirror, and a refusal.
				index := servertest.ReadText(t, c, "knowledge://index")
				assert.Check(t, is.Equal(servertest.CallOK(t, c, "read_resource", map[string]any{"uri": "knowledge://index"}), index))
				servertest.CallRefused(t, c, "read_resource", map[string]any{"uri": "knowledge://no-such-document"}, "knowledge://documents/{id}")

				// Progress: one notification per step, every one before the
				// result. Without a browser each step is refused, and
				// onError: continue runs them all.
				var mu sync.Mutex
				var got []map[string]any
				c.OnNotification(func(n mcp.JSONRPCNotification) {
					if n.Method == "notifications/progress" {
						mu.Lock()
						got = append(got, n.Params.AdditionalFields)
						mu.Unlock()
					}
				})
				steps := []any{}
				for range 3 {
					steps = append(steps, map[string]any{"tool": "assert", "args": map[string]any{"text": "anything"}, "onError": "continue"})
				}
				servertest.CallOK(t, c, "save_flow", map[string]any{"document": map[string]any{"name": "smoke", "steps": steps}})
				req := mcp.CallToolRequest{}
				req.Params.Name = "run_flow"
				req.Params.Arguments = map[string]any{"name": "smoke"}
				req.Params.Meta = &mcp.Meta{ProgressToken: "smoke"}
				res, err := c.CallTool(servertest.Context(t), req)
				assert.NilError(t, err)
				mu.Lock()
				before := slices.Clone(got)
				mu.Unlock()
				assert.Check(t, !res.IsError, servertest.Text(res))
				assert.Check(t, is.Contains(servertest.Text(res), "3 steps done; step 1 (assert), step 2 (assert), step 3 (assert) failed and the run continued"), servertest.Text(res))
				assert.Assert(t, is.Len(before, 3), "every progress notification arrives before the result: %v", before)
				for i, p := range before {
					assert.Check(t, is.Equal(p["progressToken"], "smoke"))
					assert.Check(t, is.Equal(p["progress"], float64(i+1)))
					assert.Check(t, is.Equal(p["total"], float64(3)))
					assert.Check(t, is.Contains(fmt.Sprint(p["message"]), fmt.Sprintf("step %d", i+1)))
				}

				// HTTP only: the token guards the read API beside /mcp.
				if srv != nil {
					code, _, body := servertest.Get(t, srv.Base+server.ReadPrefix+"knowledge://index", nil)
					assert.Check(t, is.Equal(code, http.StatusUnauthorized), "%s", body)
					code, _, body = servertest.Get(t, srv.Base+server.ReadPrefix+"knowledge://index", http.Header{"Authorization": {"Bearer " + token}})
					assert.Check(t, is.Equal(code, http.StatusOK))
					assert.Check(t, string(body) == index, "GET differs from resources/read")
				}
				stderr := c.Stderr()
				for _, bad := range []string{"panic", "goroutine ", "smoke-value-77"} {
					assert.Check(t, !strings.Contains(stderr, bad), "the server's stderr has %q:\n%s", bad, stderr)
				}
			})
		}
	}
}
