package browser

import (
	"context"
	"errors"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestTypographicMatching checks that text, labels and names match
// whatever quotes, dashes, spacing and case the caller typed.
func TestTypographicMatching(t *testing.T) {
	s := open(t, "/generated")
	for _, tc := range []struct {
		name string
		a    Assertion
	}{
		{"straight apostrophe finds a curly one", Assertion{TextPresent: "Yes, I'm sure"}},
		{"hyphen finds an em dash", Assertion{TextPresent: "then confirm - this cannot be undone"}},
		{"spacing and case", Assertion{TextPresent: "ARCHIVE  the paid\u00a0invoices"}},
		{"text locator", Assertion{Visible: &Locator{Text: "yes, i'm sure"}}},
		{"name", Assertion{Count: &Locator{Role: "button", Name: "Yes, I'm sure"}, Equals: 1}},
		{"another typographic apostrophe", Assertion{Visible: &Locator{Role: "button", Name: "Yes, I‘m sure"}}},
	} {
		t.Run(tc.name, func(t *testing.T) { assert.NilError(t, s.Assert(tc.a)) })
	}
	assert.NilError(t, s.Click(Locator{Role: "button", Name: `Yes, I'm sure`}))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "confirmed"}))
}

// TestLocatorSuggestions checks that a locator matching nothing suggests
// the nearest candidates of its kind, each a locator that works.
func TestLocatorSuggestions(t *testing.T) {
	s := open(t, "/generated")
	for _, tc := range []struct {
		loc  Locator
		want string
	}{
		{Locator{Role: "button", Name: "Yes, I am sure"}, `button:"Yes, I’m sure"`},
		{Locator{Label: "Serch invoices"}, `label:"Search invoices"`},
		{Locator{Text: "Quartely report"}, `text:"Quarterly report"`},
		{Locator{Role: "button", Name: "Edit"}, `link:"Edit"`}, // a link, not a button
		{Locator{Role: "button", Name: "Delete", Within: &Locator{Role: "listitem", Name: "Quarterly report"}}, ""},
	} {
		t.Run(tc.loc.String(), func(t *testing.T) {
			err := s.Click(tc.loc)
			var le *LocatorError
			assert.Assert(t, errors.As(err, &le), "%v", err)
			if tc.want == "" { // only hidden matches: nothing to suggest
				assert.Check(t, le.Hidden)
				assert.Check(t, is.Len(le.Suggestions, 0))
				return
			}
			assert.Equal(t, le.Matched, 0)
			assert.Assert(t, len(le.Suggestions) > 0 && len(le.Suggestions) <= 3, "%v", le.Suggestions)
			assert.Equal(t, le.Suggestions[0], tc.want)
			assert.ErrorContains(t, err, "; nearest on the page: "+tc.want)
			// The suggestion is a locator that finds something.
			sug, err := ParseLocator(le.Suggestions[0])
			assert.NilError(t, err)
			n, err := s.Count(sug)
			assert.NilError(t, err)
			assert.Check(t, n > 0, sug.String())
		})
	}
	// Within a row, the suggestion is searched for in that row.
	err := s.Click(Locator{Role: "link", Name: "Edt", Within: &Locator{Role: "row", Name: "INV-1001"}})
	assert.ErrorContains(t, err, `no element matches link:"Edt" within:(row:"INV-1001"); nearest on the page: link:"Edit"`)
	// A within that fails is reported as such, with its own suggestions.
	err = s.Click(Locator{Role: "link", Name: "Edit", Within: &Locator{Role: "row", Name: "INV-1009"}})
	assert.ErrorContains(t, err, `the within locator failed: no element matches row:"INV-1009"; nearest on the page: row:"`)
}

// TestFailuresShowThePage checks that wait_for and assert failures say what
// the page has instead: the closest texts, the page's title and URL, and
// the count found.
func TestFailuresShowThePage(t *testing.T) {
	s := open(t, "/generated")
	ctx := context.Background()
	err := s.WaitFor(ctx, Condition{Text: "Quartely report", Locator: &Locator{Label: "Serch invoices"}}, 300*time.Millisecond)
	assert.Assert(t, errors.Is(err, ErrTimeout))
	assert.ErrorContains(t, err, `at the end label:"Serch invoices" matches no element; nearest on the page: label:"Search invoices"; `+
		`the text "Quartely report" is not on the page (closest on the page: "Quarterly report"`)
	assert.ErrorContains(t, err, `; the page is "Invoices" at `+page("/generated")+`. Call outline to see what the page has, or wait_for again with a longer timeout`)

	err = s.Assert(Assertion{TextPresent: "Yes, I am sure"})
	var ae *AssertionError
	assert.Assert(t, errors.As(err, &ae))
	assert.Equal(t, ae.Failures[0], `the text "Yes, I am sure" is not on the page (closest on the page: "Yes, I’m sure")`)
	assert.Equal(t, ae.Page, `the page is "Invoices" at `+page("/generated"))

	// count honours nth and within.
	edit := Locator{Role: "link", Name: "Edit"}
	for _, tc := range []struct {
		loc    Locator
		equals int
		fail   string
	}{
		{edit, 5, ""},
		{Locator{Role: "link", Name: "Edit", Nth: 3}, 1, ""},
		{Locator{Role: "link", Name: "Edit", Nth: 9}, 0, ""},
		{Locator{Role: "link", Name: "Edit", Nth: 9}, 1, `expected link:"Edit" nth:9 to match 1 element, found 0: it matches 5 elements, fewer than nth 9`},
		{Locator{Role: "checkbox", Within: &Locator{Role: "row", Name: "INV-1002"}}, 1, ""},
		{Locator{Role: "checkbox", Within: &Locator{Role: "row", Name: "INV-1009"}}, 1,
			`expected role:checkbox within:(row:"INV-1009") to match 1 element, found 0: the within locator failed: no element matches row:"INV-1009"`},
		{Locator{Role: "button", Name: "Archive"}, 5, `expected button:"Archive" to match 5 elements, found 0: it matches only hidden elements (5)`},
	} {
		t.Run(tc.loc.String(), func(t *testing.T) {
			err := s.Assert(Assertion{Count: &tc.loc, Equals: tc.equals})
			if tc.fail == "" {
				assert.NilError(t, err)
				return
			}
			var ae *AssertionError
			assert.Assert(t, errors.As(err, &ae), "%v", err)
			assert.Assert(t, is.Contains(ae.Failures[0], tc.fail))
		})
	}
}
