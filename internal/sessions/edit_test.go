package sessions_test

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// TestEditWorkspaceWhileOpen: a change made from outside a page tool (the
// admin page forgetting site data) to a workspace whose browser is open
// here survives the browser's next call, which writes its record again;
// a change fn refuses writes nothing, and one to a workspace the store
// does not keep is ErrNoRecord.
func TestEditWorkspaceWhileOpen(t *testing.T) {
	testenv.NeedBrowser(t)
	site := fixtures.Serve(t)
	ctx := testenv.Context(t)
	dir := t.TempDir()
	kept, err := files.Open(dir + "/files")
	assert.NilError(t, err)
	ws, err := workspaces.Open(ctx, workspaces.Config{DataDir: dir})
	assert.NilError(t, err)
	defer ws.Close()
	m := sessions.New(kept, sessions.WithStore(ws), sessions.WithDriverOptions(browser.WithBrowserArgs(testenv.ClosedNetwork)))
	defer m.Shutdown()
	alice := sessions.Owner{Principal: "alice", Workspace: "default"}

	_, _, err = m.Open(ctx, alice, browser.SessionOptions{}, true)
	assert.NilError(t, err)
	visit := func(path string) {
		t.Helper()
		assert.NilError(t, m.Do(ctx, alice, func(s *sessions.Session) error {
			if err := s.Navigate(site + path); err != nil {
				return err
			}
			_, err := s.CurrentURL() // the record follows the page
			return err
		}))
	}
	visit("/login")

	saved := &browser.SiteData{Cookies: []browser.Cookie{{Name: "sid", Value: "1", Domain: "127.0.0.1", Path: "/"}}}
	assert.NilError(t, m.EditWorkspace(ctx, alice, func(r *workspaces.Record) error { r.SiteData = saved; return nil }))
	refused := errors.New("no")
	assert.Check(t, is.ErrorIs(m.EditWorkspace(ctx, alice, func(r *workspaces.Record) error { r.SiteData = nil; return refused }), refused))
	visit("/article")
	rec, ok, err := m.Workspace(ctx, alice)
	assert.NilError(t, err)
	assert.Assert(t, ok)
	assert.Check(t, rec.SiteData != nil, "a refused edit wrote, or the browser's call lost the edit")

	assert.NilError(t, m.EditWorkspace(ctx, alice, func(r *workspaces.Record) error { r.SiteData = nil; return nil }))
	visit("/login")
	rec, _, err = m.Workspace(ctx, alice)
	assert.NilError(t, err)
	assert.Check(t, rec.SiteData == nil, "the open browser wrote the forgotten site data back")

	bob := sessions.Owner{Principal: "bob", Workspace: "default"}
	assert.Check(t, is.ErrorIs(m.EditWorkspace(ctx, bob, func(*workspaces.Record) error { return nil }), sessions.ErrNoRecord))
}
