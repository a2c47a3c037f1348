package server_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// signIn signs in on the fixture members site as name, in the caller's
// workspace, and keeps the site data.
func signIn(t *testing.T, c *servertest.Client, site, name string, open map[string]any) {
	t.Helper()
	if open == nil {
		open = map[string]any{}
	}
	open["url"] = site + "/members/login"
	servertest.CallOK(t, c, "open_session", open)
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"label": "Name"}, "text": name})
	servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Sign in"}})
	servertest.CallOK(t, c, "wait_for", map[string]any{"text": "Theme: dark", "timeout": 20})
	saved := servertest.CallOK(t, c, "save_site_data", nil)
	assert.Check(t, is.Contains(saved, "Saved the site data of 1 sites"))
}

func current(t *testing.T, c *servertest.Client) sessions.Current {
	t.Helper()
	var cur sessions.Current
	servertest.MirrorJSON(t, c, "session://current", &cur)
	return cur
}

// TestRestartLocal: the real binary with the local chromedriver is
// stopped (SIGTERM) or killed (SIGKILL); a new process on the same data
// folder brings the browser back on the next call, at the same URL, with
// the same window, still signed in, and says so in one line.
func TestRestartLocal(t *testing.T) {
	servertest.NeedBrowser(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			site := fixtures.Serve(t)
			env := []string{"FLOW_DATA_DIR=" + t.TempDir()}
			args := []string{"--resources", "off"}
			one := servertest.StartHTTP(t, args, env)
			c := servertest.ConnectHTTP(t, one.URL, servertest.Options{})
			signIn(t, c, site, "alice", map[string]any{"window": "1024x700"})
			servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/members?tab=2"})
			_ = c.Close()
			one.Stop(t, sig)

			two := servertest.StartHTTP(t, args, env)
			c2 := servertest.ConnectHTTP(t, two.URL, servertest.Options{})
			before := current(t, c2)
			assert.Check(t, is.Equal(before.State, "open elsewhere"))
			out := servertest.CallOK(t, c2, "outline", nil)
			assert.Check(t, is.Contains(out, "The browser had ended, so it was reopened with the saved site data of 1 sites at its last page"))
			assert.Check(t, is.Contains(out, "Signed in as alice"))
			assert.Check(t, is.Contains(out, "Theme: dark"))
			cur := current(t, c2)
			assert.Check(t, is.Equal(cur.URL, site+"/members?tab=2"))
			assert.Check(t, is.DeepEqual(cur.Window, &browser.Window{Width: 1024, Height: 700}))
			assert.Check(t, is.Equal(cur.State, "live"))
			assert.Check(t, cur.Reopened)
			assert.Check(t, cur.BrowserVersion != "", "the browser's version")
			again := servertest.CallOK(t, c2, "outline", nil)
			assert.Check(t, !strings.Contains(again, "reopened"), "the note is said once")
			servertest.CallOK(t, c2, "close_session", nil)
		})
	}
}

// gridURL is the CI Grid (SELENIUM_URL); the test is skipped without one,
// as TestPageToolsGrid is.
func gridURL(t *testing.T) string {
	u := os.Getenv("SELENIUM_URL")
	if u == "" {
		t.Skip("SELENIUM_URL is not set")
	}
	return u
}

// TestGridReattach: on a Grid the browser outlives the server; a new
// server on the same store re-attaches to the same driver session,
// silently, and the page is where it was.
func TestGridReattach(t *testing.T) {
	grid := gridURL(t)
	site := fixtures.Serve(t)
	data := t.TempDir()
	one := servertest.New(t, server.Config{Resources: surface.Off, SeleniumURL: grid, DataDir: data})
	c := servertest.InProcess(t, one, servertest.Options{})
	signIn(t, c, site, "alice", nil)
	servertest.CallOK(t, c, "scroll", map[string]any{"by": map[string]any{"x": 0, "y": 40}})
	id := current(t, c).DriverSession
	assert.Assert(t, id != "")
	one.Close()

	two := servertest.New(t, server.Config{Resources: surface.Off, SeleniumURL: grid, DataDir: data})
	c2 := servertest.InProcess(t, two, servertest.Options{})
	t.Cleanup(func() { servertest.Call(t, c2, "close_session", nil) })
	out := servertest.CallOK(t, c2, "outline", nil)
	assert.Check(t, !strings.Contains(out, "reopened"), out)
	assert.Check(t, is.Contains(out, "Signed in as alice"))
	cur := current(t, c2)
	assert.Check(t, is.Equal(cur.DriverSession, id), "the same driver session")
	assert.Check(t, is.Equal(cur.URL, site+"/members"))
}

// TestGridReap: a Grid of the test's own reaps an idle browser after its
// --session-timeout; the next call reopens it where it was, signed in.
func TestGridReap(t *testing.T) {
	grid := testenv.Grid(t, "--session-timeout", "10")
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{Resources: surface.Off, SeleniumURL: grid})
	c := servertest.InProcess(t, srv, servertest.Options{})
	signIn(t, c, site, "alice", nil)
	servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/members?after=reap"})
	id := current(t, c).DriverSession
	servertest.Eventually(t, "the Grid to reap the idle browser", func() bool { return gridSessions(t, grid) == 0 })

	out := servertest.CallOK(t, c, "outline", nil)
	assert.Check(t, is.Contains(out, "reopened with the saved site data of 1 sites at its last page"))
	assert.Check(t, is.Contains(out, "Signed in as alice"))
	cur := current(t, c)
	assert.Check(t, cur.DriverSession != id)
	assert.Check(t, is.Equal(cur.URL, site+"/members?after=reap"))
	servertest.CallOK(t, c, "close_session", nil)
}

// gridSessions counts the sessions a Grid runs, from its /status.
func gridSessions(t *testing.T, grid string) int {
	resp, err := http.Get(grid + "/status")
	if err != nil {
		return -1
	}
	defer resp.Body.Close()
	var st struct {
		Value struct {
			Nodes []struct {
				Slots []struct {
					Session json.RawMessage `json:"session"`
				} `json:"slots"`
			} `json:"nodes"`
		} `json:"value"`
	}
	if json.NewDecoder(resp.Body).Decode(&st) != nil {
		return -1
	}
	n := 0
	for _, node := range st.Value.Nodes {
		for _, s := range node.Slots {
			if len(s.Session) > 0 && string(s.Session) != "null" {
				n++
			}
		}
	}
	return n
}

// TestWorkspaceIsolation: bob names alice's workspace and gets his own,
// empty one: not her browser, site data or history, by MCP, by the HTTP
// read API or by completion. A named workspace is apart from the default
// one of the same caller.
func TestWorkspaceIsolation(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	tokens, err := auth.NewTokens(map[string]string{aliceToken: "alice", bobToken: "bob"})
	assert.NilError(t, err)
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{Resources: surface.Off, Tokens: tokens}))
	as := func(token, query string) *servertest.Client {
		return servertest.ConnectHTTP(t, srv.URL, servertest.Options{Headers: map[string]string{"Authorization": "Bearer " + token}, Query: query})
	}
	alice := as(aliceToken, "workspace=shop")
	signIn(t, alice, site, "alice", nil)
	t.Cleanup(func() { servertest.Call(t, alice, "close_session", nil) })
	mine := current(t, alice)
	assert.Check(t, is.Equal(mine.Workspace, "shop"))
	assert.Check(t, is.Equal(mine.NamedBy, "query"))
	assert.Check(t, is.DeepEqual(mine.SavedSites, []string{"127.0.0.1"}))

	for _, c := range []struct {
		name   string
		client *servertest.Client
	}{
		{"bob naming alice's workspace", as(bobToken, "workspace=shop")},
		{"alice's default workspace", as(aliceToken, "")},
	} {
		t.Run(c.name, func(t *testing.T) {
			cur := current(t, c.client)
			assert.Check(t, is.Equal(cur.State, "closed"))
			assert.Check(t, is.Equal(cur.URL, ""))
			assert.Check(t, is.Len(cur.SavedSites, 0))
			assert.Check(t, is.Len(cur.Visited, 0))
			servertest.CallRefused(t, c.client, "outline", nil, "No browser session is open in this workspace", "open_session")
			servertest.CallRefused(t, c.client, "save_site_data", nil, "No browser session is open")
			var sites struct{ Sites []any }
			servertest.MirrorJSON(t, c.client, "session://sites", &sites)
			assert.Check(t, is.Len(sites.Sites, 0))
			miss := servertest.MirrorRead(t, c.client, "session://sites/127.0.0.1")
			assert.Check(t, miss.IsError, servertest.Text(miss))

			req := mcp.CompleteRequest{}
			req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: "session://sites/{site}"}
			req.Params.Argument = mcp.CompleteArgument{Name: "site", Value: ""}
			res, err := c.client.Client.Complete(servertest.Context(t), req)
			assert.NilError(t, err)
			assert.Check(t, is.Len(res.Completion.Values, 0))
		})
	}

	// The HTTP read API: the same workspace name, another principal.
	for _, c := range []struct {
		token, want string
	}{{aliceToken, `"127.0.0.1"`}, {bobToken, `"sites":[]`}} {
		req, err := http.NewRequest("GET", srv.Base+server.ReadPrefix+"session://sites?workspace=shop", nil)
		assert.NilError(t, err)
		req.Header.Set("Authorization", "Bearer "+c.token)
		resp, err := http.DefaultClient.Do(req)
		assert.NilError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Check(t, is.Equal(resp.StatusCode, 200))
		assert.Check(t, is.Contains(strings.ReplaceAll(string(body), " ", ""), c.want))
		if c.token == bobToken {
			assert.Check(t, !strings.Contains(string(body), "member_session"), "bob sees alice's cookie")
		}
	}

	// Naming a workspace twice, or badly, is a 400 that says what to send.
	for _, q := range []struct {
		query, header, want string
	}{
		{"?workspace=shop", "shop", "names its workspace twice"},
		{"?workspace=..", "", "not valid"},
	} {
		req, err := http.NewRequest("GET", srv.Base+server.ReadPrefix+"session://current"+q.query, nil)
		assert.NilError(t, err)
		req.Header.Set("Authorization", "Bearer "+aliceToken)
		if q.header != "" {
			req.Header.Set("X-Workspace", q.header)
		}
		resp, err := http.DefaultClient.Do(req)
		assert.NilError(t, err)
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Check(t, is.Equal(resp.StatusCode, 400))
		assert.Check(t, is.Contains(string(body), q.want))
	}
}

// TestSiteDataView: session://sites shows cookie names and storage sizes,
// never an httpOnly cookie's value; an insecure browser's data is never
// saved; restore_site_data false opens without it and says so.
func TestSiteDataView(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{Resources: surface.Off})
	c := servertest.InProcess(t, srv, servertest.Options{})
	signIn(t, c, site, "alice", nil)
	text := servertest.Text(servertest.MirrorRead(t, c, "session://sites/127.0.0.1"))
	assert.Check(t, is.Contains(text, fixtures.MembersCookie))
	assert.Check(t, is.Contains(text, "•••"))
	assert.Check(t, is.Contains(text, `"theme": 4`))
	var raw struct {
		Cookies []struct{ Name, Value string }
	}
	assert.NilError(t, json.Unmarshal([]byte(text), &raw))
	for _, ck := range raw.Cookies {
		if ck.Name == fixtures.MembersCookie {
			assert.Check(t, is.Equal(ck.Value, "•••"))
		}
	}
	servertest.CallOK(t, c, "close_session", nil)

	fresh := servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/members", "restore_site_data": false})
	assert.Check(t, is.Contains(fresh, "without the saved site data"))
	assert.Check(t, is.Contains(fresh, "Members sign-in"), "not signed in without the data")
	servertest.CallOK(t, c, "close_session", nil)

	back := servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/members"})
	assert.Check(t, is.Contains(back, "saved site data of 1 sites restored"))
	assert.Check(t, is.Contains(back, "Members area"), back)
	// A flow may save site data as a step.
	servertest.CallOK(t, c, "save_flow", map[string]any{"document": map[string]any{"name": "keep-sign-in", "description": "Keep the sign-in.",
		"steps": []any{map[string]any{"id": "keep", "tool": "save_site_data"}}}})
	ran := servertest.CallOK(t, c, "run_flow", map[string]any{"name": "keep-sign-in"})
	assert.Check(t, is.Contains(ran, "Saved the site data of 1 sites"), ran)
	servertest.CallOK(t, c, "close_session", nil)

	servertest.CallOK(t, c, "open_session", map[string]any{"insecure": true, "url": site + "/members/login"})
	servertest.CallRefused(t, c, "save_site_data", nil, "never saved from an insecure browser", "open_session without insecure")
	servertest.CallOK(t, c, "close_session", nil)
}
