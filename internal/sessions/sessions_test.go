package sessions_test

import (
	"context"
	"errors"
	"sync"
	"syscall"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// TestMain fails the package if a chromedriver or goroutine of ours
// outlives the tests, and kills them before a timeout (testenv.Main).
func TestMain(m *testing.M) { testenv.Main(m) }

// chromedrivers lists the live (not zombie) chromedriver processes this
// test process started.
func chromedrivers() []int {
	var pids []int
	for _, p := range testenv.Children() {
		if p.Name == "chromedriver" {
			pids = append(pids, p.PID)
		}
	}
	return pids
}

// TestDeadDriverIsReplaced: a chromedriver that died is replaced on the
// next Open, callers whose sessions ran on it get a fresh one too, and the
// dead driver is let go once no session uses it. Every wait is bounded by
// the test's deadline (testenv), not fixed seconds: on a loaded machine
// chromedriver starts, dies and is reaped slowly.
func TestDeadDriverIsReplaced(t *testing.T) {
	testenv.NeedBrowser(t)
	site := fixtures.Serve(t)
	store, err := files.Open(t.TempDir())
	assert.NilError(t, err)
	m := sessions.New(store)
	defer m.Shutdown()
	ctx := testenv.Context(t)

	a, reopened, err := m.Open(ctx, sessions.Owner{Principal: "alice", Workspace: "default"}, browser.SessionOptions{}, true)
	assert.NilError(t, err)
	assert.Check(t, !reopened.Kept)
	b, _, err := m.Open(ctx, sessions.Owner{Principal: "bob", Workspace: "default"}, browser.SessionOptions{}, true)
	assert.NilError(t, err)
	assert.NilError(t, a.Navigate(site+"/login"))
	old := chromedrivers()
	assert.Assert(t, is.Len(old, 1))

	assert.NilError(t, syscall.Kill(-old[0], syscall.SIGKILL))
	testenv.Eventually(t, "the killed chromedriver to go", func() bool { return syscall.Kill(old[0], 0) != nil })
	err = m.Do(context.Background(), sessions.Owner{Principal: "alice", Workspace: "default"}, func(s *sessions.Session) error { _, err := s.Outline(nil); return err })
	assert.Assert(t, errors.Is(err, browser.ErrSessionGone), "%v", err)
	err = m.Do(context.Background(), sessions.Owner{Principal: "alice", Workspace: "default"}, func(*sessions.Session) error { return nil })
	assert.Check(t, is.ErrorContains(err, "open_session"))

	// Both callers open at once: one fresh driver serves them.
	var wg sync.WaitGroup
	opened := map[string]*sessions.Session{}
	var mu sync.Mutex
	for _, p := range []string{"alice", "carol"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, _, err := m.Open(ctx, sessions.Owner{Principal: p, Workspace: "default"}, browser.SessionOptions{}, true)
			assert.Check(t, err)
			mu.Lock()
			opened[p] = s
			mu.Unlock()
		}()
	}
	wg.Wait()
	for p, s := range opened {
		assert.Assert(t, s != nil, p)
		assert.NilError(t, s.Navigate(site+"/controls"), p)
		title, err := s.Title()
		assert.NilError(t, err)
		assert.Check(t, is.Equal(title, "Controls"), p)
	}

	// bob's session was on the dead driver: it fails, is dropped, and his
	// next Open gets a browser on the live one.
	err = m.Do(context.Background(), sessions.Owner{Principal: "bob", Workspace: "default"}, func(s *sessions.Session) error { return s.Navigate(site + "/login") })
	assert.Assert(t, errors.Is(err, browser.ErrSessionGone), "%v", err)
	b, reopened, err = m.Open(ctx, sessions.Owner{Principal: "bob", Workspace: "default"}, browser.SessionOptions{}, true)
	assert.NilError(t, err)
	assert.Check(t, !reopened.Kept)
	assert.NilError(t, b.Navigate(site+"/article"))

	now := chromedrivers()
	assert.Check(t, is.Len(now, 1), "%v", now)
	assert.Check(t, len(now) == 0 || now[0] != old[0])

	m.Shutdown()
	testenv.Eventually(t, "no chromedriver left after Shutdown", func() bool { return len(chromedrivers()) == 0 })
}

// TestStartFailureIsNotCached: a driver that could not start is tried
// again on the next Open, as the refusal says.
func TestStartFailureIsNotCached(t *testing.T) {
	store, err := files.Open(t.TempDir())
	assert.NilError(t, err)
	m := sessions.New(store, sessions.WithDriverOptions(browser.WithChromedriver("/nonexistent/chromedriver")))
	defer m.Shutdown()
	for range 2 {
		_, _, err := m.Open(context.Background(), sessions.Owner{Principal: "alice", Workspace: "default"}, browser.SessionOptions{}, true)
		assert.Check(t, is.ErrorContains(err, "call open_session again"))
	}
}
