package tools_test

import (
	"strings"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// BenchmarkToolCommands counts the WebDriver commands each page tool
// sends for one call through an in-process MCP client (cmds/op), with the
// median call time, on the fixture site. The commands of the first timed
// call are logged (-v), so a change that adds a round trip shows which:
//
//	go test -run '^$' -bench ToolCommands -benchtime 20x -v ./tools/
func BenchmarkToolCommands(b *testing.B) {
	servertest.NeedBrowser(b)
	site := fixtures.Serve(b)
	srv, err := server.New(server.Config{DataDir: b.TempDir()})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(srv.Close)
	c := servertest.InProcess(b, srv, servertest.Options{})
	if r := servertest.Call(b, c, "open_session", map[string]any{"url": site + "/controls"}); r.IsError {
		b.Fatal(servertest.Text(r))
	}
	count := testenv.RecordWebDriver(b)
	sizes := []string{"Small", "Large"}
	for _, tc := range []struct {
		name, page string
		args       func(i int) map[string]any
	}{
		{"navigate", "", func(i int) map[string]any {
			return map[string]any{"url": site + []string{"/controls", "/login"}[i%2]}
		}},
		{"outline", "/controls", func(int) map[string]any { return nil }},
		{"click", "/controls", func(int) map[string]any {
			return map[string]any{"locator": map[string]any{"text": "Clickable card"}}
		}},
		{"click-navigates", "/admin", func(int) map[string]any {
			// A link to the page itself: every click loads a document.
			return map[string]any{"locator": map[string]any{"role": "link", "name": "Dashboard"}}
		}},
		{"write", "/login", func(int) map[string]any {
			return map[string]any{"locator": map[string]any{"label": "Email"}, "text": "ada@ex.com"}
		}},
		{"select", "/controls", func(i int) map[string]any {
			return map[string]any{"locator": map[string]any{"label": "Size"}, "option": sizes[i%2]}
		}},
		{"press_key", "/login", func(int) map[string]any { return map[string]any{"key": "Tab"} }},
		{"assert", "/login", func(int) map[string]any {
			return map[string]any{"text": "Sign in", "locator": map[string]any{"label": "Email"}}
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			if tc.page != "" {
				if r := servertest.Call(b, c, "navigate", map[string]any{"url": site + tc.page}); r.IsError {
					b.Fatal(servertest.Text(r))
				}
			}
			call := func(i int) {
				tool, _, _ := strings.Cut(tc.name, "-") // click-navigates is a click
				if r := servertest.Call(b, c, tool, tc.args(i)); r.IsError {
					b.Fatal(servertest.Text(r))
				}
			}
			call(1) // the page script is installed on a document's first call
			var times []time.Duration
			cmds, i := 0, 0
			for b.Loop() {
				count.Start()
				t0 := time.Now()
				call(i)
				times = append(times, time.Since(t0))
				sent := testenv.Commands(count.Stop())
				if i == 0 {
					b.Logf("%s: %d commands: %s", tc.name, len(sent), strings.Join(sent, ", "))
				}
				cmds += len(sent)
				i++
			}
			b.ReportMetric(ptMedianMS(times), "call-ms")
			b.ReportMetric(float64(cmds)/float64(max(i, 1)), "cmds/op")
		})
	}
}
