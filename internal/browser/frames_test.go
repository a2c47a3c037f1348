package browser

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
)

// topAgain leaves the shared session at the top page, whatever a failed
// test left.
func topAgain(t *testing.T, s *Session) {
	t.Cleanup(func() { _ = s.ExitFrame(true) })
}

func framePath(t *testing.T, s *Session) string {
	t.Helper()
	path, err := s.FramePath()
	assert.NilError(t, err)
	var parts []string
	for _, l := range path {
		parts = append(parts, l.String())
	}
	return strings.Join(parts, " > ")
}

func frameURL(t *testing.T, s *Session) string {
	t.Helper()
	u, err := s.FrameURL()
	assert.NilError(t, err)
	return u
}

// TestFrames: nested same-origin frames are entered one at a time, and
// commands act in the frame's document; parent and top come back out; a
// cross-origin frame is entered the same way; a navigation of the top
// page leaves the frames.
func TestFrames(t *testing.T) {
	s := open(t, "/frames")
	topAgain(t, s)
	assert.Check(t, is.Equal(framePath(t, s), ""))
	assert.Check(t, is.Equal(frameURL(t, s), page("/frames")))

	billing := Locator{CSS: "iframe#billing"}
	card := Locator{CSS: `iframe[title="Card"]`}
	assert.NilError(t, s.EnterFrame(billing))
	assert.Check(t, is.Equal(framePath(t, s), "css:iframe#billing"))
	assert.Check(t, is.Equal(frameURL(t, s), page("/frames/billing")))
	assert.NilError(t, s.Write(Locator{Label: "Card holder"}, "Ada", true))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Save billing"}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Billing saved for Ada"}))
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Check(t, !strings.Contains(out, "Coupon"), "the outline is the frame's:\n%s", out)

	err = s.EnterFrame(Locator{Label: "Card holder"})
	assert.Check(t, is.ErrorContains(err, `label:"Card holder" is not an iframe or frame; outline lists the page's frames`))
	assert.NilError(t, s.EnterFrame(card))
	assert.Check(t, is.Equal(framePath(t, s), "css:iframe#billing > "+card.String()))
	assert.Check(t, is.Equal(frameURL(t, s), page("/frames/card")))
	assert.NilError(t, s.Write(Locator{Label: "Card number"}, "4111", true))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Check card"}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Card length 4"}))

	assert.NilError(t, s.ExitFrame(false))
	assert.Check(t, is.Equal(framePath(t, s), "css:iframe#billing"))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Billing saved for Ada"}))
	assert.NilError(t, s.ExitFrame(true))
	assert.Check(t, is.Equal(framePath(t, s), ""))
	assert.NilError(t, s.Write(Locator{Label: "Coupon"}, "SPRING", true))
	err = s.ExitFrame(true)
	assert.Check(t, is.ErrorContains(err, "you are not inside a frame"))

	// Cross-origin: the partner frame is served from the other host name.
	partner := Locator{CSS: "iframe#partner"}
	assert.NilError(t, s.EnterFrame(partner))
	assert.Check(t, is.Equal(frameURL(t, s), fixtures.OtherOrigin(strings.TrimPrefix(site.URL, "http://"))+"/frames/partner"))
	assert.NilError(t, s.Write(Locator{Label: "Partner code"}, "XYZ", true))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Apply code"}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Code length 3"}))

	// A link to the top page's next document leaves the frames.
	assert.NilError(t, s.ExitFrame(true))
	assert.NilError(t, s.EnterFrame(billing))
	assert.NilError(t, s.Click(Locator{Role: "link", Name: "Read the terms"}))
	ev := s.TakeEvents()
	assert.Check(t, ev.LeftFrames, "%+v", ev)
	assert.Check(t, is.Contains(ev.String(), "so commands act in the top page again"))
	assert.Check(t, is.Equal(framePath(t, s), ""))
	u, err := s.CurrentURL()
	assert.NilError(t, err)
	assert.Check(t, is.Equal(u, page("/article")))

	// So does navigate.
	assert.NilError(t, s.Navigate(page("/frames")))
	assert.NilError(t, s.EnterFrame(billing))
	assert.NilError(t, s.Navigate(page("/login")))
	assert.Check(t, is.Equal(framePath(t, s), ""))
	assert.Check(t, is.Equal(frameURL(t, s), page("/login")))
}
