package browser

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

var htmlIDRE = regexp.MustCompile(`\bid="([^"]+)"`)

// TestOutlineGeneratedAcrossRenders outlines /generated, whose ids and
// classes are made up anew and whose rows change order on every render,
// twice: the outline offers no made-up id and no positional css path, both
// renders give the same locators, and a locator taken from the first
// render finds the same row's control in the second.
func TestOutlineGeneratedAcrossRenders(t *testing.T) {
	s := open(t, "/generated")
	// The pointer an earlier test left over a row would reveal that
	// row's hover-only control in one render and not the other.
	pointerAway(t, s)
	first, err := s.Outline(nil)
	assert.NilError(t, err)
	t.Log("\n" + first)
	html, err := s.PageHTML()
	assert.NilError(t, err)

	assert.NilError(t, s.Refresh())
	pointerAway(t, s)
	second, err := s.Outline(nil)
	assert.NilError(t, err)
	html2, err := s.PageHTML()
	assert.NilError(t, err)
	assert.Assert(t, html != html2, "the page did not change between renders")

	for _, out := range []string{first, second} {
		assert.Assert(t, !strings.Contains(out, "nth-of-type"), "a positional css path:\n%s", out)
		assert.Assert(t, !strings.Contains(out, "css-"), "a generated class:\n%s", out)
		for _, m := range htmlIDRE.FindAllStringSubmatch(html+html2, -1) {
			if m[1] != "said" { // the one stable id on the page
				assert.Assert(t, !strings.Contains(out, m[1]), "generated id %q offered:\n%s", m[1], out)
			}
		}
	}
	// Rows moved, locators did not: the same set of control lines.
	lines := func(out string) []string {
		var ls []string
		for _, c := range parseOutlineControls(t, out) {
			ls = append(ls, c.line)
		}
		slices.Sort(ls)
		return ls
	}
	assert.DeepEqual(t, lines(first), lines(second))
	for _, w := range []string{
		`button css:[data-testid=search-go] "Go"`,
		`search label:"Search invoices"`,
		`role:checkbox within:(row:"INV-1003")`,
		`link:"Edit" within:(row:"INV-1003")`,
		`button:"Yes, I’m sure"`,
		`text "Archive the paid invoices, then confirm — this cannot be undone."`,
	} {
		assert.Check(t, is.Contains(first, w))
	}

	// Locators of the first render act on the same row after a re-render.
	for _, c := range parseOutlineControls(t, first) {
		for _, l := range c.locs {
			assert.NilError(t, resolvesToOne(s, l, c.hidden), "line %q", c.line)
		}
	}
	row := &Locator{Role: "row", Name: "INV-1003"}
	assert.NilError(t, s.Click(Locator{Role: "checkbox", Within: row}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "picked INV-1003 true"}))
	assert.NilError(t, s.Click(Locator{Role: "link", Name: "Edit", Within: row}))
	assert.NilError(t, s.Assert(Assertion{URLMatches: "#edit-INV-1003$"}))
}

// hover moves the pointer over the middle of the element loc addresses,
// with WebDriver actions, as a person's mouse would.
func hover(t *testing.T, s *Session, loc Locator) {
	t.Helper()
	assert.NilError(t, func() error {
		if err := s.begin(); err != nil {
			return err
		}
		defer s.mu.Unlock()
		el, err := s.resolve(loc, false)
		if err != nil {
			return err
		}
		v, err := s.wd.ExecuteScript(`arguments[0].scrollIntoView({block: 'center'});
const r = arguments[0].getBoundingClientRect(); return [Math.round(r.x + r.width / 2), Math.round(r.y + r.height / 2)];`, []any{el})
		if err != nil {
			return err
		}
		xy := v.([]any)
		move := map[string]any{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": xy[0], "y": xy[1]}
		body := map[string]any{"actions": []any{map[string]any{"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"}, "actions": []any{move}}}}
		_, err = s.raw(context.Background(), "POST", "/actions", body)
		return err
	}())
}

// pointerAway moves the pointer to the viewport's corner, over nothing.
func pointerAway(t *testing.T, s *Session) {
	t.Helper()
	move := map[string]any{"type": "pointerMove", "duration": 0, "origin": "viewport", "x": 0, "y": 0}
	body := map[string]any{"actions": []any{map[string]any{"type": "pointer", "id": "mouse", "parameters": map[string]any{"pointerType": "mouse"}, "actions": []any{move}}}}
	assert.NilError(t, func() error {
		if err := s.begin(); err != nil {
			return err
		}
		defer s.mu.Unlock()
		_, err := s.raw(context.Background(), "POST", "/actions", body)
		return err
	}())
}

// TestOutlineHoverRevealed checks that controls hidden until their
// container is hovered (visibility, display and opacity under a :hover
// rule) are listed with the hover that reveals them, and that the hover
// named does reveal them.
func TestOutlineHoverRevealed(t *testing.T) {
	s := open(t, "/generated")
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	for _, w := range []string{
		`button:"Archive" within:(row:"INV-1002") (hidden until hover: hover {"locator":{"role":"row","name":"INV-1002"}})`,
		`button:"Delete" within:(listitem:"Holiday rota") (hidden until hover: hover {"locator":{"role":"listitem","name":"Holiday rota"}})`,
		`button:"Copy address" (hidden until hover: hover {"locator":{"text":"Ship to: 1 Main Street, Springfield"}})`,
	} {
		assert.Check(t, is.Contains(out, w), "outline:\n%s", out)
	}
	assert.Check(t, !strings.Contains(out, "Holiday rota Delete"), "hidden text shown:\n%s", out)

	del := Locator{Role: "button", Name: "Delete", Within: &Locator{Role: "listitem", Name: "Holiday rota"}}
	err = s.Click(del)
	assert.ErrorContains(t, err, "matches only hidden element")
	hover(t, s, Locator{Role: "listitem", Name: "Holiday rota"})
	assert.NilError(t, s.Click(del))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "deleted rota"}))

	archive := Locator{Role: "button", Name: "Archive", Within: &Locator{Role: "row", Name: "INV-1002"}}
	hover(t, s, *archive.Within)
	assert.NilError(t, s.Click(archive))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "archived INV-1002"}))
}

// TestOutlineLongList checks that a long list whose items repeat the same
// controls is outlined as a long table is: the first items, then each
// control once with the range of its nth; every one addressable.
func TestOutlineLongList(t *testing.T) {
	s := open(t, "/outline-list")
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Equal(t, out, `page "To do" `+page("/outline-list")+`
main
  h1 "To do"
  list items:30
    item "Task number 1"
    item "Task number 2"
    item "Task number 3"
    … 27 more items; for one item's controls use within:(listitem:"<text in the item>") or nth
    role:checkbox nth:1..30
    button:"Delete" nth:1..30 (hidden until hover: hover its row or item first)`)
	item := Locator{Role: "listitem", Name: "Task number 17"}
	assert.NilError(t, s.Click(Locator{Role: "checkbox", Within: &item}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "toggled Task number 17"}))
	assert.NilError(t, s.Click(Locator{Role: "checkbox", Nth: 18}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "toggled Task number 18"}))
	hover(t, s, item)
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Delete", Within: &item}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "destroyed Task number 17"}))
}

// TestOutlineFrames checks that iframes are listed with the locator
// switch_frame takes and whether they are cross-origin, that a
// same-origin frame's controls are outlined beneath it, and that those
// locators work inside the frame.
func TestOutlineFrames(t *testing.T) {
	s := open(t, "/outline-frames")
	// Frames may still be loading when the page's own load is reported:
	// the outline says so, and is asked again until they are there.
	var out string
	testenv.Eventually(t, "the frames to load", func() bool {
		var err error
		out, err = s.Outline(nil)
		assert.NilError(t, err)
		return !strings.Contains(out, " loading: ")
	})
	t.Log("\n" + out)
	want := []string{
		`  iframe css:#help "Help" same-origin; these locators work after switch_frame {"locator":{"css":"#help"}}:`,
		`    h2 "Need help?"`,
		`    textbox css:input[name=question] "Question"`,
		`    button:"Ask"`,
		// Two frames deep is listed, not opened.
		`    iframe css:iframe[title=Nested] "Nested" same-origin: switch_frame {"locator":{"css":"iframe[title=Nested]"}}, then outline`,
		`  iframe css:iframe[name=pay] "Payment" cross-origin: switch_frame {"locator":{"css":"iframe[name=pay]"}} to act inside`,
		`  button:"Place order"`,
	}
	lines := strings.Split(out, "\n")
	for _, w := range want {
		assert.Check(t, is.Contains(lines, w))
	}
	assert.Check(t, !strings.Contains(out, "Card number"), "a cross-origin frame's content is not readable")

	// The frame locators find one element each; inside the frame, its
	// outlined locators work.
	for _, l := range []Locator{{CSS: "#help"}, {CSS: "iframe[name=pay]"}} {
		assert.NilError(t, resolvesToOne(s, l, false), l.String())
	}
	assert.NilError(t, func() error {
		if err := s.begin(); err != nil {
			return err
		}
		defer s.mu.Unlock()
		el, err := s.resolve(Locator{CSS: "#help"}, false)
		if err != nil {
			return err
		}
		return s.wd.SwitchFrame(el)
	}())
	defer func() { assert.NilError(t, s.wd.SwitchFrame(nil)) }()
	assert.NilError(t, s.Write(Locator{CSS: "input[name=question]"}, "where is my order?", true))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Ask"}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "asked"}))
}

// TestOutlineFixturePagesListed keeps the outline's fixture pages in step
// with fixtures.Pages.
func TestOutlineFixturePagesListed(t *testing.T) {
	for _, p := range fixtures.Pages {
		assert.Check(t, slices.Contains(outlinePages, p), "%s is not outlined in the tests", p)
	}
}
