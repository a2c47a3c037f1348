package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"slices"
	"strings"
	"unicode/utf8"
)

// MinRedactLength is the shortest value, in characters, that Redact
// replaces. A shorter value (a two-digit PIN, "abc") is as common in
// ordinary text as a word or a number: replacing it would blank page
// numbers, prices and words all over every result and tell the model
// where the value is, so it is typed but not redacted.
const MinRedactLength = 4

// MinFragmentLength is the shortest piece of a value, in characters, that
// Redact replaces on its own (see the package documentation, Redaction).
const MinFragmentLength = 6

// minBase64Stable is the shortest base64 text, in characters, redacted for
// a value seen in the middle of a longer base64 text: shorter runs would
// turn up by chance in any large base64 blob (an image, a token).
const minBase64Stable = 8

// encodings returns the ways the value v shows up in text, each at least
// MinRedactLength characters long and deduplicated; fragments are the forms
// whose pieces are redacted too. A value shorter than MinRedactLength has
// none.
func encodings(v string) (forms, fragments []string) {
	if utf8.RuneCountInString(v) < MinRedactLength {
		return nil, nil
	}
	add := func(dst *[]string, s ...string) {
		for _, f := range s {
			if len(f) >= MinRedactLength && !slices.Contains(*dst, f) {
				*dst = append(*dst, f)
			}
		}
	}

	// URLs: a form sent with GET puts its fields in the address the browser
	// goes to; scripts and servers build addresses with their own escapers,
	// and an address inside another address is escaped twice.
	once := []string{
		url.QueryEscape(v),            // Go, PHP urlencode: "a b" as "a+b"
		formEncode(v),                 // a browser's form submission (WHATWG urlencoded)
		componentEncode(v),            // JavaScript encodeURIComponent: "a%20b"
		spaceAs20(url.QueryEscape(v)), // rawurlencode and most other libraries
		url.PathEscape(v),             // a path segment
	}
	for _, f := range slices.Clone(once) {
		once = append(once, lowerHex(f))
	}
	add(&forms, v)
	add(&forms, once...)
	for _, f := range once {
		add(&forms, url.QueryEscape(f), formEncode(f), componentEncode(f), spaceAs20(url.QueryEscape(f)), url.PathEscape(f))
	}

	// HTML: Go's and other template engines' escaping, a browser's own
	// serialisation of text and attributes (outerHTML), and numeric
	// character references in decimal and hex.
	add(&forms, html.EscapeString(v))
	for _, nbsp := range []string{"\u00a0", "&nbsp;"} {
		add(&forms,
			htmlEscape(v, map[rune]string{'&': "&amp;", '<': "&lt;", '>': "&gt;", '\u00a0': nbsp}),
			htmlEscape(v, map[rune]string{'&': "&amp;", '"': "&quot;", '\u00a0': nbsp}),
			htmlEscape(v, map[rune]string{'&': "&amp;", '"': "&quot;", '<': "&lt;", '>': "&gt;", '\u00a0': nbsp}),
			htmlEscape(v, map[rune]string{'&': "&amp;", '"': "&quot;", '\'': "&apos;", '<': "&lt;", '>': "&gt;", '\u00a0': nbsp}),
		)
	}
	add(&forms,
		htmlEscape(v, numeric("&#%d;")),
		htmlEscape(v, numeric("&#x%x;")),
		htmlEscape(v, numeric("&#x%X;")),
	)

	// JSON and JavaScript string literals.
	goJSON := jsonGo(v)
	stringify := jsEscape(v, jsOptions{})
	add(&forms,
		goJSON,          // encoding/json: <>& as \u003c \u003e \u0026
		jsonGoNoHTML(v), // encoding/json with SetEscapeHTML(false)
		strings.ReplaceAll(jsonGoNoHTML(v), "/", `\/`),
		stringify,                                             // JSON.stringify: only " \ and control characters
		jsEscape(v, jsOptions{slash: true}),                   // PHP json_encode: \/
		jsEscape(v, jsOptions{ascii: true}),                   // Python json.dumps: \u00e9
		jsEscape(v, jsOptions{ascii: true, slash: true}),      // PHP with non-ASCII escaped
		jsEscape(v, jsOptions{single: true}),                  // a '...' JavaScript literal
		jsEscape(v, jsOptions{unicodeAll: true}),              // every special character as \u00xx
		jsEscape(v, jsOptions{unicodeAll: true, upper: true}), // ... and \u00XX
		jsonGo(goJSON),                                        // JSON text inside a JSON string
		jsEscape(stringify, jsOptions{}),
	)

	// base64: the value encoded alone, with and without padding; and, since
	// base64 of a value inside a longer text depends on where the value
	// starts (its offset modulo 3), the complete 4-character groups of the
	// value with 0, 1 and 2 leading bytes dropped. The one or two bytes at
	// either end that share a group with their neighbours are not covered.
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		raw := enc.WithPadding(base64.NoPadding)
		add(&forms, enc.EncodeToString([]byte(v)), raw.EncodeToString([]byte(v)))
		for drop := range 3 {
			if drop >= len(v) {
				break
			}
			w := v[drop:]
			w = w[:len(w)/3*3]
			if s := raw.EncodeToString([]byte(w)); len(s) >= minBase64Stable {
				add(&forms, s)
			}
		}
	}

	// The value backwards (a page or script that reverses what was typed).
	add(&forms, reverse(v))

	// Pieces of the value are looked for as it is and in the encodings a
	// field's truncated content most likely takes: an address and a string.
	add(&fragments, v, url.QueryEscape(v), formEncode(v), componentEncode(v), goJSON, stringify, html.EscapeString(v))
	return forms, fragments
}

// percentEncode escapes every byte that keep does not accept as %XX, and a
// space as space (when it is not "").
func percentEncode(s string, keep func(byte) bool, space string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' && space != "":
			b.WriteString(space)
		case keep(c):
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// formEncode is the WHATWG application/x-www-form-urlencoded serialiser a
// browser uses for a form: alphanumerics and *-._ stay, space is +.
func formEncode(s string) string {
	return percentEncode(s, func(c byte) bool { return alnum(c) || strings.IndexByte("*-._", c) >= 0 }, "+")
}

// componentEncode is JavaScript's encodeURIComponent.
func componentEncode(s string) string {
	return percentEncode(s, func(c byte) bool { return alnum(c) || strings.IndexByte("-_.!~*'()", c) >= 0 }, "")
}

func spaceAs20(s string) string { return strings.ReplaceAll(s, "+", "%20") }

// lowerHex writes the hex digits of every %XX in lower case, as some
// libraries do.
func lowerHex(s string) string {
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if b[j] >= 'A' && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
		}
	}
	return string(b)
}

// htmlEscape replaces the runes in repl and leaves the rest.
func htmlEscape(s string, repl map[rune]string) string {
	var b strings.Builder
	for _, r := range s {
		if e, ok := repl[r]; ok {
			b.WriteString(e)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// numeric is the characters HTML escaping changes as numeric references in
// format (&#%d; or &#x%x;).
func numeric(format string) map[rune]string {
	m := map[rune]string{}
	for _, r := range `&<>"'` {
		m[r] = fmt.Sprintf(format, r)
	}
	return m
}

// jsonGoNoHTML is encoding/json's escaping without HTML escaping: as
// JSON.stringify, but invalid UTF-8 as \ufffd and U+2028, U+2029 escaped.
func jsonGoNoHTML(s string) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(s); err != nil {
		return s
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// jsonGo is encoding/json's escaping of a string, without the quotes.
func jsonGo(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		return s
	}
	return string(b[1 : len(b)-1])
}

type jsOptions struct {
	slash      bool // / as \/
	ascii      bool // non-ASCII as \uxxxx (surrogate pairs above U+FFFF)
	single     bool // a '...' literal: ' escaped, " left
	unicodeAll bool // " \ / < > & ' and control characters all as \u00xx
	upper      bool // with unicodeAll: \u00XX
}

// jsEscape writes s as the inside of a JSON or JavaScript string literal.
func jsEscape(s string, o jsOptions) string {
	var b strings.Builder
	hex := "\\u%04x"
	if o.upper {
		hex = "\\u%04X"
	}
	for _, r := range s {
		switch {
		case o.unicodeAll && (r < 0x20 || strings.ContainsRune(`"\/<>&'`, r)):
			fmt.Fprintf(&b, hex, r)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"' && !o.single, r == '\'' && o.single:
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '/' && o.slash:
			b.WriteString(`\/`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20:
			fmt.Fprintf(&b, hex, r)
		case r >= 0x80 && o.ascii:
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&b, hex+hex, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&b, hex, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// reverse is s backwards, character by character (byte by byte when s is
// not UTF-8).
func reverse(s string) string {
	if !utf8.ValidString(s) {
		b := []byte(s)
		slices.Reverse(b)
		return string(b)
	}
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}
