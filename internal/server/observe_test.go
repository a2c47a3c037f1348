package server_test

import (
	"bufio"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/internal/telemetry"
)

// The names and values of the scripted session, none of which may reach a
// metric label or a log line.
const (
	obsAlice       = "alice-observed"
	obsBob         = "bob-observed"
	obsAliceToken  = "obs-alice-token-0123456789abcdef"
	obsBobToken    = "obs-bob-token-0123456789abcdef00"
	obsSecretValue = "Obs3rved-Secr3t!"
	obsTyped       = "typed-by-alice@example.test"
	obsFlow        = "alice-private-flow"
)

// TestObservability drives a scripted session over Streamable HTTP with
// real Chromium — two principals, a secret typed, a typed value, a
// refusal, a flow run, a kept file fetched, an unauthorised request — then
// scrapes /metrics and reads the log: the counters are there, and neither
// holds a principal name, token, URL, secret, typed value, flow or file
// name. The span tree of one click is checked on an in-memory exporter.
func TestObservability(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	tokens, err := auth.NewTokens(nil)
	assert.NilError(t, err)
	assert.NilError(t, tokens.Add(obsAliceToken, obsAlice))
	assert.NilError(t, tokens.Add(obsBobToken, obsBob))
	secretFile := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(secretFile, []byte(obsAlice+" pw 127.0.0.1 "+obsSecretValue+"\n"), 0o600))
	spans := tracetest.NewInMemoryExporter()
	tp, shutdown, err := telemetry.Provider(sdktrace.NewSimpleSpanProcessor(spans))
	assert.NilError(t, err)
	t.Cleanup(shutdown)
	logs := &testenv.Buffer{}
	srv := servertest.New(t, server.Config{
		Resources: surface.Off, Tokens: tokens, Secrets: secrets.Sources{File: secretFile},
		TracerProvider: tp, Logger: slog.New(slog.NewTextHandler(logs, nil)),
	})
	hs := servertest.ServeHTTP(t, srv)
	bearer := func(token string) map[string]string { return map[string]string{"Authorization": "Bearer " + token} }
	alice := servertest.ConnectHTTP(t, hs.URL, servertest.Options{Headers: bearer(obsAliceToken)})
	bob := servertest.ConnectHTTP(t, hs.URL, servertest.Options{Headers: bearer(obsBobToken)})

	servertest.CallOK(t, alice, "open_session", map[string]any{"url": site + "/login"})
	servertest.CallOK(t, alice, "write", map[string]any{"locator": map[string]any{"label": "Email"}, "text": obsTyped})
	servertest.CallOK(t, alice, "write", map[string]any{"locator": map[string]any{"label": "Password"}, "secret": "pw"})
	spans.Reset() // the click's tree is checked below
	servertest.CallOK(t, alice, "click", map[string]any{"locator": map[string]any{"text": "Sign in"}})
	clickSpans := spans.GetSpans().Snapshots()
	servertest.ReadText(t, alice, "session://current")
	assert.Check(t, slices.ContainsFunc(spans.GetSpans().Snapshots(), func(s sdktrace.ReadOnlySpan) bool { return s.Name() == "resources/read" }),
		"no span for resources/read")
	servertest.CallRefused(t, alice, "navigate", map[string]any{"url": "example.com/" + obsFlow}, "absolute")
	servertest.CallOK(t, alice, "save_flow", map[string]any{"document": map[string]any{
		"name": obsFlow, "description": "Open the article.",
		"steps": []any{map[string]any{"tool": "navigate", "args": map[string]any{"url": site + "/article"}}, map[string]any{"tool": "outline", "args": map[string]any{}}},
	}})
	servertest.CallOK(t, alice, "run_flow", map[string]any{"name": obsFlow})
	shot := servertest.CallOK(t, alice, "screenshot", nil)
	servertest.CallRefused(t, bob, "outline", nil, "open_session")

	name := regexp.MustCompile(`[\w.-]+\.png`).FindString(shot)
	assert.Assert(t, name != "", "no kept file named in %q", shot)
	status, _, _ := servertest.Get(t, hs.Base+"/files/"+name, http.Header{"Authorization": {"Bearer " + obsAliceToken}})
	assert.Equal(t, status, http.StatusOK)
	status, _, _ = servertest.Get(t, hs.Base+"/files/"+name, nil)
	assert.Equal(t, status, http.StatusUnauthorized)
	status, _, _ = servertest.Get(t, hs.Base+server.MetricsPath, nil)
	assert.Equal(t, status, http.StatusUnauthorized, "/metrics answers without a token though FLOW_METRICS_PUBLIC is off")
	// A made-up method and a path nothing serves are no labels.
	req, err := http.NewRequest(strings.ToUpper(obsBob), hs.Base+"/"+obsFlow, nil)
	assert.NilError(t, err)
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
	}
	status, _, body := servertest.Get(t, hs.Base+server.MetricsPath, http.Header{"Authorization": {"Bearer " + obsBobToken}})
	assert.Equal(t, status, http.StatusOK)
	scrape := string(body)

	for _, want := range []struct {
		series string
		min    float64
	}{
		{`selenium_flow_tool_calls_total{outcome="ok",tool="open_session"}`, 1},
		{`selenium_flow_tool_calls_total{outcome="ok",tool="write"}`, 2},
		{`selenium_flow_tool_calls_total{outcome="ok",tool="click"}`, 1},
		{`selenium_flow_tool_calls_total{outcome="refused",tool="navigate"}`, 1},
		{`selenium_flow_tool_calls_total{outcome="refused",tool="outline"}`, 1},
		{`selenium_flow_tool_calls_total{outcome="ok",tool="outline"}`, 1}, // the flow's step
		{`selenium_flow_tool_call_duration_seconds_count{tool="click"}`, 1},
		{`selenium_flow_flow_runs_total{outcome="ok"}`, 1},
		{`selenium_flow_flow_steps_total{outcome="ok",tool="navigate"}`, 1},
		{`selenium_flow_flow_steps_total{outcome="ok",tool="outline"}`, 1},
		{`selenium_flow_open_browsers{endpoint="local"}`, 1},
		{`selenium_flow_mcp_requests_total{method="server/discover",outcome="ok"}`, 2}, // each client's, on 2026-07-28
		{`selenium_flow_http_requests_total{method="POST",route="/mcp",status="200"}`, 10},
		{`selenium_flow_http_requests_total{method="GET",route="GET /files/{name}",status="200"}`, 1},
		{`selenium_flow_http_requests_total{method="GET",route="GET /files/{name}",status="401"}`, 1},
		{`selenium_flow_http_requests_total{method="GET",route="GET /metrics",status="401"}`, 1},
		{`selenium_flow_webdriver_commands_total{command="POST /session",endpoint="local"}`, 1},
		{`selenium_flow_http_requests_total{method="other",route="unmatched",status="401"}`, 1},
		{`selenium_flow_webdriver_commands_total{command="POST /session/{id}/element/{id}/click",endpoint="local"}`, 1},
		{`selenium_flow_store_operations_total{op="put",outcome="ok",store="workspaces"}`, 1},
		{`selenium_flow_store_operations_total{op="get",outcome="ok",store="workspaces"}`, 1},
	} {
		got, ok := sample(scrape, want.series)
		assert.Check(t, ok && got >= want.min, "%s = %v (present %v), want at least %v", want.series, got, ok, want.min)
	}

	forbidden := []string{obsAlice, obsBob, strings.ToUpper(obsBob), obsAliceToken, obsBobToken, obsSecretValue, obsTyped, obsFlow, name, site, strings.TrimPrefix(site, "http://"), hs.Base, "/article", "/login"}
	for _, leak := range forbidden {
		assert.Check(t, !strings.Contains(scrape, leak), "the scrape holds %q", leak)
		assert.Check(t, !strings.Contains(logs.String(), leak), "the log holds %q", leak)
	}

	// One line per tool call and per HTTP request, with the route template
	// and the principal's id, not its name.
	log := logs.String()
	assert.Check(t, is.Contains(log, `msg="tool call" method=tools/call tool=click`))
	assert.Check(t, is.Contains(log, `outcome=ok principal=`+principalID(obsAlice)))
	assert.Check(t, is.Contains(log, `msg="tool call" method="flow step" tool=outline`))
	assert.Check(t, is.Contains(log, `msg="http request" method=GET route="GET /files/{name}" status=200`))
	assert.Check(t, is.Contains(log, `method=POST route=/mcp status=200`))
	assert.Check(t, is.Contains(log, `msg="mcp request" method=server/discover`))

	// The click's tree: the tool call's span, with each WebDriver command
	// it sent as a child.
	var click sdktrace.ReadOnlySpan
	children := 0
	for _, s := range clickSpans {
		if s.Name() == "tools/call click" {
			click = s
		}
	}
	assert.Assert(t, click != nil, "no span for the click among %d", len(clickSpans))
	for _, s := range clickSpans {
		if strings.HasPrefix(s.Name(), "webdriver ") {
			assert.Check(t, s.Parent().SpanID() == click.SpanContext().SpanID(), "%s is not a child of the click", s.Name())
			children++
		}
		for _, leak := range forbidden {
			for _, a := range s.Attributes() {
				assert.Check(t, !strings.Contains(a.Value.Emit(), leak), "span %s attribute %s holds %q", s.Name(), a.Key, leak)
			}
		}
	}
	assert.Check(t, children >= 2, "the click has %d WebDriver commands as children", children)
	assert.Check(t, click.Parent().IsValid(), "the click's span has no parent: the MCP request's span is missing")
}

// TestMetricsPublic: with FLOW_METRICS_PUBLIC=1 a scraper needs no token
// for /metrics, and only for /metrics.
func TestMetricsPublic(t *testing.T) {
	tokens, err := auth.NewTokens(nil)
	assert.NilError(t, err)
	assert.NilError(t, tokens.Add(obsAliceToken, obsAlice))
	hs := servertest.ServeHTTP(t, servertest.New(t, server.Config{Tokens: tokens, MetricsPublic: true, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	status, _, body := servertest.Get(t, hs.Base+server.MetricsPath, nil)
	assert.Equal(t, status, http.StatusOK)
	assert.Check(t, is.Contains(string(body), "selenium_flow_open_browsers"))
	status, _, _ = servertest.Get(t, hs.Base+server.OpenAPIPath, nil)
	assert.Equal(t, status, http.StatusUnauthorized)
}

// sample is the value of one series in a Prometheus text scrape.
func sample(scrape, series string) (float64, bool) {
	sc := bufio.NewScanner(strings.NewReader(scrape))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), series+" "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			return f, err == nil
		}
	}
	return 0, false
}

// principalID is the id the log gives a principal (see observe.go).
func principalID(name string) string { return server.PrincipalID(name) }

// TestObservabilityGrid: on a Selenium Grid the open browsers and the
// WebDriver commands are counted under endpoint="grid", and the Grid's
// address is in no series. It runs where SELENIUM_URL names a Grid (.ci/run
// starts one).
func TestObservabilityGrid(t *testing.T) {
	gridURL := os.Getenv("SELENIUM_URL")
	if gridURL == "" {
		t.Skip("SELENIUM_URL is not set")
	}
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{Resources: surface.Off, SeleniumURL: gridURL, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	c := servertest.InProcess(t, srv, servertest.Options{})
	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login"})
	servertest.CallOK(t, c, "outline", nil)
	hs := servertest.ServeHTTP(t, srv)
	status, _, body := servertest.Get(t, hs.Base+server.MetricsPath, nil)
	assert.Equal(t, status, http.StatusOK)
	scrape := string(body)
	for _, series := range []string{
		`selenium_flow_open_browsers{endpoint="grid"}`,
		`selenium_flow_webdriver_commands_total{command="POST /session",endpoint="grid"}`,
		`selenium_flow_tool_calls_total{outcome="ok",tool="outline"}`,
	} {
		got, ok := sample(scrape, series)
		assert.Check(t, ok && got >= 1, "%s = %v (present %v)", series, got, ok)
	}
	servertest.CallOK(t, c, "close_session", nil)
	_, _, body = servertest.Get(t, hs.Base+server.MetricsPath, nil)
	got, _ := sample(string(body), `selenium_flow_open_browsers{endpoint="grid"}`)
	assert.Check(t, is.Equal(got, 0.0), "the gauge still counts a closed browser")
	for _, leak := range []string{gridURL, strings.TrimPrefix(gridURL, "http://"), site} {
		assert.Check(t, !strings.Contains(scrape, leak), "the scrape holds %q", leak)
	}
}

// TestPanicCountsAsError: a tool that panics is an error outcome (not a
// refusal) in /metrics, and its stack goes to the log, not to the caller.
func TestPanicCountsAsError(t *testing.T) {
	srv := panicking(t)
	c := servertest.InProcess(t, srv, servertest.Options{})
	assert.Check(t, servertest.Call(t, c, "explode", nil).IsError)
	servertest.CallRefused(t, c, "navigate", map[string]any{"url": "https://example.com"}, "open_session")
	_, _, body := servertest.Get(t, servertest.ServeHTTP(t, srv).Base+server.MetricsPath, nil)
	for series, want := range map[string]float64{
		`selenium_flow_tool_calls_total{outcome="error",tool="explode"}`:    1,
		`selenium_flow_tool_calls_total{outcome="refused",tool="navigate"}`: 1,
	} {
		got, ok := sample(string(body), series)
		assert.Check(t, ok && got == want, "%s = %v (present %v), want %v", series, got, ok, want)
	}
	log := c.Stderr()
	assert.Check(t, is.Regexp(`ERROR.*tool panicked.* tool=explode stack="goroutine `, log))
	assert.Check(t, is.Contains(log, "tool=explode duration="))
}
