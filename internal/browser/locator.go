package browser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Locator addresses an element of the page. Exactly one of CSS, XPath,
// Text, Label and Role is set; Name narrows Role.
//
// Text, Label and Name compare case-insensitively with whitespace
// normalised and typographic quotes, dashes and the ellipsis taken as their
// plain forms (I’m matches I'm): an element whose string equals the one
// given is preferred; if there is none, elements whose string contains it
// match. Only visible elements count, except that when nothing visible
// matches, hidden matches are reported (and accepted by Upload). A locator
// that matches nothing fails with a *LocatorError naming the nearest
// candidates on the page.
type Locator struct {
	// CSS is a CSS selector.
	CSS string `json:"css,omitempty"`
	// XPath is an XPath expression; under Within it is evaluated with the
	// within element as the context node (start it with "." to stay inside).
	XPath string `json:"xpath,omitempty"`
	// Text matches the innermost elements whose visible text contains it.
	Text string `json:"text,omitempty"`
	// Label matches form controls by their <label>, aria-label,
	// aria-labelledby, placeholder or title.
	Label string `json:"label,omitempty"`
	// Role matches elements by ARIA role, explicit or implicit (a[href] is
	// a link, <button> a button, <input type=checkbox> a checkbox …).
	Role string `json:"role,omitempty"`
	// Name narrows Role to elements with this accessible name.
	Name string `json:"name,omitempty"`
	// Within limits the search to inside the one element it resolves to.
	Within *Locator `json:"within,omitempty"`
	// Nth picks the nth match (1-based). Without it, exactly one element
	// must match.
	Nth int `json:"nth,omitempty"`
}

const maxWithinDepth = 5

// Validate reports whether the locator is well formed: exactly one of css,
// xpath, text, label and role; name only with role; a known role; nth not
// negative; and a valid within.
func (l Locator) Validate() error {
	return l.validate(0)
}

func (l Locator) validate(depth int) error {
	var set []string
	for _, f := range []struct{ name, v string }{
		{"css", l.CSS}, {"xpath", l.XPath}, {"text", l.Text}, {"label", l.Label}, {"role", l.Role},
	} {
		if f.v == "" {
			continue
		}
		if strings.TrimSpace(f.v) == "" {
			return fmt.Errorf("%s is blank; give it a value, or leave it out", f.name)
		}
		set = append(set, f.name)
	}
	if l.Name != "" && strings.TrimSpace(l.Name) == "" {
		return errors.New("name is blank; give the accessible name, or leave name out")
	}
	const allowed = "a locator needs exactly one of css, xpath, text, label or role " +
		"(name goes with role; nth and within are optional)"
	switch {
	case len(set) == 0 && strings.TrimSpace(l.Name) != "":
		return fmt.Errorf("%s; name was given without role", allowed)
	case len(set) == 0:
		return fmt.Errorf("%s; none was given", allowed)
	case len(set) > 1:
		return fmt.Errorf("%s; got %s", allowed, strings.Join(set, " and "))
	}
	if l.Name != "" && l.Role == "" {
		return fmt.Errorf("name goes with role only; %s was given with name", set[0])
	}
	if l.Role != "" && !knownRoles[strings.ToLower(strings.TrimSpace(l.Role))] {
		return fmt.Errorf("unknown role %q; roles include %s", l.Role, strings.Join(commonRoles, ", "))
	}
	if l.Nth < 0 {
		return fmt.Errorf("nth is 1-based and cannot be %d", l.Nth)
	}
	if l.Within != nil {
		if depth >= maxWithinDepth {
			return fmt.Errorf("within is nested more than %d deep", maxWithinDepth)
		}
		if err := l.Within.validate(depth + 1); err != nil {
			return fmt.Errorf("within: %w", err)
		}
	}
	return nil
}

var commonRoles = []string{
	"button", "link", "textbox", "searchbox", "checkbox", "radio", "switch", "combobox", "listbox", "option",
	"slider", "spinbutton", "heading", "img", "list", "listitem", "table", "row", "cell", "columnheader",
	"rowheader", "tab", "tabpanel", "menu", "menuitem", "dialog", "alert", "status", "navigation", "main",
	"banner", "contentinfo", "complementary", "form", "search", "region", "group", "article", "paragraph",
}

var knownRoles = func() map[string]bool {
	m := map[string]bool{}
	for _, r := range strings.Fields(`alert alertdialog application article banner blockquote button caption cell
		checkbox columnheader combobox complementary contentinfo definition dialog directory document feed figure
		form grid gridcell group heading img link list listbox listitem log main marquee math menu menubar menuitem
		menuitemcheckbox menuitemradio meter navigation note option paragraph progressbar radio radiogroup region row
		rowgroup rowheader scrollbar search searchbox separator slider spinbutton status switch tab table tablist
		tabpanel term textbox timer toolbar tooltip tree treegrid treeitem`) {
		m[r] = true
	}
	return m
}()

// bare writes a value without quotes when ParseLocator reads it back
// whole: no space of any kind (the parser splits on unicode.IsSpace), no
// quote or parenthesis.
func bare(s string) string {
	plain := s != "" && utf8.ValidString(s) && !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || r == '"' || r == '(' || r == ')'
	})
	if plain {
		return s
	}
	return strconv.Quote(s)
}

// String formats the locator in the syntax the outline uses and
// ParseLocator reads, for example
//
//	button:"Sign in" nth:2 within:(css:#login)
//
// where button:"Sign in" is short for role:button name:"Sign in".
func (l Locator) String() string {
	var b strings.Builder
	switch {
	case l.CSS != "":
		b.WriteString("css:" + bare(l.CSS))
	case l.XPath != "":
		b.WriteString("xpath:" + bare(l.XPath))
	case l.Text != "":
		b.WriteString("text:" + strconv.Quote(l.Text))
	case l.Label != "":
		b.WriteString("label:" + strconv.Quote(l.Label))
	case l.Role != "" && l.Name != "" && knownRoles[l.Role]:
		// The short form: link:"Sign in" for role:link name:"Sign in".
		b.WriteString(l.Role + ":" + strconv.Quote(l.Name))
	case l.Role != "":
		b.WriteString("role:" + bare(l.Role))
	}
	if l.Name != "" && !(l.Role != "" && knownRoles[l.Role] && l.CSS == "" && l.XPath == "" && l.Text == "" && l.Label == "") {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("name:" + strconv.Quote(l.Name))
	}
	if l.Nth != 0 {
		fmt.Fprintf(&b, " nth:%d", l.Nth)
	}
	if l.Within != nil {
		b.WriteString(" within:(" + l.Within.String() + ")")
	}
	if b.Len() == 0 {
		return "(empty locator)"
	}
	return strings.TrimPrefix(b.String(), " ")
}

// ParseLocator reads a locator written as in the outline:
// space-separated key:value pairs with keys css, xpath, text, label, role,
// name, nth and within, or ROLE:"name" (a known ARIA role) for role and
// name together. Values are either quoted (Go or JSON escapes) or
// bare up to the next space; within takes a parenthesised locator.
func ParseLocator(s string) (Locator, error) {
	l, rest, err := parseLocator(s, false)
	if err != nil {
		return Locator{}, err
	}
	if strings.TrimSpace(rest) != "" {
		return Locator{}, fmt.Errorf("parse locator: unexpected %q", rest)
	}
	if err := l.Validate(); err != nil {
		return Locator{}, err
	}
	return l, nil
}

// parseLocator parses key:value pairs until the input ends, an unknown key
// or, when nested, a closing parenthesis. It returns the unparsed rest.
func parseLocator(s string, nested bool) (Locator, string, error) {
	var l Locator
	seen := map[string]bool{}
	for {
		s = strings.TrimLeftFunc(s, unicode.IsSpace)
		if s == "" || (nested && s[0] == ')') {
			return l, s, nil
		}
		i := strings.IndexByte(s, ':')
		if i <= 0 {
			return l, s, nil
		}
		key := s[:i]
		switch key {
		case "css", "xpath", "text", "label", "role", "name", "nth", "within":
		default:
			// ROLE:"name" is short for role:ROLE name:"name".
			if !knownRoles[key] || !strings.HasPrefix(s[i+1:], `"`) || seen["role"] || seen["name"] {
				return l, s, nil
			}
			v, rest, err := value(s[i+1:], nested)
			if err != nil {
				return l, s, fmt.Errorf("parse locator: %s: %w", key, err)
			}
			seen["role"], seen["name"] = true, true
			l.Role, l.Name, s = key, v, rest
			continue
		}
		if seen[key] {
			return l, s, fmt.Errorf("parse locator: %s is given twice", key)
		}
		seen[key] = true
		s = s[i+1:]
		if key == "within" {
			if !strings.HasPrefix(s, "(") {
				return l, s, errors.New("parse locator: within takes a locator in parentheses, e.g. within:(css:#form)")
			}
			w, rest, err := parseLocator(s[1:], true)
			if err != nil {
				return l, s, err
			}
			if !strings.HasPrefix(rest, ")") {
				return l, s, errors.New("parse locator: within:( is not closed")
			}
			l.Within = &w
			s = rest[1:]
			continue
		}
		v, rest, err := value(s, nested)
		if err != nil {
			return l, s, fmt.Errorf("parse locator: %s: %w", key, err)
		}
		s = rest
		switch key {
		case "css":
			l.CSS = v
		case "xpath":
			l.XPath = v
		case "text":
			l.Text = v
		case "label":
			l.Label = v
		case "role":
			l.Role = v
		case "name":
			l.Name = v
		case "nth":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return l, s, fmt.Errorf("parse locator: nth must be a number from 1 up, not %q", v)
			}
			l.Nth = n
		}
	}
}

func value(s string, nested bool) (v, rest string, err error) {
	if strings.HasPrefix(s, `"`) {
		// Find the closing quote, honouring backslash escapes.
		for i := 1; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				v, err := strconv.Unquote(s[:i+1])
				if err != nil {
					return "", s, errors.New("bad quoted value")
				}
				return v, s[i+1:], nil
			}
		}
		return "", s, errors.New("unterminated quoted value")
	}
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		end = len(s)
	}
	v = s[:end]
	if nested {
		if i := strings.IndexByte(v, ')'); i >= 0 {
			v = v[:i]
			end = i
		}
	}
	if v == "" {
		return "", s, errors.New("empty value")
	}
	return v, s[end:], nil
}

// locatorAt returns the locator at within-depth d of l (0 is l itself).
func locatorAt(l Locator, d int) Locator {
	for i := 0; i < d && l.Within != nil; i++ {
		l = *l.Within
	}
	return l
}

// KeyNames returns the names of the keys PressKey accepts, in a fixed order.
// Keys may be combined with modifiers as in "Control+a" or "Shift+Tab".
func KeyNames() []string {
	out := make([]string, len(keyTable))
	for i, k := range keyTable {
		out[i] = k.name
	}
	return out
}

type namedKey struct {
	name, code string
}

// keyTable holds the named keys with their WebDriver code points.
var keyTable = []namedKey{
	{"Enter", "\ue007"}, {"Tab", "\ue004"}, {"Escape", "\ue00c"}, {"Backspace", "\ue003"}, {"Delete", "\ue017"},
	{"Space", " "}, {"ArrowUp", "\ue013"}, {"ArrowDown", "\ue015"}, {"ArrowLeft", "\ue012"}, {"ArrowRight", "\ue014"},
	{"Home", "\ue011"}, {"End", "\ue010"}, {"PageUp", "\ue00e"}, {"PageDown", "\ue00f"}, {"Insert", "\ue016"},
	{"F1", "\ue031"}, {"F2", "\ue032"}, {"F3", "\ue033"}, {"F4", "\ue034"}, {"F5", "\ue035"}, {"F6", "\ue036"},
	{"F7", "\ue037"}, {"F8", "\ue038"}, {"F9", "\ue039"}, {"F10", "\ue03a"}, {"F11", "\ue03b"}, {"F12", "\ue03c"},
	{"Shift", "\ue008"}, {"Control", "\ue009"}, {"Alt", "\ue00a"}, {"Meta", "\ue03d"},
}

var modifierNames = map[string]string{
	"shift": "\ue008", "control": "\ue009", "ctrl": "\ue009", "alt": "\ue00a", "meta": "\ue03d", "cmd": "\ue03d",
}

// parseKey turns "Enter", "a" or "Control+Shift+K" into modifier codes and
// a key code.
func parseKey(key string) (mods []string, code string, err error) {
	bad := func() error {
		return fmt.Errorf("unknown key %q; use one of %s, or a single character, optionally after modifiers "+
			"as in \"Control+a\" or \"Shift+Tab\" (modifiers: Shift, Control, Alt, Meta)", key, strings.Join(KeyNames(), ", "))
	}
	if key == "" {
		return nil, "", bad()
	}
	parts := []string{key}
	if len([]rune(key)) > 1 && strings.Contains(key, "+") {
		parts = strings.Split(key, "+")
		if strings.HasSuffix(key, "++") { // "Control++"
			parts = append(parts[:len(parts)-2], "+")
		}
	}
	last := parts[len(parts)-1]
	for _, m := range parts[:len(parts)-1] {
		c, ok := modifierNames[strings.ToLower(strings.TrimSpace(m))]
		if !ok {
			return nil, "", bad()
		}
		mods = append(mods, c)
	}
	// One printable character; NUL, control characters, invalid bytes and
	// WebDriver's private-use key codes (U+E000…) are no character a
	// caller may press by itself: named keys have names.
	if r, size := utf8.DecodeRuneInString(last); size == len(last) && r != utf8.RuneError && unicode.IsGraphic(r) {
		return mods, last, nil
	}
	for _, k := range keyTable {
		if strings.EqualFold(k.name, strings.TrimSpace(last)) {
			return mods, k.code, nil
		}
	}
	return nil, "", bad()
}
