package browser

import (
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestWhere: the title and URL a report gives are read by the probe that
// follows a click (no command of their own, TakeEvents between or not),
// by one script after an action without one, again after any later
// command, and by WebDriver's Get Title and Get Current URL inside a
// frame, where they are still the top page's.
func TestWhere(t *testing.T) {
	cases := []struct {
		name  string
		page  string
		act   func(s *Session) error
		cmds  int
		title string
		url   string
	}{
		{"after a click", "/controls", func(s *Session) error {
			if err := s.Click(Locator{Text: "Clickable card"}); err != nil {
				return err
			}
			s.TakeEvents()
			return nil
		}, 0, "Controls", "/controls"},
		{"after a click that loads a page", "/admin", func(s *Session) error {
			return s.Click(Locator{Role: "link", Name: "Dashboard"})
		}, 0, "Users · Acme Admin", "/admin"},
		{"after a write", "/login", func(s *Session) error {
			return s.Write(Locator{Label: "Email"}, "ada@example.com", true)
		}, 1, "Sign in · Acme", "/login"},
		{"after a click and a later command", "/controls", func(s *Session) error {
			if err := s.Click(Locator{Text: "Clickable card"}); err != nil {
				return err
			}
			return s.Navigate(page("/login"))
		}, 1, "Sign in · Acme", "/login"},
		{"in a frame", "/frames", func(s *Session) error {
			if err := s.EnterFrame(Locator{CSS: "iframe#billing"}); err != nil {
				return err
			}
			return s.Click(Locator{Role: "button", Name: "Save billing"})
		}, 2, "Frames · Acme", "/frames"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t, tc.page)
			topAgain(t, s)
			assert.NilError(t, tc.act(s))
			rec := testenv.RecordWebDriver(t)
			rec.Start()
			at, err := s.Where()
			sent := rec.Stop()
			assert.NilError(t, err)
			assert.Check(t, is.Equal(at, Place{Title: tc.title, URL: page(tc.url)}))
			assert.Check(t, is.Len(sent, tc.cmds), "%v", sent)
		})
	}
}
