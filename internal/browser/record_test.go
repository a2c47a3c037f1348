package browser

import (
	"errors"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestPreferred: a locator the agent typed by hand — a generated id, a
// positional css path — becomes the locator outline offers for the same
// element, which finds it again.
func TestPreferred(t *testing.T) {
	s := open(t, "/generated")
	html, err := s.PageHTML()
	assert.NilError(t, err)
	id := htmlIDRE.FindStringSubmatch(html[strings.Index(html, "<input id="):])[1]
	for _, tc := range []struct {
		name string
		loc  Locator
	}{
		{"generated id", Locator{CSS: "#" + id}},
		{"test id", Locator{CSS: "form button"}},
		{"ember link", Locator{XPath: "//nav/a[1]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pref, u, err := s.Preferred(tc.loc)
			assert.NilError(t, err)
			assert.Check(t, is.Contains(u, "/generated"))
			t.Logf("%s → %s", tc.loc, pref)
			assert.Check(t, pref.CSS == "" || !strings.Contains(pref.CSS, id), "generated id kept: %s", pref)
			assert.Check(t, !strings.Contains(pref.String(), "ember"), "generated id kept: %s", pref)
			n, err := s.Count(pref)
			assert.NilError(t, err)
			assert.Check(t, is.Equal(n, 1), "%s", pref)
		})
	}
	_, _, err = s.Preferred(Locator{Label: "No such field"})
	var le *LocatorError
	assert.Check(t, errors.As(err, &le), "%v", err)
}

// TestSimilar: after a step looked for a control the page does not have,
// the closest controls come back with locators that work.
func TestSimilar(t *testing.T) {
	s := open(t, "/login")
	pc, err := s.Similar(&Locator{Role: "button", Name: "Sign-on"}, 3)
	assert.NilError(t, err)
	assert.Check(t, is.Contains(pc.URL, "/login"))
	assert.Assert(t, len(pc.Controls) > 0)
	assert.Check(t, is.Equal(pc.Controls[0].Name, "Sign in"), "%+v", pc.Controls)
	for _, c := range pc.Controls {
		l, err := ParseLocator(c.Locator)
		assert.NilError(t, err, c.Locator)
		n, err := s.Count(l)
		assert.NilError(t, err)
		assert.Check(t, is.Equal(n, 1), c.Locator)
	}
	pc, err = s.Similar(nil, 2)
	assert.NilError(t, err)
	assert.Check(t, is.Len(pc.Controls, 2))
	pc, err = s.Similar(&Locator{Text: "Sign in to you account"}, 2)
	assert.NilError(t, err)
	assert.Assert(t, len(pc.Controls) > 0)
	assert.Check(t, is.Equal(pc.Controls[0].Role, "text"), "%+v", pc.Controls)
}
