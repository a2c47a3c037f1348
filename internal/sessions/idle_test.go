package sessions

import (
	"sync/atomic"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// TestIdleReaperSparesARunningCall: a call that outlasts the idle timeout
// (a long wait_for) keeps its session; the timer starts when it ends.
func TestIdleReaperSparesARunningCall(t *testing.T) {
	testenv.NeedBrowser(t)
	store, err := files.Open(t.TempDir())
	assert.NilError(t, err)
	// The manager's own reaper goroutine reads the clock too.
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	advance := func(d time.Duration) { clock.Add(int64(d)) }
	m := New(store, WithIdleTimeout(time.Minute), withClock(func() time.Time { return time.Unix(0, clock.Load()) }))
	defer m.Shutdown()
	_, _, err = m.Open(t.Context(), Owner{Principal: "alice", Workspace: "default"}, browser.SessionOptions{}, true)
	assert.NilError(t, err)

	inCall, release, done := make(chan struct{}), make(chan struct{}), make(chan error)
	go func() {
		done <- m.Do(t.Context(), Owner{Principal: "alice", Workspace: "default"}, func(*Session) error { close(inCall); <-release; return nil })
	}()
	<-inCall
	advance(time.Hour) // the call has run for an hour
	m.closeIdle()
	assert.Assert(t, m.Peek(Owner{Principal: "alice", Workspace: "default"}) != nil, "the reaper closed a session in the middle of a call")
	close(release)
	assert.NilError(t, <-done)

	advance(30 * time.Second) // half the timeout after the call ended
	m.closeIdle()
	assert.Assert(t, m.Peek(Owner{Principal: "alice", Workspace: "default"}) != nil, "the idle time counted from the call's start")
	advance(time.Minute)
	m.closeIdle()
	assert.Assert(t, m.Peek(Owner{Principal: "alice", Workspace: "default"}) == nil, "an idle session was kept")
}

// withClock replaces the manager's clock, before its reaper starts.
func withClock(now func() time.Time) Option { return func(m *Manager) { m.now = now } }

// TestIdleCloseReopens: with a workspace store, the idle timer closes the
// browser but not the workspace; the next call reopens it at the same URL
// and window, and says so once. close_session ends it for good.
func TestIdleCloseReopens(t *testing.T) {
	testenv.NeedBrowser(t)
	site := fixtures.Serve(t)
	fs, err := files.Open(t.TempDir())
	assert.NilError(t, err)
	st, err := workspaces.Open(t.Context(), workspaces.Config{DataDir: t.TempDir()})
	assert.NilError(t, err)
	defer st.Close()
	var clock atomic.Int64
	clock.Store(time.Now().UnixNano())
	m := New(fs, WithStore(st), WithIdleTimeout(time.Minute), withClock(func() time.Time { return time.Unix(0, clock.Load()) }),
		WithDriverOptions(browser.WithBrowserArgs(testenv.ClosedNetwork)))
	defer m.Shutdown()
	ctx := testenv.Context(t)
	o := Owner{Principal: "alice", Workspace: "shop"}
	_, _, err = m.Open(ctx, o, browser.SessionOptions{Window: browser.Window{Width: 800, Height: 600}}, true)
	assert.NilError(t, err)
	err = m.Do(ctx, o, func(s *Session) error {
		if err := s.Navigate(site + "/article?p=2"); err != nil {
			return err
		}
		_, err := s.CurrentURL()
		return err
	})
	assert.NilError(t, err)

	clock.Add(int64(2 * time.Minute))
	m.closeIdle()
	assert.Assert(t, m.Peek(o) == nil, "the idle browser was kept")

	var note, url string
	var win browser.Window
	err = m.Do(ctx, o, func(s *Session) error {
		note = s.TakeNote()
		win = s.Window()
		url, err = s.CurrentURL()
		return err
	})
	assert.NilError(t, err)
	assert.Check(t, is.Contains(note, "reopened"))
	assert.Check(t, is.Contains(note, "at its last page"))
	assert.Check(t, is.Equal(url, site+"/article?p=2"))
	assert.Check(t, is.Equal(win, browser.Window{Width: 800, Height: 600}))

	closed, err := m.Close(ctx, o)
	assert.NilError(t, err)
	assert.Check(t, closed)
	err = m.Do(ctx, o, func(*Session) error { return nil })
	assert.Check(t, is.ErrorIs(err, ErrNoSession), "close_session ends it for good")
}
