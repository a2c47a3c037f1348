package browser

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// scriptCalls returns the sizes of the execute/sync bodies traced.
func scriptCalls(tr *testenv.WebDriverRecorder) []int64 {
	var out []int64
	for _, c := range tr.Sent() {
		if c.Command() == "POST /execute/sync" {
			out = append(out, int64(len(c.Body)))
		}
	}
	return out
}

// full tells a body that carries the page script from one with the stub.
func full(n int64) bool { return n > int64(len(pageJS)) }

// TestScriptIsCachedInTheDocument: the page script is sent once per
// document; later calls send the stub, and the stub finding no runner (a
// reload the session did not ask for, a page that took the name, replaced
// the runner or holds another version) makes the full script go again,
// with the same result.
func TestScriptIsCachedInTheDocument(t *testing.T) {
	s := open(t, "/controls")
	tr := testenv.RecordWebDriver(t)
	tr.Start()
	count := func() int {
		t.Helper()
		n, err := s.Count(Locator{Role: "button"})
		assert.NilError(t, err)
		return n
	}
	want := count() // the first call after Navigate sends the script
	calls := scriptCalls(tr)
	assert.Assert(t, is.Len(calls, 1))
	assert.Check(t, full(calls[0]), "first call: %d bytes", calls[0])
	v, err := s.wd.ExecuteScript("return window.__seleniumFlow && window.__seleniumFlow.v", nil)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(v, scriptVersion))
	keys, err := s.wd.ExecuteScript("return Object.keys(window).includes('__seleniumFlow')", nil)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(keys, false), "the runner is not enumerable")

	tr.Start()
	assert.Equal(t, count(), want)
	calls = scriptCalls(tr)
	assert.Assert(t, is.Len(calls, 1))
	assert.Check(t, !full(calls[0]), "cached call: %d bytes", calls[0])

	for _, c := range []struct{ name, js string }{
		{"reload", "window.__before = true; location.reload(); return true"},
		{"foreign object", "window.__seleniumFlow = {v: 'other', run: function () { return 42; }}; return true"},
		{"stale version", "window.__seleniumFlow = {v: 'f00ba12f00ba12f0', run: window.__seleniumFlow.run}; return true"},
		{"not an object", "window.__seleniumFlow = 7; return true"},
		{"throwing getter", "Object.defineProperty(window, '__seleniumFlow', {get: function () { throw new Error('mine'); }, configurable: true}); return true"},
		{"deleted", "delete window.__seleniumFlow; return true"},
	} {
		_, err := s.wd.ExecuteScript(c.js, nil)
		assert.NilError(t, err, c.name)
		if c.name == "reload" {
			waitNewDocument(t, s)
		}
		tr.Start()
		assert.Check(t, is.Equal(count(), want), c.name)
		calls = scriptCalls(tr)
		if assert.Check(t, is.Len(calls, 2), c.name) {
			assert.Check(t, !full(calls[0]) && full(calls[1]), "%s: %v", c.name, calls)
		}
		tr.Start()
		assert.Check(t, is.Equal(count(), want), c.name)
		calls = scriptCalls(tr)
		assert.Check(t, is.Len(calls, 1), "%s: cached again: %v", c.name, calls)
	}

	// A page that made the name its own for good keeps it; every call
	// then sends the full script, and still works.
	_, err = s.wd.ExecuteScript("Object.defineProperty(window, '__seleniumFlow', {value: 'mine', configurable: false}); return true", nil)
	assert.NilError(t, err)
	for range 2 {
		assert.Check(t, is.Equal(count(), want))
	}
	v, err = s.wd.ExecuteScript("return window.__seleniumFlow", nil)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(v, "mine"))
}

// waitNewDocument waits until a document without window.__before has
// loaded.
func waitNewDocument(t *testing.T, s *Session) {
	t.Helper()
	testenv.Eventually(t, "the page to reload", func() bool {
		v, err := s.wd.ExecuteScript("return !window.__before && document.readyState === 'complete'", nil)
		return err == nil && v == true
	})
}

// TestCachedScriptKeepsElements: elements found through the cached script
// are the page's elements, usable by WebDriver, and the state page.js
// computes does not outlive a call.
func TestCachedScriptKeepsElements(t *testing.T) {
	s := open(t, "/controls")
	for round := range 3 {
		assert.NilError(t, s.Click(Locator{Role: "button", Name: "Save", Within: &Locator{CSS: "#draft-2"}}), "round %d", round)
		assert.NilError(t, s.Assert(Assertion{Visible: &Locator{Text: "saved second"}}))
		assert.NilError(t, s.Select(Locator{Label: "Size"}, "Large"))
		assert.NilError(t, s.Assert(Assertion{Visible: &Locator{Text: "Chosen size: l"}}))
		assert.NilError(t, s.Select(Locator{Label: "Size"}, "Small"))
	}
	// A button added between calls is seen by the next one (no stale
	// element lists from an earlier call).
	n, err := s.Count(Locator{Role: "button", Name: "Continue"})
	assert.NilError(t, err)
	assert.Equal(t, n, 0)
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Start"}))
	assert.NilError(t, s.WaitFor(t.Context(), Condition{Locator: &Locator{Role: "button", Name: "Continue"}}, 0))
	n, err = s.Count(Locator{Role: "button", Name: "Continue"})
	assert.NilError(t, err)
	assert.Equal(t, n, 1)
	// After navigating away, elements resolve in the new document.
	assert.NilError(t, s.Navigate(page("/login")))
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "x@y.z", true))
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Check(t, is.Contains(out, `value:"x@y.z"`))
}

// TestMarkBodyInPageJS: Click's lookup marks the document with the same
// code as markScript.
func TestMarkBodyInPageJS(t *testing.T) {
	for _, line := range strings.Split(markBody, "\n") {
		assert.Check(t, is.Contains(pageJS, "\n  "+line+"\n"))
	}
}

// TestWriteClearsOnlyWhenClearChangesSomething: Write leaves out
// WebDriver's Clear for an empty text field in view, where it would do
// nothing, and sends it otherwise; the outcome is the same either way.
func TestWriteClearsOnlyWhenClearChangesSomething(t *testing.T) {
	s := open(t, "/login")
	tr := testenv.RecordWebDriver(t)
	tr.Start()
	cleared := func() bool {
		for _, c := range tr.Sent() {
			if strings.HasSuffix(c.Command(), "/clear") {
				return true
			}
		}
		return false
	}
	value := func(id string) string {
		t.Helper()
		v, err := s.wd.ExecuteScript("return document.getElementById(arguments[0]).value", []any{id})
		assert.NilError(t, err)
		str, _ := v.(string)
		return str
	}
	// Empty and in view: no Clear.
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "ada@example.com", true))
	assert.Check(t, !cleared())
	assert.Check(t, is.Equal(value("email"), "ada@example.com"))
	// Not empty: Clear.
	tr.Start()
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "bob@example.com", true))
	assert.Check(t, cleared())
	assert.Check(t, is.Equal(value("email"), "bob@example.com"))

	// Fields where Clear is sent although they are empty: it may scroll,
	// fail, or (number) focus.
	_, err := s.wd.ExecuteScript(`document.body.insertAdjacentHTML('afterbegin',
		'<input id="ro" aria-label="Read only" readonly>' +
		'<input id="num" type="number" aria-label="Amount">');
		document.body.insertAdjacentHTML('beforeend', '<div style="height:3000px"></div><textarea id="far" aria-label="Far away"></textarea>');
		return true`, nil)
	assert.NilError(t, err)
	for _, c := range []struct {
		label, id, text string
		fails           bool
	}{
		{"Read only", "ro", "abc", true},
		{"Amount", "num", "42", false},
		{"Far away", "far", "far text", false},
	} {
		tr.Start()
		err := s.Write(Locator{Label: c.label}, c.text, true)
		assert.Check(t, cleared(), c.label)
		if c.fails {
			assert.Check(t, err != nil, c.label)
		} else {
			assert.Check(t, err, c.label)
			assert.Check(t, is.Equal(value(c.id), c.text), c.label)
		}
	}
	// Without clear there is never a Clear.
	tr.Start()
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "!", false))
	assert.Check(t, !cleared())
	assert.Check(t, is.Equal(value("email"), "bob@example.com!"))
}
