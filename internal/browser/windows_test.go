package browser

import (
	"context"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// fresh opens a session of its own on the shared driver, closed when the
// test ends: windows the test opens must not outlive it in the shared one.
func fresh(t *testing.T, o SessionOptions) *Session {
	t.Helper()
	shared(t)
	ctx, cancel := context.WithDeadline(context.Background(), testenv.Deadline(t, time.Minute))
	defer cancel()
	s, err := sharedDriver.NewSession(ctx, o)
	assert.NilError(t, err)
	t.Cleanup(func() { s.Close() })
	return s
}

// events gathers TakeEvents until ok holds of what was gathered: a window
// a page opens may be listed a moment after the action returns.
func events(t *testing.T, s *Session, what string, ok func(Events) bool) Events {
	t.Helper()
	var all Events
	testenv.Eventually(t, what, func() bool {
		ev := s.TakeEvents()
		all.Opened = append(all.Opened, ev.Opened...)
		all.Closed = append(all.Closed, ev.Closed...)
		if ev.Now != nil {
			all.Now = ev.Now
		}
		if ev.Dialog != nil {
			all.Dialog = ev.Dialog
		}
		all.LeftFrames = all.LeftFrames || ev.LeftFrames
		return ok(all)
	})
	return all
}

func opened(n int) func(Events) bool { return func(e Events) bool { return len(e.Opened) >= n } }

// TestWindows: a target=_blank link and window.open each open a window,
// named w2 and w3 in order with title, URL and opener; switching by name,
// by opener and by previous; closing the current window goes back to its
// opener, closing another keeps the current one; the last window stays.
func TestWindows(t *testing.T) {
	s := fresh(t, SessionOptions{})
	assert.NilError(t, s.Navigate(page("/popup")))
	assert.Check(t, s.TakeEvents().Empty(), "navigating opens no window")
	assert.Equal(t, s.CurrentWindow(), "w1")

	assert.NilError(t, s.Click(Locator{Role: "link", Name: "Add author"}))
	ev := events(t, s, "the link's window", opened(1))
	assert.Assert(t, is.Len(ev.Opened, 1))
	w2 := ev.Opened[0]
	assert.Check(t, is.Equal(w2.Name, "w2"))
	assert.Check(t, is.Equal(w2.Opener, "w1"))
	assert.Check(t, !w2.Current)
	assert.Check(t, is.Equal(w2.String(), `w2 "Add author · Acme" at `+page("/popup/add")))
	assert.Check(t, is.Contains(ev.String(), `A new window opened: w2 `))
	assert.Check(t, is.Contains(ev.String(), `switch_window {"window":"w2"} acts in it.`))
	assert.Equal(t, s.CurrentWindow(), "w1", "a new window does not take the commands")

	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Open helper"}))
	ev = events(t, s, "window.open's window", opened(1))
	assert.Check(t, is.Equal(ev.Opened[0].Name, "w3"))
	assert.Equal(t, s.WindowCount(), 3)

	ws, err := s.Windows()
	assert.NilError(t, err)
	assert.Assert(t, is.Len(ws, 3))
	for i, want := range []struct{ name, title, path string }{
		{"w1", "Authors · Acme", "/popup"},
		{"w2", "Add author · Acme", "/popup/add"},
		{"w3", "Add author · Acme", "/popup/add?via=script"},
	} {
		assert.Check(t, is.Equal(ws[i].Name, want.name))
		assert.Check(t, is.Equal(ws[i].Title, want.title))
		assert.Check(t, is.Equal(ws[i].URL, page(want.path)))
		assert.Check(t, is.Equal(ws[i].Current, i == 0))
	}
	assert.Check(t, s.TakeEvents().Empty(), "windows listed are not reported again")

	// Act in the popup; it hands the name back to its opener.
	now, err := s.SwitchWindow("w2")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(now.Name, "w2"))
	assert.Check(t, is.Equal(now.Title, "Add author · Acme"))
	assert.NilError(t, s.Write(Locator{Label: "Name"}, "Ada Lovelace", true))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Save"}))
	now, err = s.SwitchWindow("opener")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(now.Name, "w1"))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Chosen: Ada Lovelace"}))
	now, err = s.SwitchWindow("previous")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(now.Name, "w2"))
	now, err = s.SwitchWindow("newest")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(now.Name, "w3"))

	for _, bad := range []struct{ name, want string }{
		{"w9", `there is no window "w9"; the windows are w1, w2, w3`},
		{"main", `there is no window "main"`},
	} {
		_, err := s.SwitchWindow(bad.name)
		assert.Check(t, is.ErrorContains(err, bad.want))
	}

	// Closing the current window (w3) goes back to its opener.
	closed, now, err := s.CloseWindow("")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(closed, "w3"))
	assert.Check(t, is.Equal(now.Name, "w1"))
	assert.Check(t, is.Equal(now.Title, "Authors · Acme"))
	_, err = s.SwitchWindow("w3")
	assert.Check(t, is.ErrorContains(err, "the window w3 was closed; the windows are w1, w2"))

	// Closing another window keeps the current one.
	closed, now, err = s.CloseWindow("w2")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(closed, "w2"))
	assert.Check(t, is.Equal(now.Name, "w1"))
	assert.Check(t, is.Equal(s.WindowCount(), 1))
	_, _, err = s.CloseWindow("")
	assert.Check(t, is.ErrorContains(err, "w1 is the only window; closing it would end the browser, which close_session does"))
	_, err = s.SwitchWindow("opener")
	assert.Check(t, is.ErrorContains(err, "w1 has no opener that is still open"))
}

// TestWindowClosedByPage: a popup that closes itself while current is
// reported, and commands go back to its opener.
func TestWindowClosedByPage(t *testing.T) {
	s := fresh(t, SessionOptions{})
	assert.NilError(t, s.Navigate(page("/popup")))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Open helper"}))
	events(t, s, "the helper window", opened(1))
	_, err := s.SwitchWindow("w2")
	assert.NilError(t, err)
	assert.NilError(t, s.Write(Locator{Label: "Name"}, "Grace", true))
	// The click's own command may fail as its window goes away.
	_ = s.Click(Locator{Role: "button", Name: "Save and close"})
	ev := events(t, s, "the closed window", func(e Events) bool { return len(e.Closed) > 0 })
	assert.Check(t, is.DeepEqual(ev.Closed, []string{"w2"}))
	assert.Assert(t, ev.Now != nil)
	assert.Check(t, is.Equal(ev.Now.Name, "w1"))
	assert.Check(t, is.Contains(ev.String(), `The window w2 was closed. You are now in w1 "Authors · Acme" at `+page("/popup")+"."))
	assert.Equal(t, s.CurrentWindow(), "w1")
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Chosen: Grace"}))
}

// TestSessionTimeouts: a session's page load and script timeouts are
// checked and reach the browser.
func TestSessionTimeouts(t *testing.T) {
	shared(t)
	ctx := testenv.Context(t)
	for _, bad := range []SessionOptions{{PageLoadTimeout: time.Millisecond}, {ScriptTimeout: MaxTimeout + time.Second}} {
		_, err := sharedDriver.NewSession(ctx, bad)
		assert.Check(t, is.ErrorContains(err, "timeout must be between 1 and 300 seconds"))
	}
	s := fresh(t, SessionOptions{PageLoadTimeout: 7 * time.Second, ScriptTimeout: 3 * time.Second})
	v, err := s.raw(ctx, "GET", "/timeouts", nil)
	assert.NilError(t, err)
	assert.Check(t, is.Contains(string(v), `"pageLoad":7000`))
	assert.Check(t, is.Contains(string(v), `"script":3000`))
	assert.Check(t, !strings.Contains(string(v), `"implicit":1`))
}
