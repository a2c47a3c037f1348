package tools_test

import (
	"net/http/httptest"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// The outline-size benchmark (outline bytes beside HTML bytes on the
// admin, article and login pages) is BenchmarkOutlineSize in
// internal/browser; it is not repeated here.

// BenchmarkToolOverhead times an MCP assert {"title": …} call, through a
// real Streamable HTTP client and an in-process server, beside the one
// WebDriver command it makes (page.js's check script, sent raw on the same
// session) and beside a bare wd.Title(), interleaved in the same run.
// added-ms is the median MCP call less the median raw check: the server's
// overhead per tool call (goal: under 2 ms).
func BenchmarkToolOverhead(b *testing.B) {
	servertest.NeedBrowser(b)
	site := fixtures.Serve(b)
	srv, err := server.New(server.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	ts := httptest.NewServer(srv.HTTPHandler())
	b.Cleanup(ts.Close)
	c := servertest.ConnectHTTP(b, ts.URL+"/mcp", servertest.Options{})
	if r := servertest.Call(b, c, "open_session", map[string]any{"url": site + "/controls"}); r.IsError {
		b.Fatal(servertest.Text(r))
	}
	wd := srv.Sessions().Peek(sessions.Owner{Principal: "local", Workspace: "default"}).WebDriver()

	// The script and arguments Session.Assert sends for a title check.
	pageJS, err := os.ReadFile("../internal/browser/page.js")
	if err != nil {
		b.Fatal(err)
	}
	script := string(pageJS) + "\nreturn run(arguments[0], arguments[1], arguments[2]);"
	checkArgs := []any{"check", map[string]any{"locs": []any{}}}

	steps := []struct {
		name string
		do   func() error
	}{
		{"mcp", func() error {
			if r := servertest.Call(b, c, "assert", map[string]any{"title": "^Controls$"}); r.IsError {
				b.Fatal(servertest.Text(r))
			}
			return nil
		}},
		{"raw-check", func() error { _, err := wd.ExecuteScriptRaw(script, checkArgs); return err }},
		{"raw-title", func() error { _, err := wd.Title(); return err }},
	}
	times := make([][]time.Duration, len(steps))
	for range 10 { // warm up
		for _, s := range steps {
			if err := s.do(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ResetTimer()
	for b.Loop() {
		for i, s := range steps {
			start := time.Now()
			if err := s.do(); err != nil {
				b.Fatal(err)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	b.StopTimer()
	med := make([]float64, len(steps))
	for i, s := range steps {
		med[i] = ptMedianMS(times[i])
		b.ReportMetric(med[i], s.name+"-ms")
	}
	b.ReportMetric(med[0]-med[1], "added-ms")
	b.ReportMetric(med[0]-med[2], "vs-title-ms")
}

func ptMedianMS(ds []time.Duration) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}
