package browser

import (
	"net/url"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestExposure: what a page shows of a typed secret is gathered from its
// markup, title, URL, storage and the values of fields no secret was
// typed into, never from the field the secret was typed into, which only
// counts as filled.
func TestExposure(t *testing.T) {
	s := shared(t)
	page := `<title>Join banner-title</title><p data-x="attr-mark">text-mark</p>` +
		`<label>Code <input id=code></label><label>Nick <input id=nick></label>` +
		`<script>try { sessionStorage.setItem('k', 'stored-mark'); } catch (e) {}</script>`
	assert.NilError(t, s.Navigate("data:text/html,"+url.PathEscape(page)))
	const secret = "Zq9rTx42pW"
	assert.NilError(t, s.WriteSecret(Locator{CSS: "#code"}, secret, true))
	assert.NilError(t, s.Write(Locator{CSS: "#nick"}, "typed-mark", true))
	assert.Check(t, s.SecretTyped())

	e, err := s.Exposure()
	assert.NilError(t, err)
	for _, want := range []string{"banner-title", "attr-mark", "text-mark", "typed-mark", "data:text/html"} {
		assert.Check(t, is.Contains(e.Text, want))
	}
	assert.Check(t, !strings.Contains(e.Text, secret), "the secret field's value was gathered")
	assert.Check(t, e.SecretFilled)
	assert.Check(t, !e.Cut)
}

// TestExactNames: while names must match exactly, a role name, a label or
// an option text that is only part of an element's matches nothing; the
// whole one still matches.
func TestExactNames(t *testing.T) {
	s := shared(t)
	page := `<h2>Results for abc</h2><label>Query text <input id=q></label><select id=s><option>alpha beta</option><option>gamma</option></select>`
	assert.NilError(t, s.Navigate("data:text/html,"+url.PathEscape(page)))
	t.Cleanup(func() { s.SetExactNames(false) })

	part, whole := Locator{Role: "heading", Name: "Results for a"}, Locator{Role: "heading", Name: "results for ABC"}
	assert.NilError(t, s.Assert(Assertion{Visible: &part}), "a part matches by default")
	s.SetExactNames(true)
	assert.Check(t, s.Assert(Assertion{Visible: &part}) != nil, "a part matches while names must be whole")
	assert.Check(t, s.Assert(Assertion{Visible: &whole}))
	assert.Check(t, s.Write(Locator{Label: "Query"}, "x", true) != nil, "a part of a label matches")
	assert.Check(t, s.Write(Locator{Label: "Query text"}, "x", true))
	assert.Check(t, s.Select(Locator{CSS: "#s"}, "alpha") != nil, "a part of an option text matches")
	assert.Check(t, s.Select(Locator{CSS: "#s"}, "gamma"))
}
