package browser

import (
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestClickSettlesOnTheNextPage: a click that submits a form returns once
// the next page has loaded, so whoever asks next sees the new page, not the
// one being left. Without the settle, this fails within a few rounds.
func TestClickSettlesOnTheNextPage(t *testing.T) {
	s := open(t, "/login")
	for round := range 5 {
		assert.NilError(t, s.Navigate(page("/login")))
		assert.NilError(t, s.Write(Locator{Label: "Email"}, "a@b.c", true))
		assert.NilError(t, s.Click(Locator{Role: "button", Name: "Sign in"}))
		title, err := s.Title()
		assert.NilError(t, err)
		assert.Check(t, is.Equal(title, "Welcome"), "round %d", round)
	}
	// A click that navigates nowhere returns at once, on the same page.
	assert.NilError(t, s.Click(Locator{Text: "Remember me: "}))
	title, err := s.Title()
	assert.NilError(t, err)
	assert.Check(t, is.Equal(title, "Welcome"))
}
