package sessions_test

import (
	"context"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// median of samples, in milliseconds.
func median(took []time.Duration) float64 {
	s := slices.Clone(took)
	slices.Sort(s)
	return float64(s[len(s)/2].Microseconds()) / 1000
}

// owner is the benchmarks' one workspace.
var owner = sessions.Owner{Principal: "local", Workspace: workspaces.Default}

// BenchmarkStoreOverhead times one page action through Manager.Do with no
// store, the embedded store and Redis, side by side in the same run (one
// browser each, the three sampled in turn, so load on the machine falls
// on all three alike). The action moves the page to a new URL in place
// (history.replaceState) and reads it back, as an action's report does,
// so every call changes the workspace record and writes it. It reports
// each median as ms/action and the difference from no store as ms-added:
//
//	go test -run '^$' -bench StoreOverhead ./internal/sessions/
func BenchmarkStoreOverhead(b *testing.B) {
	testenv.NeedBrowser(b)
	site := fixtures.Serve(b)
	redisURL := testenv.Redis(b)
	ctx := testenv.Context(b)
	kinds := []string{"none", "embedded", "redis"}
	managers := map[string]*sessions.Manager{}
	stores := map[string]workspaces.Store{}
	for _, kind := range kinds {
		fs, err := files.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		opts := []sessions.Option{sessions.WithDriverOptions(browser.WithBrowserArgs(testenv.ClosedNetwork))}
		var st workspaces.Store
		switch kind {
		case "embedded":
			st, err = workspaces.Open(ctx, workspaces.Config{DataDir: b.TempDir()})
		case "redis":
			st, err = workspaces.Open(ctx, workspaces.Config{URL: redisURL})
		}
		if err != nil {
			b.Fatal(err)
		}
		if st != nil {
			b.Cleanup(func() { st.Close() })
			opts = append(opts, sessions.WithStore(st))
			stores[kind] = st
		}
		m := sessions.New(fs, opts...)
		b.Cleanup(m.Shutdown)
		if _, _, err := m.Open(ctx, owner, browser.SessionOptions{}, true); err != nil {
			b.Fatal(err)
		}
		if err := m.Do(ctx, owner, func(s *sessions.Session) error { return s.Navigate(site + "/article") }); err != nil {
			b.Fatal(err)
		}
		managers[kind] = m
	}
	took := map[string][]time.Duration{}
	n := 0
	round := func() {
		n++
		for _, kind := range kinds {
			start := time.Now()
			// Bounded by the WebDriver client's own timeouts, not by the
			// benchmark's context, which a long -benchtime would outlast.
			err := managers[kind].Do(context.Background(), owner, func(s *sessions.Session) error {
				if _, err := s.ExecuteScript("history.replaceState(null, '', '?n=' + arguments[0]);", []any{n}); err != nil {
					return err
				}
				_, err := s.CurrentURL()
				return err
			})
			took[kind] = append(took[kind], time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	for b.Loop() {
		round()
	}
	for len(took["none"]) < 51 {
		round()
	}
	base := median(took["none"])
	b.ReportMetric(base, "ms/action")
	for _, kind := range kinds[1:] {
		b.ReportMetric(median(took[kind]), "ms/action-"+kind)
		b.ReportMetric(median(took[kind])-base, "ms-added-"+kind)
		// The store's own cost, without the browser's noise: one write of
		// the workspace's record as the action made it.
		rec, _, err := managers[kind].Workspace(context.Background(), owner)
		if err != nil {
			b.Fatal(err)
		}
		var puts []time.Duration
		for range 51 {
			start := time.Now()
			if err := stores[kind].Put(context.Background(), rec); err != nil {
				b.Fatal(err)
			}
			puts = append(puts, time.Since(start))
		}
		b.ReportMetric(median(puts), "ms/write-"+kind)
	}
}

// BenchmarkFirstCallAfterRestart times the first page call of a new
// Manager (a restarted server) on a workspace whose browser was open:
// reopening it locally with the saved site data at its last page, and,
// with SELENIUM_URL set, re-attaching to the Grid's live session. It
// reports the median as ms/first-call:
//
//	go test -run '^$' -bench FirstCallAfterRestart ./internal/sessions/
func BenchmarkFirstCallAfterRestart(b *testing.B) {
	testenv.NeedBrowser(b)
	site := fixtures.Serve(b)
	ctx := testenv.Context(b)
	run := func(b *testing.B, grid string) {
		st, err := workspaces.Open(ctx, workspaces.Config{DataDir: b.TempDir()})
		if err != nil {
			b.Fatal(err)
		}
		defer st.Close()
		fs, err := files.Open(b.TempDir())
		if err != nil {
			b.Fatal(err)
		}
		manager := func() *sessions.Manager {
			return sessions.New(fs, sessions.WithStore(st), sessions.WithSeleniumURL(grid),
				sessions.WithDriverOptions(browser.WithBrowserArgs(testenv.ClosedNetwork)))
		}
		first := manager()
		if _, _, err := first.Open(ctx, owner, browser.SessionOptions{}, true); err != nil {
			b.Fatal(err)
		}
		err = first.Do(ctx, owner, func(s *sessions.Session) error {
			for _, step := range []func() error{
				func() error { return s.Navigate(site + "/members/login") },
				func() error { return s.Write(browser.Locator{Label: "Name"}, "alice", true) },
				func() error { return s.Click(browser.Locator{Role: "button", Name: "Sign in"}) },
			} {
				if err := step(); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		signedIn := func(s *sessions.Session) error {
			return s.Assert(browser.Assertion{TextPresent: "Signed in as alice"})
		}
		if err := first.Do(ctx, owner, func(s *sessions.Session) error {
			if err := s.Navigate(site + "/members"); err != nil {
				return err
			}
			if _, err := s.CurrentURL(); err != nil {
				return err
			}
			_, err := first.SaveSiteData(ctx, s)
			return err
		}); err != nil {
			b.Fatal(err)
		}
		first.Shutdown()
		var took []time.Duration
		sample := func() {
			// Each sample has a budget of its own: a long -benchtime must
			// not run out the benchmark's context.
			sctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			m := manager()
			start := time.Now()
			err := m.Do(sctx, owner, signedIn)
			took = append(took, time.Since(start))
			m.Shutdown()
			if err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			sample()
		}
		for len(took) < 5 {
			sample()
		}
		b.ReportMetric(median(took), "ms/first-call")
		last := manager()
		_, _ = last.Close(context.Background(), owner)
		last.Shutdown()
	}
	b.Run("reopen-with-site-data", func(b *testing.B) { run(b, "") })
	b.Run("reattach-grid", func(b *testing.B) {
		grid := os.Getenv("SELENIUM_URL")
		if grid == "" {
			b.Skip("SELENIUM_URL is not set")
		}
		run(b, grid)
	})
}
