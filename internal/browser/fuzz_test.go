package browser

import (
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzParseLocator reads any text as a locator, as a caller's locator
// string and a flow step's arguments reach ParseLocator: nothing panics,
// and a locator it accepts is written by String in a form that parses
// back to the same locator — the outline prints locators with String for
// the caller to pass back.
func FuzzParseLocator(f *testing.F) {
	for _, seed := range []string{
		`css:#login`,
		`css:"a b" nth:2`,
		`xpath://a[@href="x"]`,
		`text:"Sign in"`,
		`label:"E-mail \"work\""`,
		`label:"C:\\Users\\ada"`,
		`role:button name:"Sign in" nth:2 within:(css:#login)`,
		`role:link within:(role:list within:(text:"a)b" within:(css:main)))`,
		`role:BUTTON name:'x'`,
		"text:\"a\u0085b\"",
		"css:a\u00a0b",
		"label:\"x\u2028y\"",
		"text:\"\\u2028\\u00a0\\u0085\"",
		"css:x\u0085nth:1",
		`nth:+1 css:a`,
		`css:a within:(css:b)nth:1`,
		`text:"\x00" within:(xpath:.//b)`,
		"css:\"\u00e9 x\"",
		"xpath:\"a\tb\"",
		"role:\" button\"",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLocator(s)
		if err != nil {
			return
		}
		if err := l.Validate(); err != nil {
			t.Fatalf("ParseLocator(%q) accepted %#v, which Validate refuses: %v", s, l, err)
		}
		written := l.String()
		back, err := ParseLocator(written)
		if err != nil {
			t.Fatalf("ParseLocator(%q) = %#v, written %q, which does not parse: %v", s, l, written, err)
		}
		if !reflect.DeepEqual(back, l) {
			t.Fatalf("ParseLocator(%q) = %#v, written %q, reads back as %#v", s, l, written, back)
		}
	})
}

// FuzzValidate checks any locator a caller can send as JSON, nested up to
// eight deep: Validate and String never panic, and a locator Validate
// accepts is written by String in a form ParseLocator reads back to the
// same locator.
func FuzzValidate(f *testing.F) {
	f.Add("#a", "", "", "", "", "", 0, uint8(0))
	f.Add("", "", "", "", "button", "Sign in", 2, uint8(1))
	f.Add("", "", "Sign\u00a0in", "", "", "", -1, uint8(6))
	f.Add("", "//a", "", "", "", "", 0, uint8(0))
	f.Add("a\u00e9b", "", "", "", "", "", 0, uint8(1))
	f.Add("", "", "", "", "Link", "x\u2028", 1, uint8(5))
	f.Add("", "", "", "", "", "orphan name", 0, uint8(2))
	f.Fuzz(func(t *testing.T, css, xpath, text, label, role, name string, nth int, depth uint8) {
		one := Locator{CSS: css, XPath: xpath, Text: text, Label: label, Role: role, Name: name, Nth: nth}
		l := one
		for range depth % 8 {
			inner := l
			l = one
			l.Within = &inner
		}
		err := l.Validate()
		written := l.String()
		if err != nil {
			return
		}
		back, err := ParseLocator(written)
		if err != nil {
			t.Fatalf("Validate accepts %#v, written %q, which does not parse: %v", l, written, err)
		}
		if !reflect.DeepEqual(back, l) {
			t.Fatalf("Validate accepts %#v, written %q, which reads back as %#v", l, written, back)
		}
	})
}

// FuzzParseKey reads any press_key key: nothing panics, and what it
// accepts is modifiers and either a named key of KeyNames or one
// printable character. NUL, control characters and raw WebDriver codes
// (U+E000–U+F8FF) are refused: through them a caller would press keys
// no name stands for.
func FuzzParseKey(f *testing.F) {
	for _, seed := range []string{
		"Enter", "enter", " Tab ", "a", "é", "+", "Control++", "Control+a", "Shift+Tab",
		"ctrl+shift+K", "Meta+ArrowUp", "Alt+", "+a", "Control+Shift", "F12", "Space", " ",
		"Control+\u00a0", "Shift+\u00e9", "\x00", "Control+\x00", "\ue007", "\x80", "\u2028",
	} {
		f.Add(seed)
	}
	names := map[string]string{} // code → name
	for _, k := range keyTable {
		names[k.code] = strings.ToLower(k.name)
	}
	modifierCodes := slices.Collect(maps.Values(modifierNames))
	f.Fuzz(func(t *testing.T, key string) {
		mods, code, err := parseKey(key)
		if err != nil {
			if strings.ContainsRune(err.Error(), 0) {
				t.Fatalf("the refusal of %q carries a NUL: %q", key, err)
			}
			return
		}
		for _, m := range mods {
			if !slices.Contains(modifierCodes, m) {
				t.Fatalf("parseKey(%q) gives the modifier %q", key, m)
			}
		}
		if name, ok := names[code]; ok && strings.Contains(strings.ToLower(key), name) {
			return // a named key, by its name
		}
		r, size := utf8.DecodeRuneInString(code)
		if size != len(code) || r == utf8.RuneError || !unicode.IsGraphic(r) {
			t.Fatalf("parseKey(%q) accepts the key %q, which is neither a named key nor one printable character", key, code)
		}
	})
}
