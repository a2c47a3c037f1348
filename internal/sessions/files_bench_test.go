package sessions_test

import (
	"slices"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// BenchmarkListFiles times ListFiles, what a read of session://files
// runs, for a caller with a few kept files: with no browser open, and with
// one open on a page and nothing downloading, where issue 11 measured about
// 2 s a listing and wants under 10 ms. It reports the median as ms/list;
// a slow listing is sampled at least five times, however long that takes
// beyond the benchmark time:
//
//	go test -run '^$' -bench ListFiles ./internal/sessions/
func BenchmarkListFiles(b *testing.B) {
	testenv.NeedBrowser(b)
	site := fixtures.Serve(b)
	store, err := files.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	m := sessions.New(store, sessions.WithDriverOptions(browser.WithBrowserArgs(testenv.ClosedNetwork)))
	b.Cleanup(m.Shutdown)
	const who = "local"
	box, err := m.Files(who)
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range []string{"a.png", "b.png"} {
		if _, err := box.Keep(files.Screenshots, name, []byte("\x89PNG\r\n\x1a\n")); err != nil {
			b.Fatal(err)
		}
	}
	ctx := testenv.Context(b)
	list := func(b *testing.B) {
		var took []time.Duration
		sample := func() {
			start := time.Now()
			l, err := m.ListFiles(ctx, who)
			took = append(took, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			if len(l.Files) != 2 {
				b.Fatalf("listed %d files, kept 2", len(l.Files))
			}
		}
		for b.Loop() {
			sample()
		}
		for len(took) < 5 {
			sample()
		}
		slices.Sort(took)
		b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "ms/list")
	}
	b.Run("no-browser", list)
	s, _, err := m.Open(ctx, sessions.Owner{Principal: who, Workspace: "default"}, browser.SessionOptions{}, true)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Navigate(site + "/login"); err != nil {
		b.Fatal(err)
	}
	b.Run("browser-open", list)
}
