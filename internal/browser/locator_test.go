package browser

import (
	"encoding/json"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestLocatorValidate(t *testing.T) {
	tests := []struct {
		name string
		loc  Locator
		err  string // "" for valid
	}{
		{"css", Locator{CSS: "#a"}, ""},
		{"xpath", Locator{XPath: "//a"}, ""},
		{"text", Locator{Text: "Sign in"}, ""},
		{"label", Locator{Label: "Email"}, ""},
		{"role", Locator{Role: "button"}, ""},
		{"role and name", Locator{Role: "button", Name: "Sign in", Nth: 2}, ""},
		{"role any case", Locator{Role: "Button"}, ""},
		{"within", Locator{Role: "button", Within: &Locator{CSS: "form"}}, ""},
		{"empty", Locator{}, "a locator needs exactly one of css, xpath, text, label or role (name goes with role; nth and within are optional); none was given"},
		{"blank", Locator{Text: "  "}, "text is blank"},
		{"blank beside another", Locator{CSS: " ", XPath: "//a"}, "css is blank"},
		{"blank name", Locator{Role: "link", Name: "\u2028"}, "name is blank"},
		{"two", Locator{CSS: "a", Text: "b"}, "got css and text"},
		{"name alone", Locator{Name: "x"}, "name was given without role"},
		{"name with css", Locator{CSS: "a", Name: "x"}, "name goes with role only; css was given with name"},
		{"bad role", Locator{Role: "buton"}, `unknown role "buton"; roles include button, link, textbox`},
		{"negative nth", Locator{CSS: "a", Nth: -1}, "nth is 1-based"},
		{"bad within", Locator{CSS: "a", Within: &Locator{}}, "within: a locator needs exactly one"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.loc.Validate()
			if tc.err == "" {
				assert.NilError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.err)
		})
	}
	deep := Locator{CSS: "a"}
	for i := 0; i < 7; i++ {
		w := deep
		deep = Locator{CSS: "b", Within: &w}
	}
	assert.ErrorContains(t, deep.Validate(), "nested more than 5 deep")
}

func TestLocatorStringRoundTrip(t *testing.T) {
	tests := []struct {
		loc  Locator
		want string
	}{
		{Locator{CSS: "#email"}, `css:#email`},
		{Locator{CSS: "form > button.primary"}, `css:"form > button.primary"`},
		{Locator{CSS: "tr:nth-of-type(2)"}, `css:"tr:nth-of-type(2)"`},
		{Locator{XPath: "(//a)[2]"}, `xpath:"(//a)[2]"`},
		{Locator{Text: `Say "hi"`}, `text:"Say \"hi\""`},
		{Locator{Label: "E-mail"}, `label:"E-mail"`},
		{Locator{Role: "button", Name: "Sign in", Nth: 3}, `button:"Sign in" nth:3`},
		{Locator{Role: "button", Name: "Edit", Within: &Locator{Role: "row", Name: "Ada", Within: &Locator{CSS: "#users"}}},
			`button:"Edit" within:(row:"Ada" within:(css:#users))`},
		{Locator{Text: "ünïcødé ✓"}, `text:"ünïcødé ✓"`},
	}
	for _, tc := range tests {
		t.Run(tc.want, func(t *testing.T) {
			assert.Equal(t, tc.loc.String(), tc.want)
			got, err := ParseLocator(tc.want)
			assert.NilError(t, err)
			assert.DeepEqual(t, got, tc.loc)
		})
	}
	// The long form of role and name reads as the short one does; a role
	// of no ARIA name, or a short form beside role or name, does not.
	long, err := ParseLocator(`role:link name:"Add" within:(role:row name:"Groups")`)
	assert.NilError(t, err)
	short, err := ParseLocator(`link:"Add" within:(row:"Groups")`)
	assert.NilError(t, err)
	assert.DeepEqual(t, long, short)
	assert.Equal(t, Locator{Role: "widget", Name: "x"}.String(), `role:widget name:"x"`)
	for _, bad := range []string{`widget:"x"`, `role:link link:"x"`, `link:"x" role:button`, `link:bare`} {
		_, err := ParseLocator(bad)
		assert.Assert(t, err != nil, "ParseLocator(%q) should fail", bad)
	}

	// JSON-style escapes, as the outline script writes them, parse too.
	got, err := ParseLocator(`text:"tab\u0009here"`)
	assert.NilError(t, err)
	assert.Equal(t, got.Text, "tab\there")

	for _, bad := range []string{`css:`, `text:"open`, `button:"x" name:"y"`, `nth:0 css:a`,
		`role:button within:css:a`, `role:button within:(css:a`, `css:a junk`, `nth:1..3 css:a`} {
		_, err := ParseLocator(bad)
		assert.Assert(t, err != nil, "ParseLocator(%q) should fail", bad)
	}
}

func TestLocatorJSON(t *testing.T) {
	var l Locator
	err := json.Unmarshal([]byte(`{"role":"button","name":"Edit","nth":2,"within":{"css":"#users"}}`), &l)
	assert.NilError(t, err)
	assert.DeepEqual(t, l, Locator{Role: "button", Name: "Edit", Nth: 2, Within: &Locator{CSS: "#users"}})
	b, err := json.Marshal(Locator{Label: "Email"})
	assert.NilError(t, err)
	assert.Equal(t, string(b), `{"label":"Email"}`)
}

func TestParseKey(t *testing.T) {
	tests := []struct {
		key  string
		mods int
		code string
	}{
		{"Enter", 0, "\ue007"},
		{"enter", 0, "\ue007"},
		{"ArrowDown", 0, "\ue015"},
		{"a", 0, "a"},
		{"+", 0, "+"},
		{"Control+a", 1, "a"},
		{"Ctrl+Shift+K", 2, "K"},
		{"Shift+Tab", 1, "\ue004"},
		{"Control++", 1, "+"},
	}
	for _, tc := range tests {
		mods, code, err := parseKey(tc.key)
		assert.NilError(t, err, tc.key)
		assert.Equal(t, len(mods), tc.mods, tc.key)
		assert.Equal(t, code, tc.code, tc.key)
	}
	for _, bad := range []string{"", "Enterr", "Hyper+a", "Control+Nope"} {
		_, _, err := parseKey(bad)
		assert.ErrorContains(t, err, "unknown key")
		assert.Assert(t, is.Contains(err.Error(), "Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp"))
	}
	names := KeyNames()
	assert.Assert(t, len(names) > 20)
	assert.Equal(t, names[0], "Enter")
	assert.Assert(t, strings.Contains(strings.Join(names, " "), "PageDown"))
}

func TestLocatorErrorMessages(t *testing.T) {
	loc := Locator{Role: "button", Name: "Save"}
	tests := []struct {
		err  LocatorError
		want string
	}{
		{LocatorError{Locator: loc}, `no element matches button:"Save"; call outline to see the page's controls and their locators`},
		{LocatorError{Locator: loc, Matched: 3}, `3 elements match button:"Save"; add nth (1..3) or within`},
		{LocatorError{Locator: loc, Matched: 2, Nth: 5}, `nth 5 is out of range: button:"Save" matches 2 elements; use nth 1..2`},
		{LocatorError{Locator: loc, Matched: 1, Hidden: true}, `button:"Save" matches only hidden element`},
		{LocatorError{Locator: Locator{CSS: "#f"}, Within: true}, `the within locator failed: no element matches css:#f`},
		{LocatorError{Locator: Locator{CSS: "a[", Nth: 0}, Invalid: "invalid css selector"}, `css:a[: invalid css selector`},
	}
	for _, tc := range tests {
		assert.Assert(t, is.Contains(tc.err.Error(), tc.want))
	}
}

func TestLocatorErrorSuggestions(t *testing.T) {
	e := LocatorError{Locator: Locator{Role: "button", Name: "Yes, I am sure"},
		Suggestions: []string{`button:"Yes, I’m sure"`, `link:"Yes"`}}
	assert.Equal(t, e.Error(), `no element matches button:"Yes, I am sure"; nearest on the page: `+
		`button:"Yes, I’m sure", link:"Yes" (or call outline to see the page's controls and their locators)`)
}

// TestGeneratedIDs checks which ids the outline takes for generated ones
// and never offers as locators.
func TestGeneratedIDs(t *testing.T) {
	s := open(t, "/controls")
	tests := []struct {
		id        string
		generated bool
	}{
		{"pY4JQAQ=", true},             // base64
		{"ember1234", true},            // Ember
		{":r1:", true},                 // React useId
		{"react-select-5-input", true}, // react-select
		{"mui-12", true},
		{"a3f9c2d81b0e", true},                         // hex
		{"550e8400-e29b-41d4-a716-446655440000", true}, // UUID
		{"V1StGXR8_Z5jdHi6B-myT", true},                // nanoid
		{"Qw-42a_Zk", true},
		{"order-20261203", true}, // a long number
		{"email", false},
		{"id_username", false}, // Django
		{"draft-1", false},
		{"s1", false},
		{"login-error", false},
		{"user-42", false},
		{"myButton2", false},
		{"section3", false},
		{"id_form-0-title", false}, // Django formsets
		{"block__title", false},    // BEM, no digits
		// Made up by the /generated fixture, once missed: one case
		// throughout, digits inside letters, separators no person types.
		{"zts13umyi", true},
		{"PS419CNYX", true},
		{"6-819fWou", true},
		{"2T820MPLM", true},
		{"XWM247_9G", true},
		{"dtk92_ll_", true},
		{"fs882__1i", true},
		{"K_027F-PN", true},
	}
	ids := make([]string, len(tests))
	for i, tc := range tests {
		ids[i] = tc.id
	}
	var got []bool
	assert.NilError(t, func() error {
		if err := s.begin(); err != nil {
			return err
		}
		defer s.mu.Unlock()
		return s.script("generatedIds", map[string]any{"ids": ids}, nil, &got)
	}())
	assert.Equal(t, len(got), len(tests))
	for i, tc := range tests {
		assert.Check(t, got[i] == tc.generated, "%q: generated %v, want %v", tc.id, got[i], tc.generated)
	}
}
