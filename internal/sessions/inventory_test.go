package sessions_test

import (
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// TestInventoryAndWatch: a watcher hears of an open, a navigation and a
// close, each time; the inventory lists the open browser with its URL and
// no endpoint, and nothing once it is closed.
func TestInventoryAndWatch(t *testing.T) {
	testenv.NeedBrowser(t)
	site := fixtures.Serve(t)
	alice := sessions.Owner{Principal: "alice", Workspace: "default"}
	bob := sessions.Owner{Principal: "bob", Workspace: "default"}
	store, err := files.Open(t.TempDir())
	assert.NilError(t, err)
	m := sessions.New(store, sessions.WithDriverOptions(browser.WithBrowserArgs(testenv.ClosedNetwork)))
	defer m.Shutdown()
	ctx := testenv.Context(t)

	changes, stop := m.Watch()
	defer stop()
	heard := func(what string) {
		t.Helper()
		select {
		case <-changes:
		case <-ctx.Done():
			t.Fatalf("no change heard after %s", what)
		}
	}
	assert.Check(t, is.Len(m.Inventory(), 0))

	_, _, err = m.Open(ctx, alice, browser.SessionOptions{}, true)
	assert.NilError(t, err)
	heard("open")
	assert.NilError(t, m.Do(ctx, alice, func(s *sessions.Session) error { return s.Navigate(site + "/login") }))
	heard("navigate")

	inv := m.Inventory()
	assert.Assert(t, is.Len(inv, 1))
	got := inv[0]
	assert.Check(t, is.Equal(got.Owner, "alice"))
	assert.Check(t, is.Equal(got.Name, "default"))
	assert.Check(t, is.Equal(got.State, "live"))
	assert.Check(t, is.Equal(got.URL, site+"/login"))
	assert.Check(t, got.Browser != "")
	assert.Check(t, got.IdleTimeout == sessions.DefaultIdleTimeout.String())

	closed, err := m.Close(ctx, alice)
	assert.NilError(t, err)
	assert.Check(t, closed)
	heard("close")
	assert.Check(t, is.Len(m.Inventory(), 0))

	// A stopped watch hears nothing more, and stopping twice is harmless.
	stop()
	stop()
	_, _, err = m.Open(ctx, bob, browser.SessionOptions{}, true)
	assert.NilError(t, err)
	select {
	case <-changes:
		t.Fatal("a stopped watch heard a change")
	default:
	}
}
