package tools_test

import (
	"encoding/json"
	"fmt"
	"html"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// secretValue is the password FLOW_SECRETS binds as "login" on 127.0.0.1.
// It must reach the page and nothing else.
const secretValue = `kumquat-Secret 4417 & "co"`

// secretsFile writes a FLOW_SECRETS file binding secretValue as "login" on
// 127.0.0.1 for each principal.
func secretsFile(t testing.TB, principals ...string) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("# principal name site value\n")
	for _, p := range principals {
		fmt.Fprintf(&b, "%s login 127.0.0.1 %s\n", p, secretValue)
	}
	path := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(path, []byte(b.String()), 0o600))
	return path
}

func step(tool, id string, args map[string]any) map[string]any {
	s := map[string]any{"tool": tool}
	if args != nil {
		s["args"] = args
	}
	if id != "" {
		s["id"] = id
	}
	return s
}

func label(l string) map[string]any { return map[string]any{"label": l} }

// loginFlow signs in to the fixture site: the email a parameter, the
// password the secret "login".
func loginFlow(name string) map[string]any {
	return map[string]any{
		"name":        name,
		"description": "Sign in to the fixture site.",
		"parameters": []any{
			map[string]any{"name": "base_url", "required": true, "description": "scheme://host:port of the site"},
			map[string]any{"name": "email", "required": true},
		},
		"steps": []any{
			step("navigate", "open", map[string]any{"url": "{{base_url}}/login"}),
			step("write", "email", map[string]any{"locator": label("Email"), "text": "{{email}}"}),
			step("write", "password", map[string]any{"locator": label("Password"), "secret": "login"}),
			step("click", "submit", map[string]any{"locator": map[string]any{"role": "button", "name": "Sign in"}}),
			step("wait_for", "welcome", map[string]any{"text": "Welcome {{email}}"}),
			step("assert", "title", map[string]any{"title": "^Welcome$"}),
		},
	}
}

var loginIDs = []string{"open", "email", "password", "submit", "welcome", "title"}

// notes collects the notifications/progress a client receives.
type notes struct {
	mu  sync.Mutex
	got []map[string]any
}

func listen(c *servertest.Client) *notes {
	n := &notes{}
	c.OnNotification(func(m mcp.JSONRPCNotification) {
		if m.Method != "notifications/progress" {
			return
		}
		n.mu.Lock()
		n.got = append(n.got, m.Params.AdditionalFields)
		n.mu.Unlock()
	})
	return n
}

// await returns the notifications for token once there are want of them,
// or what there is at t's deadline; want 0 returns at once.
func (n *notes) await(t testing.TB, token string, want int) []map[string]any {
	deadline := servertest.Deadline(t, time.Minute)
	for {
		n.mu.Lock()
		var out []map[string]any
		for _, p := range n.got {
			if p["progressToken"] == token {
				out = append(out, p)
			}
		}
		n.mu.Unlock()
		if len(out) >= want || time.Now().After(deadline) {
			return out
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// all is every notification received so far.
func (n *notes) all() []map[string]any {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Clone(n.got)
}

// runFlow calls run_flow asking for progress under token.
func runFlow(t testing.TB, c *servertest.Client, name string, params map[string]any, token string) *mcp.CallToolResult {
	t.Helper()
	req := mcp.CallToolRequest{}
	req.Params.Name = "run_flow"
	req.Params.Arguments = map[string]any{"name": name, "params": params}
	if token != "" {
		req.Params.Meta = &mcp.Meta{ProgressToken: token}
	}
	res, err := c.CallTool(servertest.Context(t), req)
	assert.NilError(t, err, "run_flow %s: transport error", name)
	return res
}

// reportOf reads the per-step report: the JSON after run_flow's first line,
// which is also the structured content of a successful run.
func reportOf(t testing.TB, res *mcp.CallToolResult) flows.Report {
	t.Helper()
	_, body, ok := strings.Cut(servertest.Text(res), "\n")
	assert.Assert(t, ok, "no report in %q", servertest.Text(res))
	var rep flows.Report
	assert.NilError(t, json.Unmarshal([]byte(body), &rep), body)
	if res.StructuredContent != nil {
		b, err := json.Marshal(res.StructuredContent)
		assert.NilError(t, err)
		var structured flows.Report
		assert.NilError(t, json.Unmarshal(b, &structured))
		assert.Check(t, is.DeepEqual(structured, rep))
	}
	return rep
}

func statuses(rep flows.Report) []string {
	var out []string
	for _, s := range rep.Steps {
		out = append(out, s.Status)
	}
	return out
}

// readText reads a resource natively, returning the error.
func readText(t testing.TB, c *servertest.Client, uri string) (string, error) {
	t.Helper()
	res, err := servertest.Read(t, c, uri)
	if err != nil {
		return "", err
	}
	assert.Assert(t, is.Len(res.Contents, 1))
	tc, ok := res.Contents[0].(mcp.TextResourceContents)
	assert.Assert(t, ok, "%s is not text", uri)
	return tc.Text, nil
}

func readOK(t testing.TB, c *servertest.Client, uri string) string {
	t.Helper()
	return servertest.ReadText(t, c, uri)
}

func flowList(t testing.TB, text string) []flows.Summary {
	t.Helper()
	var l struct {
		Flows []flows.Summary `json:"flows"`
	}
	assert.NilError(t, json.Unmarshal([]byte(text), &l), text)
	return l.Flows
}

func flowOK(t testing.TB, c *servertest.Client, tool string, args map[string]any) string {
	t.Helper()
	return servertest.CallOK(t, c, tool, args)
}

func flowRefused(t testing.TB, c *servertest.Client, tool string, args map[string]any) string {
	t.Helper()
	return servertest.CallRefused(t, c, tool, args)
}

// sameJSON reports whether two values marshal to the same JSON document.
func sameJSON(t testing.TB, a, b any) is.Comparison {
	t.Helper()
	norm := func(v any) any {
		var raw []byte
		if s, ok := v.(string); ok {
			raw = []byte(s)
		} else {
			var err error
			raw, err = json.Marshal(v)
			assert.NilError(t, err)
		}
		var out any
		assert.NilError(t, json.Unmarshal(raw, &out), string(raw))
		return out
	}
	return is.DeepEqual(norm(a), norm(b))
}

// TestFlowRoundTrip: save, list natively and through the mirror, read the
// stored document, run with parameters and receive one progress
// notification per step, then the per-step report; the page shows the
// parameter and the digest of the secret typed by the flow. Over
// Streamable HTTP to an in-process server, on the handshake protocol and on
// the stateless one (2026-07-28): progress reaches the client on both,
// every notification before the result (on the tools/call POST's event
// stream, which the stateless protocol keeps; see awaitDelivery in
// flows.go for the mcp-go races this needed working around). The same
// ordering over the binary's stdio and HTTP, without a browser, is
// internal/server's TestSmoke.
func TestFlowRoundTrip(t *testing.T) {
	servertest.NeedBrowser(t)
	base := fixtures.Serve(t)
	for _, proto := range servertest.Protocols {
		t.Run("http/"+servertest.Generation(proto), func(t *testing.T) {
			srv := servertest.New(t, server.Config{Resources: surface.Off, Secrets: secrets.Sources{File: secretsFile(t, auth.Local)}})
			c := servertest.OverHTTP(t, srv, servertest.Options{Protocol: proto})
			if proto == "" {
				assert.Equal(t, c.ProtocolVersion(), mcp.LATEST_PROTOCOL_VERSION, "the stateless protocol was not negotiated")
			}
			progress := listen(c)
			flowOK(t, c, "open_session", map[string]any{"url": base + "/article"})

			doc := loginFlow("login")
			saved := flowOK(t, c, "save_flow", map[string]any{"document": doc})
			assert.Check(t, is.Contains(saved, "Saved the flow login (6 steps) at flow://flows/login"))

			native := readOK(t, c, "flow://flows")
			assert.Check(t, sameJSON(t, flowOK(t, c, "read_resource", map[string]any{"uri": "flow://flows"}), native), "the mirror lists what resources/read does")
			list := flowList(t, native)
			assert.Check(t, is.DeepEqual(list, []flows.Summary{{
				Name: "login", URI: "flow://flows/login", Description: "Sign in to the fixture site.", Steps: 6, Owner: auth.Local,
				Parameters: []flows.ParamBrief{{Name: "base_url", Type: "string", Required: true}, {Name: "email", Type: "string", Required: true}},
			}}))
			assert.Check(t, sameJSON(t, readOK(t, c, "flow://flows/login"), doc), "the stored document is the one saved")
			assert.Check(t, sameJSON(t, flowOK(t, c, "read_resource", map[string]any{"uri": "flow://flows/login"}), doc))

			email := "ada@example.com"
			res := runFlow(t, c, "login", map[string]any{"base_url": base, "email": email}, "t1")
			before := len(progress.await(t, "t1", 0))
			assert.Assert(t, !res.IsError, servertest.Text(res))
			assert.Check(t, is.Equal(before, 6), "every progress notification arrives before the result")
			assert.Check(t, is.Contains(servertest.Text(res), "run_flow login: all 6 steps done"))
			rep := reportOf(t, res)
			assert.Check(t, rep.OK)
			assert.Check(t, is.Equal(rep.Flow, "login"))
			assert.Check(t, is.DeepEqual(statuses(rep), []string{"ok", "ok", "ok", "ok", "ok", "ok"}))
			for i, s := range rep.Steps {
				assert.Check(t, is.Equal(s.Step, i+1))
				assert.Check(t, is.Equal(s.ID, loginIDs[i]))
				assert.Check(t, s.Result != "", "step %d has no result", i+1)
			}
			assert.Check(t, is.Contains(rep.Steps[1].Result, fmt.Sprintf("Typed %d characters", len(email))))
			assert.Check(t, is.Contains(rep.Steps[2].Result, `Typed the secret "login"`))

			got := progress.await(t, "t1", 6)
			assert.Assert(t, is.Len(got, 6), "one progress notification per step: %v", got)
			for i, p := range got {
				assert.Check(t, is.Equal(p["progress"], float64(i+1)))
				assert.Check(t, is.Equal(p["total"], float64(6)))
				msg, _ := p["message"].(string)
				assert.Check(t, strings.HasPrefix(msg, fmt.Sprintf("step %d (%s) ok: ", i+1, loginIDs[i])), msg)
			}

			page := flowOK(t, c, "outline", nil)
			assert.Check(t, is.Contains(page, "Welcome "+email))
			assert.Check(t, is.Contains(page, "Password digest: "+fixtures.PasswordDigest(secretValue)), "the secret reached the page")

			// Without a progress token the run works the same and nothing is sent.
			res = runFlow(t, c, "login", map[string]any{"base_url": base, "email": "grace@example.com"}, "")
			assert.Assert(t, !res.IsError, servertest.Text(res))
			assert.Check(t, is.Len(progress.all(), 6), "nothing more was sent: %v", progress.all())
		})
	}
}

// TestFlowFailingStep: a step that fails stops the run with an isError
// result naming the step, its id, the error and repair_flow, the rest
// skipped; with onError: continue the run goes on and succeeds, the step
// marked.
func TestFlowFailingStep(t *testing.T) {
	servertest.NeedBrowser(t)
	base := fixtures.Serve(t)
	flow := func(name, onError string) map[string]any {
		ghost := step("click", "ghost", map[string]any{"locator": map[string]any{"text": "No Such Button Anywhere"}})
		if onError != "" {
			ghost["onError"] = onError
		}
		return map[string]any{"name": name, "steps": []any{
			step("navigate", "open", map[string]any{"url": base + "/login"}),
			ghost,
			step("assert", "still-there", map[string]any{"title": "Sign in"}),
		}}
	}
	for _, tr := range []servertest.Transport{servertest.InProc} {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, servertest.New(t, server.Config{}), tr, servertest.Options{Protocol: servertest.Legacy})
			progress := listen(c)
			flowOK(t, c, "open_session", nil)
			flowOK(t, c, "save_flow", map[string]any{"document": flow("broken", "")})
			flowOK(t, c, "save_flow", map[string]any{"document": flow("tolerant", "continue")})

			res := runFlow(t, c, "broken", nil, "b")
			assert.Assert(t, res.IsError, servertest.Text(res))
			text := servertest.Text(res)
			first, _, _ := strings.Cut(text, "\n")
			assert.Check(t, is.Contains(first, "run_flow broken stopped: step 2 (ghost) failed: "))
			assert.Check(t, is.Contains(first, "No Such Button Anywhere"), "the error names the locator")
			assert.Check(t, is.Contains(first, `repair_flow prompt with flow="broken"`))
			rep := reportOf(t, res)
			assert.Check(t, !rep.OK)
			assert.Check(t, is.DeepEqual(statuses(rep), []string{"ok", "failed", "skipped"}))
			assert.Check(t, is.Equal(rep.Steps[1].ID, "ghost"))
			assert.Check(t, rep.Steps[1].Result != "")
			assert.Check(t, is.Contains(first, rep.Steps[1].Result), "the sentence carries the step's error")
			assert.Check(t, is.Equal(rep.Steps[2].ID, "still-there"))
			assert.Check(t, is.Equal(rep.Failed, "step 2 (ghost) failed: "+rep.Steps[1].Result))
			got := progress.await(t, "b", 2)
			assert.Assert(t, is.Len(got, 2), "progress for the steps that ran: %v", got)
			assert.Check(t, is.Equal(got[1]["total"], float64(3)))
			assert.Check(t, strings.HasPrefix(got[1]["message"].(string), "step 2 (ghost) failed: "))

			res = runFlow(t, c, "tolerant", nil, "c")
			assert.Assert(t, !res.IsError, servertest.Text(res))
			rep = reportOf(t, res)
			assert.Check(t, rep.OK)
			assert.Check(t, is.Equal(rep.Continued, 1))
			assert.Check(t, is.DeepEqual(statuses(rep), []string{"ok", "failed-continued", "ok"}))
			assert.Check(t, is.Contains(rep.Steps[1].Result, "No Such Button Anywhere"))
			first, _, _ = strings.Cut(servertest.Text(res), "\n")
			assert.Check(t, is.Contains(first, "step 2 (ghost) failed and the run continued"), first)
			assert.Check(t, is.Len(progress.await(t, "c", 3), 3))
		})
	}
}

// TestSaveFlowRefusals: documents that do not fit flow://schema are refused
// over the wire with the JSON path of the problem, and nothing is saved:
// not a new flow, not over an existing one.
func TestSaveFlowRefusals(t *testing.T) {
	good := map[string]any{"name": "login", "steps": []any{step("outline", "", nil)}}
	cases := []struct {
		name string
		doc  map[string]any
		want []string
	}{
		{"bad tool name", map[string]any{"name": "login", "steps": []any{map[string]any{"tool": "tap"}}},
			[]string{"at /steps/0/tool: ", "'navigate'"}},
		{"page tool outside flows", map[string]any{"name": "login", "steps": []any{map[string]any{"tool": "open_session"}}},
			[]string{"at /steps/0/tool: "}},
		{"missing steps", map[string]any{"name": "login"},
			[]string{"at /: ", "steps"}},
		{"empty steps", map[string]any{"name": "login", "steps": []any{}},
			[]string{"at /steps: "}},
		{"undeclared parameter", map[string]any{"name": "login", "steps": []any{step("navigate", "", map[string]any{"url": "{{base_url}}/login"})}},
			[]string{"at /steps/0/args: {{base_url}} is not a declared parameter (declared: none)"}},
		{"extra property", map[string]any{"name": "login", "steps": []any{step("outline", "", nil)}, "colour": "red"},
			[]string{"at /: ", "colour"}},
		{"extra step property", map[string]any{"name": "login", "steps": []any{map[string]any{"tool": "outline", "wait": 3}}},
			[]string{"at /steps/0: ", "wait"}},
		{"bad name", map[string]any{"name": "Log In", "steps": []any{step("outline", "", nil)}},
			[]string{"at /name: "}},
	}
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, servertest.New(t, server.Config{}), tr, servertest.Options{Protocol: servertest.Legacy})
			flowOK(t, c, "save_flow", map[string]any{"document": good})
			list, stored := readOK(t, c, "flow://flows"), readOK(t, c, "flow://flows/login")
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					text := flowRefused(t, c, "save_flow", map[string]any{"document": tc.doc})
					for _, w := range tc.want {
						assert.Check(t, is.Contains(text, w))
					}
					assert.Check(t, is.Contains(text, "flow://schema"))
					assert.Check(t, is.Equal(readOK(t, c, "flow://flows"), list), "nothing was saved")
					assert.Check(t, is.Equal(readOK(t, c, "flow://flows/login"), stored), "the flow of that name is untouched")
				})
			}
			_, err := readText(t, c, "flow://flows/log-in")
			assert.Check(t, err != nil, "a refused name is not stored")
		})
	}
}

// TestFlowIsolation: over HTTP with two tokens, bob neither sees, reads,
// runs, completes nor deletes alice's private flow; alice's shared flow is
// listed for bob with its owner, readable and runnable by him, and his
// delete_flow is refused naming her.
func TestFlowIsolation(t *testing.T) {
	servertest.NeedBrowser(t)
	base := fixtures.Serve(t)
	const aliceToken, bobToken = "alice-token-0123456789abcdef", "bob-token-0123456789abcdef"
	tokens := filepath.Join(t.TempDir(), "tokens")
	assert.NilError(t, os.WriteFile(tokens, []byte(aliceToken+" alice\n"+bobToken+" bob\n"), 0o600))
	toks, err := auth.LoadTokens(tokens)
	assert.NilError(t, err)
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{Tokens: toks, Secrets: secrets.Sources{File: secretsFile(t, "alice", "bob")}}))
	as := func(token string) *servertest.Client {
		return servertest.ConnectHTTP(t, srv.URL, servertest.Options{Protocol: servertest.Legacy, Headers: map[string]string{"Authorization": "Bearer " + token}})
	}
	alice, bob := as(aliceToken), as(bobToken)

	private := map[string]any{"name": "alice-flow", "steps": []any{
		step("navigate", "", map[string]any{"url": base + "/admin"}),
		step("assert", "", map[string]any{"text": "user7@example.com"}),
	}}
	shared := loginFlow("team-login")
	shared["shared"] = true
	flowOK(t, alice, "save_flow", map[string]any{"document": private})
	flowOK(t, alice, "save_flow", map[string]any{"document": shared})

	names := func(c *servertest.Client) map[string]string {
		owners := map[string]string{}
		for _, f := range flowList(t, readOK(t, c, "flow://flows")) {
			owners[f.Name] = f.Owner
		}
		return owners
	}
	assert.Check(t, is.DeepEqual(names(alice), map[string]string{"alice-flow": "alice", "team-login": "alice"}))
	assert.Check(t, is.DeepEqual(names(bob), map[string]string{"team-login": "alice"}))
	for _, f := range flowList(t, readOK(t, bob, "flow://flows")) {
		assert.Check(t, f.Shared, "%s is listed for bob but not shared", f.Name)
	}

	_, err = readText(t, bob, "flow://flows/alice-flow")
	assert.Check(t, err != nil, "bob read alice's private flow")
	assert.Check(t, err != nil && !strings.Contains(err.Error(), base), "the refusal shows nothing of the flow: %v", err)
	flowOK(t, bob, "open_session", nil)
	res := runFlow(t, bob, "alice-flow", nil, "")
	assert.Check(t, res.IsError, "bob ran alice's private flow: %s", servertest.Text(res))
	assert.Check(t, is.Contains(servertest.Text(res), `no flow named "alice-flow"`))
	text := flowRefused(t, bob, "delete_flow", map[string]any{"name": "alice-flow"})
	assert.Check(t, is.Contains(text, `no flow named "alice-flow"`))
	assert.Check(t, is.Contains(names(alice), "alice-flow"), "bob deleted alice's flow")
	assert.Check(t, is.DeepEqual(complete(t, bob, ""), []string{"team-login"}))
	assert.Check(t, is.DeepEqual(complete(t, alice, ""), []string{"alice-flow", "team-login"}))
	_, err = bob.GetPrompt(servertest.Context(t), promptRequest("repair_flow", map[string]string{"flow": "alice-flow"}))
	assert.Check(t, err != nil, "bob got a repair prompt for alice's private flow")

	assert.Check(t, sameJSON(t, readOK(t, bob, "flow://flows/team-login"), shared))
	// alice's flow names the secret "login" itself: run by bob it would
	// type bob's "login" wherever alice's steps lead, so it is refused
	// before its first step.
	res = runFlow(t, bob, "team-login", map[string]any{"base_url": base, "email": "bob@example.com"}, "")
	assert.Assert(t, res.IsError, "bob's secret was typed by alice's flow: %s", servertest.Text(res))
	assert.Check(t, is.Contains(servertest.Text(res), "is alice's, and step 3 (password) would type one of your secrets without your passing it"))
	assert.Check(t, is.Contains(servertest.Text(res), `"type": "secret"`))
	assert.Check(t, !strings.Contains(flowOK(t, bob, "outline", nil), "Sign in"), "no step ran")

	// Declared as a secret parameter, bob passes his own secret for the
	// run, and it is typed on its own sites as ever.
	shared["parameters"] = append(shared["parameters"].([]any), map[string]any{"name": "password", "type": "secret", "required": true})
	shared["steps"].([]any)[2].(map[string]any)["args"].(map[string]any)["secret"] = "{{password}}"
	flowOK(t, alice, "save_flow", map[string]any{"document": shared})
	res = runFlow(t, bob, "team-login", map[string]any{"base_url": base, "email": "bob@example.com", "password": "no such/secret!"}, "")
	assert.Check(t, is.Contains(servertest.Text(res), `"password" must name one of your secrets`))
	res = runFlow(t, bob, "team-login", map[string]any{"base_url": base, "email": "bob@example.com", "password": "login"}, "")
	assert.Assert(t, !res.IsError, servertest.Text(res))
	assert.Check(t, is.Contains(flowOK(t, bob, "outline", nil), "Welcome bob@example.com"), "bob's run is in bob's browser")
	text = flowRefused(t, bob, "delete_flow", map[string]any{"name": "team-login"})
	assert.Check(t, is.Contains(text, "shared by alice"))
	assert.Check(t, is.Contains(names(alice), "team-login"))
	assert.Check(t, is.Contains(names(bob), "team-login"))

	// alice's browser was never touched by bob's run.
	assert.Check(t, !strings.Contains(flowOK(t, alice, "open_session", nil), "Welcome"))
	flowOK(t, alice, "delete_flow", map[string]any{"name": "team-login"})
	assert.Check(t, is.DeepEqual(names(bob), map[string]string{}))
}

func promptRequest(name string, args map[string]string) mcp.GetPromptRequest {
	req := mcp.GetPromptRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	return req
}

func promptText(t testing.TB, c *servertest.Client, name string, args map[string]string) string {
	t.Helper()
	res, err := c.GetPrompt(servertest.Context(t), promptRequest(name, args))
	assert.NilError(t, err, "prompts/get %s", name)
	var parts []string
	for _, m := range res.Messages {
		if tc, ok := m.Content.(mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return res.Description + "\n" + strings.Join(parts, "\n")
}

// complete completes repair_flow's flow argument.
func complete(t testing.TB, c *servertest.Client, prefix string) []string {
	t.Helper()
	req := mcp.CompleteRequest{}
	req.Params.Ref = mcp.PromptReference{Type: "ref/prompt", Name: "repair_flow"}
	req.Params.Argument = mcp.CompleteArgument{Name: "flow", Value: prefix}
	res, err := c.Complete(servertest.Context(t), req)
	assert.NilError(t, err)
	return res.Completion.Values
}

// leakySite is the fixture site plus a sign-in form that submits with GET,
// so the password lands in the URL the browser goes to, form-encoded.
func leakySite(t testing.TB) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("/", fixtures.Handler())
	mux.HandleFunc("GET /get-login", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `<!DOCTYPE html><html><head><title>Old sign in</title></head><body><main>
<form method="get" action="/landing"><label for="pw">Password</label><input id="pw" name="password" type="password">
<button type="submit">Go</button></form></main></body></html>`)
	})
	mux.HandleFunc("GET /landing", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `<!DOCTYPE html><html><head><title>Landed</title></head><body><main><p>Signed in. Password digest: %s</p></main></body></html>`,
			fixtures.PasswordDigest(r.URL.Query().Get("password")))
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL
}

// secretForms are the ways a value can appear in text: as it is, and
// encoded for a query, a path, HTML and JSON.
func secretForms(v string) []string {
	j, _ := json.Marshal(v)
	forms := []string{v, url.QueryEscape(v), url.PathEscape(v), html.EscapeString(v), strings.Trim(string(j), `"`)}
	slices.Sort(forms)
	return slices.Compact(forms)
}

// TestFlowSecretsNeverShown: a flow types the FLOW_SECRETS value into the
// password field (the page's digest of what arrived proves it), and the
// value appears in no tool result, outline, stored document, report,
// progress message, prompt or server log (the process log while the
// in-process server runs); a document holding the value itself is refused.
func TestFlowSecretsNeverShown(t *testing.T) {
	servertest.NeedBrowser(t)
	base := leakySite(t)
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			srv := servertest.New(t, server.Config{Secrets: secrets.Sources{File: secretsFile(t, auth.Local)}})
			c := servertest.Local(t, srv, tr, servertest.Options{Protocol: servertest.Legacy})
			progress := listen(c)
			var seen []string
			keep := func(what, text string) {
				assert.Check(t, text != "", "%s is empty", what)
				seen = append(seen, what+":\n"+text)
			}
			keep("open_session", flowOK(t, c, "open_session", map[string]any{"url": base + "/login"}))
			keep("save login", flowOK(t, c, "save_flow", map[string]any{"document": loginFlow("login")}))
			stuck := loginFlow("login-stuck")
			steps := stuck["steps"].([]any)
			stuck["steps"] = append(slices.Clone(steps[:3]), step("click", "ghost", map[string]any{"locator": label("Password confirmation")}))
			keep("save stuck", flowOK(t, c, "save_flow", map[string]any{"document": stuck}))

			res := runFlow(t, c, "login", map[string]any{"base_url": base, "email": "ada@example.com"}, "p")
			assert.Assert(t, !res.IsError, servertest.Text(res))
			keep("run login", servertest.Text(res))
			b, _ := json.Marshal(res.StructuredContent)
			keep("run login structured", string(b))
			page := flowOK(t, c, "outline", nil)
			assert.Check(t, is.Contains(page, "Password digest: "+fixtures.PasswordDigest(secretValue)), "the secret reached the page")
			keep("outline after", page)

			res = runFlow(t, c, "login-stuck", map[string]any{"base_url": base, "email": "ada@example.com"}, "p2")
			assert.Assert(t, res.IsError, servertest.Text(res))
			keep("run stuck", servertest.Text(res))
			keep("outline of the filled form", flowOK(t, c, "outline", nil))
			keep("screenshot", flowOK(t, c, "screenshot", nil))
			keep("print html", flowOK(t, c, "print", map[string]any{"format": "html", "filename": "form.html"}))
			keep("kept html", readOK(t, c, "session://files/form.html"))

			// A form that sends the password in its URL: every result that
			// names the page's URL would carry it, form-encoded. The page
			// then shows the secret, so the url check of step 4 is refused
			// (no oracle, tools/oracle.go) and the run stops there.
			getForm := map[string]any{"name": "get-login", "steps": []any{
				step("navigate", "open", map[string]any{"url": base + "/get-login"}),
				step("write", "password", map[string]any{"locator": label("Password"), "secret": "login"}),
				step("click", "go", map[string]any{"locator": map[string]any{"role": "button", "name": "Go"}}),
				step("wait_for", "landed", map[string]any{"url": "/landing"}),
				step("assert", "url", map[string]any{"url": "/landing[?]password=[a-z]+-$"}),
			}}
			keep("save get-login", flowOK(t, c, "save_flow", map[string]any{"document": getForm}))
			res = runFlow(t, c, "get-login", nil, "p3")
			assert.Assert(t, res.IsError, "the url check is refused on a page whose URL holds the secret: %s", servertest.Text(res))
			assert.Check(t, is.Contains(servertest.Text(res), "shows a secret you typed"))
			keep("run get-login", servertest.Text(res))
			page = flowOK(t, c, "outline", nil)
			assert.Check(t, is.Contains(page, "Password digest: "+fixtures.PasswordDigest(secretValue)), "the secret went through the URL")
			keep("outline of the landing", page)
			keep("navigate back", flowOK(t, c, "navigate", map[string]any{"back": true}))
			keep("navigate forward", flowOK(t, c, "navigate", map[string]any{"forward": true}))
			keep("refused assert", flowRefused(t, c, "assert", map[string]any{"url": "^nothing$", "title": "^nothing$"}))
			keep("refused wait_for", flowRefused(t, c, "wait_for", map[string]any{"url": "/nowhere", "timeout": 0.5}))
			keep("progress of get-login", fmt.Sprint(progress.await(t, "p3", 4)))

			for _, uri := range []string{"flow://flows", "flow://flows/login", "flow://flows/login-stuck", "secret://secrets", "session://current"} {
				keep(uri, readOK(t, c, uri))
			}
			repair := promptText(t, c, "repair_flow", map[string]string{"flow": "login-stuck"})
			assert.Check(t, is.Contains(repair, "Its last run stopped: step 4 (ghost) failed"))
			keep("repair_flow", repair)
			keep("build_flow", promptText(t, c, "build_flow", map[string]string{"goal": "sign in"}))
			for _, p := range append(progress.await(t, "p", 6), progress.await(t, "p2", 4)...) {
				keep("progress", fmt.Sprint(p["message"]))
			}

			leaky := loginFlow("leaky")
			leaky["steps"].([]any)[2] = step("write", "password", map[string]any{"locator": label("Password"), "text": secretValue})
			text := flowRefused(t, c, "save_flow", map[string]any{"document": leaky})
			assert.Check(t, is.Contains(text, "contains the value of one of your secrets"))
			keep("leaky refusal", text)
			asParam := loginFlow("leaky-default")
			asParam["parameters"] = append(asParam["parameters"].([]any), map[string]any{"name": "pw", "default": "x " + secretValue + " y"})
			keep("leaky default refusal", flowRefused(t, c, "save_flow", map[string]any{"document": asParam}))
			_, err := readText(t, c, "flow://flows/leaky")
			assert.Check(t, err != nil, "the leaky flow was saved")

			keep("stderr", c.Stderr()+"(end)")
			for _, s := range seen {
				what, _, _ := strings.Cut(s, ":\n")
				for _, form := range secretForms(secretValue) {
					assert.Check(t, !strings.Contains(s, form), "the secret's value (as %q) is in %s:\n%s", form, what, s)
				}
			}
		})
	}
}

// TestFlowPrompts: prompts/list offers build_flow and repair_flow;
// repair_flow's flow argument completes from the caller's flows; after a
// failed run repair_flow carries the failure sentence; build_flow names
// flow://schema and save_flow.
func TestFlowPrompts(t *testing.T) {
	servertest.NeedBrowser(t)
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{Protocol: servertest.Legacy})
	list, err := c.ListPrompts(servertest.Context(t), mcp.ListPromptsRequest{})
	assert.NilError(t, err)
	prompts := map[string]mcp.Prompt{}
	for _, p := range list.Prompts {
		prompts[p.Name] = p
	}
	for name, arg := range map[string]string{"build_flow": "goal", "repair_flow": "flow"} {
		p, found := prompts[name]
		assert.Assert(t, found, "prompts/list has no %s", name)
		assert.Check(t, is.Len(p.Arguments, 1))
		assert.Check(t, is.Equal(p.Arguments[0].Name, arg))
		assert.Check(t, p.Arguments[0].Required)
	}

	for _, name := range []string{"logout", "login", "report"} {
		flowOK(t, c, "save_flow", map[string]any{"document": map[string]any{"name": name, "steps": []any{
			step("assert", "check", map[string]any{"text": "Nothing like this is on the page"}),
		}}})
	}
	assert.Check(t, is.DeepEqual(complete(t, c, "lo"), []string{"login", "logout"}))
	assert.Check(t, is.DeepEqual(complete(t, c, ""), []string{"login", "logout", "report"}))
	assert.Check(t, is.DeepEqual(complete(t, c, "x"), []string{}))

	before := promptText(t, c, "repair_flow", map[string]string{"flow": "report"})
	assert.Check(t, is.Contains(before, "no failed run recorded"))
	flowOK(t, c, "open_session", nil)
	res := runFlow(t, c, "report", nil, "")
	assert.Assert(t, res.IsError)
	rep := reportOf(t, res)
	repair := promptText(t, c, "repair_flow", map[string]string{"flow": "report"})
	assert.Check(t, is.Contains(repair, "Its last run stopped: "+rep.Failed))
	assert.Check(t, is.Contains(repair, "flow://flows/report"))
	assert.Check(t, is.Contains(repair, `"Nothing like this is on the page"`), "the document is in the prompt")
	assert.Check(t, is.Contains(repair, "save_flow"))
	assert.Check(t, is.Contains(repair, "When step 1 failed the browser was at "), "the page the step left is in the prompt")
	assert.Check(t, is.Contains(repair, "parameter of the wrong type"))
	_, err = c.GetPrompt(servertest.Context(t), promptRequest("repair_flow", map[string]string{"flow": "nope"}))
	assert.Check(t, err != nil)

	build := promptText(t, c, "build_flow", map[string]string{"goal": "download this month's invoice"})
	for _, want := range []string{"download this month's invoice", "flow://schema", "save_flow", "run_flow", "secret"} {
		assert.Check(t, is.Contains(build, want))
	}
	_, err = c.GetPrompt(servertest.Context(t), promptRequest("build_flow", map[string]string{}))
	assert.Check(t, err != nil, "build_flow without a goal")

	record := promptText(t, c, "record_flow", map[string]string{"goal": "add a customer", "name": "add-customer"})
	for _, want := range []string{"add a customer", "start_recording", "stop_recording", `draft_flow with name="add-customer"`, "save_flow", "run_flow", "secret", "return"} {
		assert.Check(t, is.Contains(record, want))
	}
	_, err = c.GetPrompt(servertest.Context(t), promptRequest("record_flow", map[string]string{}))
	assert.Check(t, err != nil, "record_flow without a goal")
}
