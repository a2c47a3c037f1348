package tools_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// recordedChecks are twenty page checks an agent makes on the fixture
// login page, each one WebDriver command (page.js's check script) in the
// server: assert title, url, text, a visible element, a count, and
// wait_for text that is already there.
func recordedChecks() []map[string]any {
	var out []map[string]any
	for _, s := range []map[string]any{
		{"tool": "assert", "args": map[string]any{"title": "Sign in"}},
		{"tool": "assert", "args": map[string]any{"url": "/login$"}},
		{"tool": "assert", "args": map[string]any{"text": "Sign in to Acme"}},
		{"tool": "assert", "args": map[string]any{"locator": map[string]any{"label": "Email"}}},
		{"tool": "assert", "args": map[string]any{"locator": map[string]any{"label": "Password"}}},
		{"tool": "assert", "args": map[string]any{"locator": map[string]any{"label": "Verification code"}}},
		{"tool": "assert", "args": map[string]any{"locator": map[string]any{"role": "button", "name": "Sign in"}}},
		{"tool": "assert", "args": map[string]any{"locator": map[string]any{"role": "checkbox", "name": "Remember me"}}},
		{"tool": "assert", "args": map[string]any{"locator": map[string]any{"css": "input"}, "count": 4}},
		{"tool": "assert", "args": map[string]any{"text": "Email", "title": "Acme"}},
		{"tool": "wait_for", "args": map[string]any{"text": "Sign in to Acme"}},
		{"tool": "wait_for", "args": map[string]any{"locator": map[string]any{"label": "Email"}}},
		{"tool": "wait_for", "args": map[string]any{"url": "/login"}},
		{"tool": "wait_for", "args": map[string]any{"text": "Password"}},
		{"tool": "wait_for", "args": map[string]any{"locator": map[string]any{"role": "button", "name": "Sign in"}}},
		{"tool": "assert", "args": map[string]any{"text": "Remember me"}},
		{"tool": "assert", "args": map[string]any{"locator": map[string]any{"css": "form"}, "count": 1}},
		{"tool": "wait_for", "args": map[string]any{"text": "Verification code"}},
		{"tool": "assert", "args": map[string]any{"title": "^Sign in"}},
		{"tool": "assert", "args": map[string]any{"url": "^http://"}},
	} {
		out = append(out, s)
	}
	return out
}

// checkCommand is the page.js check arguments the server sends for an
// assert or wait_for step (browser.Session.Assert and WaitFor): the text
// and the locators; title and url are compared in Go from the reply.
func checkCommand(args map[string]any) []any {
	a := map[string]any{"locs": []any{}}
	if t, ok := args["text"].(string); ok {
		a["text"] = t
	}
	if loc, ok := args["locator"]; ok {
		a["locs"] = []any{loc}
	}
	return []any{"check", a}
}

// BenchmarkRecordedFlowOverhead records twenty checks made through MCP
// (start_recording, the calls), turns them into a flow with draft_flow,
// saves it, and then, in the same run, replays it with run_flow beside the
// same twenty raw WebDriver commands the steps send (page.js's check
// script through the installed runner, on the same session), alternating.
// overhead-ms/step is the median over iterations of (run_flow − raw) / 20:
// what the server adds per step — the MCP envelope of the one run_flow
// call, the flow read and bound, each step's middleware and argument
// checks, the report. Goal: under 2 ms; measured 0.17–0.23 ms on a
// 2-CPU machine (a run at −0.14: the rest is the browser's noise), with
// ~3–5 ms per step the check script itself. round-trips-saved is what a replay
// saves a model: one run_flow call where it made twenty, and one
// draft_flow call where it would have retyped twenty steps.
func BenchmarkRecordedFlowOverhead(b *testing.B) {
	servertest.NeedBrowser(b)
	base := fixtures.Serve(b)
	srv, err := server.New(server.Config{DataDir: b.TempDir()})
	assert.NilError(b, err)
	b.Cleanup(srv.Close)
	hs := httptest.NewServer(srv.HTTPHandler())
	b.Cleanup(hs.Close)
	c := servertest.ConnectHTTP(b, hs.URL+"/mcp", servertest.Options{})

	flowOK(b, c, "open_session", map[string]any{"url": base + "/login"})
	flowOK(b, c, "start_recording", nil)
	for _, s := range recordedChecks() {
		flowOK(b, c, s["tool"].(string), s["args"].(map[string]any))
	}
	res := servertest.Call(b, c, "draft_flow", map[string]any{"name": "checks"})
	assert.Assert(b, !res.IsError, servertest.Text(res))
	var d struct {
		Document flows.Flow `json:"document"`
	}
	raw, _ := json.Marshal(res.StructuredContent)
	assert.NilError(b, json.Unmarshal(raw, &d))
	steps := len(d.Document.Steps)
	assert.Equal(b, steps, 20, "the draft kept %d of 20 steps", steps)
	flowOK(b, c, "save_flow", map[string]any{"document": d.Document})

	pageJS, err := os.ReadFile("../internal/browser/page.js")
	assert.NilError(b, err)
	sum := sha256.Sum256(pageJS)
	version := hex.EncodeToString(sum[:8])
	// The stub browser.Session sends once page.js is installed.
	stub := `let f = null;
try { f = window.__seleniumFlow; if (!f || f.v !== '` + version + `' || typeof f.run !== 'function') { f = null; } } catch (e) { f = null; }
return f ? f.run(arguments) : 'missing';`
	commands := make([][]any, steps)
	for i, st := range d.Document.Steps {
		commands[i] = checkCommand(st.Args)
	}
	wd := srv.Sessions().Peek(sessions.Owner{Principal: "local", Workspace: "default"}).WebDriver()
	direct := func() {
		for i, cmd := range commands {
			out, err := wd.ExecuteScriptRaw(stub, cmd)
			if err != nil || string(out) == `{"value":"missing"}` {
				b.Fatalf("raw step %d: %v %s", i+1, err, out)
			}
		}
	}
	replay := func() {
		res := runFlow(b, c, "checks", nil, "")
		if res.IsError {
			b.Fatal(servertest.Text(res))
		}
	}
	for range 3 { // warm both paths
		replay()
		direct()
	}
	var flowTimes, rawTimes, perStep []time.Duration
	for b.Loop() {
		t0 := time.Now()
		replay()
		t1 := time.Now()
		direct()
		t2 := time.Now()
		flowTimes = append(flowTimes, t1.Sub(t0))
		rawTimes = append(rawTimes, t2.Sub(t1))
		perStep = append(perStep, (t1.Sub(t0)-t2.Sub(t1))/time.Duration(steps))
	}
	b.ReportMetric(ptMedianMS(flowTimes), "ms/run_flow")
	b.ReportMetric(ptMedianMS(rawTimes), "ms/20-raw")
	b.ReportMetric(ptMedianMS(perStep), "overhead-ms/step")
	b.ReportMetric(float64(steps-1), "round-trips-saved")
	b.ReportMetric(0, "ns/op")
}
