package sessions

import (
	"sync/atomic"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
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
