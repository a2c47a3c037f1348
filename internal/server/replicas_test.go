package server_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"sync"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// roundRobin is a load balancer with no stickiness: each request goes to
// the next live backend in turn, whatever its Mcp-Session-Id.
type roundRobin struct {
	mu       sync.Mutex
	backends []*url.URL
	next     int
	hits     map[string]int
}

func (rr *roundRobin) pick() *url.URL {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	u := rr.backends[rr.next%len(rr.backends)]
	rr.next++
	rr.hits[u.Host]++
	return u
}

// drop takes a dead backend out, as a load balancer's health check would.
func (rr *roundRobin) drop(base string) {
	rr.mu.Lock()
	defer rr.mu.Unlock()
	rr.backends = slices.DeleteFunc(rr.backends, func(u *url.URL) bool { return "http://"+u.Host == base })
}

func (rr *roundRobin) proxy() http.Handler {
	return &httputil.ReverseProxy{
		Rewrite: func(r *httputil.ProxyRequest) {
			r.SetURL(rr.pick())
			r.Out.Host = r.In.Host
		},
		FlushInterval: -1, // event streams pass at once
	}
}

// TestReplicas: two server processes, one Redis, the CI Grid and one data
// folder, behind a round-robin proxy. A caller whose requests alternate
// between them keeps its browser, its surface (the mirror, from its
// clientInfo), its flows and files, on both protocol generations; when one
// replica is killed with SIGKILL mid-work, the next call on the other
// continues in the same browser.
func TestReplicas(t *testing.T) {
	grid := gridURL(t)
	store := testenv.Redis(t)
	site := fixtures.Serve(t)
	for _, protocol := range servertest.Protocols {
		t.Run(servertest.Generation(protocol), func(t *testing.T) {
			env := []string{"FLOW_DATA_DIR=" + t.TempDir(), "FLOW_STORE=" + store, "FLOW_STORE_PREFIX=" + t.Name() + ":", "SELENIUM_URL=" + grid}
			a := servertest.StartHTTP(t, nil, env)
			b := servertest.StartHTTP(t, nil, env)
			rr := &roundRobin{hits: map[string]int{}}
			for _, s := range []*servertest.Server{a, b} {
				u, err := url.Parse(s.Base)
				assert.NilError(t, err)
				rr.backends = append(rr.backends, u)
			}
			lb := httptest.NewServer(rr.proxy())
			t.Cleanup(lb.Close)

			c := servertest.ConnectHTTP(t, lb.URL+"/mcp", servertest.Options{Protocol: protocol, Info: mcp.Implementation{Name: "Visual Studio Code", Version: "1.107.0"}})
			for range 2 { // one list on each replica
				names := servertest.ToolNames(t, c)
				assert.Check(t, slices.Contains(names, "read_resource"), "the mirror for VS Code on every replica: %v", names)
			}
			signIn(t, c, site, "alice", nil)
			t.Cleanup(func() { servertest.Call(t, c, "close_session", nil) })
			var first sessions.Current
			servertest.MirrorJSON(t, c, "session://current", &first)
			for i := range 4 {
				var cur sessions.Current
				servertest.MirrorJSON(t, c, "session://current", &cur)
				assert.Check(t, is.Equal(cur.DriverSession, first.DriverSession), "read %d", i)
				out := servertest.CallOK(t, c, "outline", nil)
				assert.Check(t, is.Contains(out, "Signed in as alice"), "call %d", i)
			}

			// Flows and kept files: saved through one replica, used through
			// the other.
			flow := map[string]any{"name": "members", "description": "Open the members area.", "steps": []any{
				map[string]any{"id": "open", "tool": "navigate", "args": map[string]any{"url": site + "/members?by=flow"}},
				map[string]any{"id": "who", "tool": "wait_for", "args": map[string]any{"text": "Signed in as alice"}},
			}}
			servertest.CallOK(t, c, "save_flow", map[string]any{"document": flow})
			for range 2 {
				servertest.CallOK(t, c, "run_flow", map[string]any{"name": "members"})
			}
			shot := servertest.Call(t, c, "screenshot", map[string]any{"filename": "members"})
			assert.Assert(t, !shot.IsError, servertest.Text(shot))
			for range 2 {
				var files sessions.FileList
				servertest.MirrorJSON(t, c, "session://files", &files)
				assert.Check(t, is.Len(files.Files, 1))
			}

			// SIGKILL one replica in the middle of the caller's work: the
			// balancer drops it, the other continues in the same browser.
			a.Stop(t, syscall.SIGKILL)
			rr.drop(a.Base)
			out := servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/members?after=kill"})
			assert.Check(t, is.Contains(out, "Members area"))
			var cur sessions.Current
			servertest.MirrorJSON(t, c, "session://current", &cur)
			assert.Check(t, is.Equal(cur.DriverSession, first.DriverSession), "the same browser")
			assert.Check(t, is.Equal(cur.URL, site+"/members?after=kill"))
			rr.mu.Lock()
			assert.Check(t, len(rr.hits) == 2, "both replicas served: %v", rr.hits)
			rr.mu.Unlock()
		})
	}
}
