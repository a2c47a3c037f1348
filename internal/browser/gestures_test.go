package browser

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// statusLine reads the fixture page's status line.
func statusLine(t *testing.T, s *Session) string {
	t.Helper()
	r, err := s.Read(&Locator{CSS: "#said"}, ReadOptions{})
	assert.NilError(t, err)
	return r.Text
}

// TestHoverMenu: an item of a menu that opens on hover is hidden until the
// pointer is over the menu, and Hover leaves it there, so the next Click
// reaches the item; a row's delete button that shows on hover works too.
func TestHoverMenu(t *testing.T) {
	s := open(t, "/hover")
	var le *LocatorError
	err := s.Click(Locator{Role: "link", Name: "Billing"})
	assert.Assert(t, errors.As(err, &le), "before hovering: %v", err)
	assert.Check(t, le.Hidden)

	assert.NilError(t, s.Hover(Locator{CSS: "#account"}))
	assert.NilError(t, s.Click(Locator{Role: "link", Name: "Billing"}))
	assert.Check(t, is.Equal(statusLine(t, s), "billing opened"))

	// A row far down: Hover scrolls it into view first.
	assert.NilError(t, s.Hover(Locator{Text: "Walk the dog"}))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Delete", Within: &Locator{CSS: "#todo-2"}}))
	assert.Check(t, is.Equal(statusLine(t, s), "deleted Walk the dog"))
}

func TestClickButtons(t *testing.T) {
	s := open(t, "/gestures")
	t.Run("double-click edits", func(t *testing.T) {
		assert.NilError(t, s.ClickWith(Locator{Text: "Untitled draft"}, ClickOptions{Double: true}))
		assert.NilError(t, s.Write(Locator{Label: "Title"}, "Quarterly report", true))
		assert.NilError(t, s.PressKey("Enter"))
		assert.Check(t, is.Equal(statusLine(t, s), "title saved"))
		r, err := s.Read(&Locator{CSS: "#title"}, ReadOptions{})
		assert.NilError(t, err)
		assert.Check(t, is.Equal(r.Text, "Quarterly report"))
	})
	t.Run("right-click opens the context menu", func(t *testing.T) {
		assert.NilError(t, s.ClickWith(Locator{Text: "report.pdf"}, ClickOptions{Button: "right"}))
		assert.Check(t, is.Equal(statusLine(t, s), "menu opened with button 2"))
		assert.NilError(t, s.Click(Locator{Role: "menuitem", Name: "Rename"}))
		assert.Check(t, is.Equal(statusLine(t, s), "renamed"))
	})
	t.Run("unknown button", func(t *testing.T) {
		err := s.ClickWith(Locator{Text: "report.pdf"}, ClickOptions{Button: "fourth"})
		assert.ErrorContains(t, err, "left, right or middle")
	})
}

func TestDrag(t *testing.T) {
	s := open(t, "/gestures")
	t.Run("HTML5 drag-and-drop onto another list", func(t *testing.T) {
		assert.NilError(t, s.Drag(Locator{Text: "Call Ada"}, &Locator{CSS: "#done"}, nil))
		assert.Check(t, is.Equal(statusLine(t, s), "moved Call Ada to Done"))
		n, err := s.Count(Locator{CSS: "#done .item"})
		assert.NilError(t, err)
		assert.Check(t, is.Equal(n, 1))
	})
	t.Run("HTML5 drag by an offset", func(t *testing.T) {
		// The lists are 160 px wide side by side: 200 px right is the other list.
		assert.NilError(t, s.Drag(Locator{Text: "Call Ada"}, nil, &Point{X: -200}))
		assert.Check(t, is.Equal(statusLine(t, s), "moved Call Ada to To do"))
	})
	t.Run("a drop target that refuses", func(t *testing.T) {
		err := s.Drag(Locator{Text: "Write report"}, &Locator{CSS: "h1"}, nil)
		assert.ErrorContains(t, err, "does not accept this drag")
		assert.Check(t, is.Contains(err.Error(), "outline"))
	})
	t.Run("pointer slider by an offset", func(t *testing.T) {
		assert.NilError(t, s.Drag(Locator{Role: "slider", Name: "Volume"}, nil, &Point{X: 100}))
		r, err := s.Read(&Locator{CSS: "#volume"}, ReadOptions{})
		assert.NilError(t, err)
		assert.Check(t, is.Equal(r.Text, "50"), "100 px of a 200 px track")
	})
	t.Run("pointer slider onto an element", func(t *testing.T) {
		assert.NilError(t, s.Drag(Locator{Role: "slider", Name: "Volume"}, &Locator{CSS: "#track"}, nil))
		r, err := s.Read(&Locator{CSS: "#volume"}, ReadOptions{})
		assert.NilError(t, err)
		assert.Check(t, is.Equal(r.Text, "50"), "the track's centre")
	})
	t.Run("neither or both of to and by", func(t *testing.T) {
		assert.ErrorContains(t, s.Drag(Locator{Text: "Call Ada"}, nil, nil), "exactly one of to")
		assert.ErrorContains(t, s.Drag(Locator{Text: "Call Ada"}, &Locator{CSS: "#done"}, &Point{X: 1}), "exactly one of to")
	})
}

func TestScroll(t *testing.T) {
	s := open(t, "/gestures")
	r, err := s.Scroll(&Locator{Text: "The end of the page"}, nil)
	assert.NilError(t, err)
	assert.Check(t, r.Y > 500, "scrolled to %d", r.Y)
	r, err = s.Scroll(nil, &Point{Y: -100000})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(r, ScrollResult{}))
	r, err = s.Scroll(&Locator{CSS: "#scroller"}, &Point{Y: 120})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(r.Y, 120))
	// The page hears of it on the next frame.
	testenv.Eventually(t, "the scroller's scroll event", func() bool {
		got, err := s.Read(&Locator{CSS: "#scrolled"}, ReadOptions{})
		return err == nil && got.Text == "120"
	})
	_, err = s.Scroll(nil, nil)
	assert.Check(t, err != nil && strings.Contains(err.Error(), "give a locator"))
}
