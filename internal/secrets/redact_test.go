package secrets

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html"
	"math/rand/v2"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// redactValues are values with every character the encodings treat apart:
// spaces, & < > " ' / + % ~ *, non-ASCII and a character above U+FFFF.
var redactValues = []string{
	`kumquat 4417 & "co"/x`,
	`p@ss w0rd+%<>'é`,
	`Xk9#mQ2v~*_-.!()`,
	`日本語のパスワード1`,
	`hunter2hunter2`,
	"emoji🔑key-99\tx",
}

func storeOf(t testing.TB, principal string, vals ...string) *Store {
	t.Helper()
	var env []string
	for i, v := range vals {
		env = append(env, fmt.Sprintf("FLOW_SECRET_%s__s%d=%s", principal, i, v), fmt.Sprintf("FLOW_SECRET_%s__s%d_SITES=*", principal, i))
	}
	s, err := Load(Sources{Environ: env})
	assert.NilError(t, err)
	return s
}

// An encoding of a value, made with the standard library (or by hand where
// it has none), and how to decode text back.
type encoding struct {
	name   string
	encode func(string) string
	decode func(string) string
}

func jsonString(v string, escapeHTML bool) string {
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(escapeHTML)
	if err := e.Encode(v); err != nil {
		panic(err)
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return s[1 : len(s)-1]
}

func unjson(s string) string {
	var v string
	if err := json.Unmarshal([]byte(`"`+s+`"`), &v); err != nil {
		return s
	}
	return v
}

func unquery(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

func unpath(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// numericRefs writes & < > " ' of v as numeric references in format.
func numericRefs(v, format string) string {
	var b strings.Builder
	for _, r := range v {
		if strings.ContainsRune(`&<>"'`, r) {
			fmt.Fprintf(&b, format, r)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func reversed(s string) string {
	r := []rune(s)
	slices.Reverse(r)
	return string(r)
}

var encodingsUnderTest = []encoding{
	{"raw", func(v string) string { return v }, func(s string) string { return s }},
	{"query", url.QueryEscape, unquery},
	{"query twice", func(v string) string { return url.QueryEscape(url.QueryEscape(v)) }, func(s string) string { return unquery(unquery(s)) }},
	{"query %20", func(v string) string { return strings.ReplaceAll(url.QueryEscape(v), "+", "%20") }, unquery},
	{"query %20 twice", func(v string) string {
		once := strings.ReplaceAll(url.QueryEscape(v), "+", "%20")
		return strings.ReplaceAll(url.QueryEscape(once), "+", "%20")
	}, func(s string) string { return unquery(unquery(s)) }},
	{"query lower hex", func(v string) string {
		return regexp.MustCompile(`%[0-9A-F]{2}`).ReplaceAllStringFunc(url.QueryEscape(v), strings.ToLower)
	}, unquery},
	{"form values", func(v string) string { return strings.TrimPrefix(url.Values{"p": {v}}.Encode(), "p=") }, unquery},
	{"path", url.PathEscape, unpath},
	{"path twice", func(v string) string { return url.PathEscape(url.PathEscape(v)) }, func(s string) string { return unpath(unpath(s)) }},
	{"url in a query", func(v string) string {
		u := url.URL{Scheme: "https", Host: "h", RawQuery: url.Values{"p": {v}}.Encode()}
		return url.QueryEscape(u.String())
	}, func(s string) string { return unquery(unquery(s)) }},
	{"html", html.EscapeString, html.UnescapeString},
	{"html decimal", func(v string) string { return numericRefs(v, "&#%d;") }, html.UnescapeString},
	{"html hex", func(v string) string { return numericRefs(v, "&#x%x;") }, html.UnescapeString},
	{"html HEX", func(v string) string { return numericRefs(v, "&#x%X;") }, html.UnescapeString},
	{"html named", func(v string) string {
		return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(v)
	}, html.UnescapeString},
	{"json", func(v string) string { return jsonString(v, true) }, unjson},
	{"json without html escaping", func(v string) string { return jsonString(v, false) }, unjson},
	{"json \\/", func(v string) string { return strings.ReplaceAll(jsonString(v, false), "/", `\/`) }, unjson},
	{"json in json", func(v string) string { return jsonString(jsonString(v, true), true) }, func(s string) string { return unjson(unjson(s)) }},
	{"base64", func(v string) string { return base64.StdEncoding.EncodeToString([]byte(v)) }, nil},
	{"base64 raw", func(v string) string { return base64.RawStdEncoding.EncodeToString([]byte(v)) }, nil},
	{"base64 url", func(v string) string { return base64.URLEncoding.EncodeToString([]byte(v)) }, nil},
	{"base64 url raw", func(v string) string { return base64.RawURLEncoding.EncodeToString([]byte(v)) }, nil},
	{"reversed", reversed, reversed},
}

func TestRedactEncodings(t *testing.T) {
	s := storeOf(t, "alice", redactValues...)
	for i, v := range redactValues {
		for _, enc := range encodingsUnderTest {
			t.Run(fmt.Sprintf("%d %s", i, enc.name), func(t *testing.T) {
				e := enc.encode(v)
				text := "before " + e + " after"
				got := s.Redact("alice", text)
				assert.Check(t, is.Contains(got, fmt.Sprintf("[secret s%d] after", i)))
				assert.Check(t, !strings.Contains(got, e))
				assert.Check(t, s.Contains("alice", text))
				assert.Check(t, !s.Contains("bob", text))
				if enc.decode != nil {
					assert.Check(t, !strings.Contains(enc.decode(got), v), "decoding the redacted text yields the value")
				}
			})
		}
	}
}

// TestRedactHandWritten checks encodings the standard library does not
// make, written out by hand.
func TestRedactHandWritten(t *testing.T) {
	s := storeOf(t, "alice", `a~b*c d'e"f`, `a<b>c&d é/1`, "ab\u00a0cd&ef")
	cases := []struct{ name, text string }{
		{"form submission: ~ escaped, * kept", "a%7Eb*c+d%27e%22f"},
		{"encodeURIComponent", "a~b*c%20d'e%22f"},
		{"encodeURIComponent twice", "a~b*c%2520d'e%2522f"},
		{"JSON.stringify", `a~b*c d'e\"f`},
		{"a '...' literal", `a~b*c d\'e"f`},
		{"\\u00xx everywhere", `a\u003cb\u003ec\u0026d é\u002f1`},
		{"\\u00XX everywhere", `a\u003Cb\u003Ec\u0026d é\u002F1`},
		{"Python ensure_ascii", `a<b>c&d \u00e9/1`},
		{"PHP json_encode", `a<b>c&d \u00e9\/1`},
		{"outerHTML text", "a&lt;b&gt;c&amp;d é/1"},
		{"outerHTML attribute", `a~b*c d'e&quot;f`},
		{"nbsp", "ab&nbsp;cd&amp;ef"},
		{"XHTML &apos;", "a~b*c d&apos;e&quot;f"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := s.Redact("alice", "<"+tc.text+">")
			assert.Check(t, strings.HasPrefix(got, "<[secret s") && strings.HasSuffix(got, "]>"), "%q", got)
		})
	}
}

// TestRedactBase64Embedded encodes each value inside longer texts, at every
// offset modulo 3, and checks that no decoding of what is left yields more
// than 2 bytes of the value in a row.
func TestRedactBase64Embedded(t *testing.T) {
	vals := append(slices.Clone(redactValues), "12345678", "abcdefgh")
	s := storeOf(t, "alice", vals...)
	for _, v := range vals {
		for pre := range 6 {
			for post := range 4 {
				for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding} {
					blob := strings.Repeat("\x00", pre) + v + strings.Repeat("\x00", post)
					text := "data:" + enc.EncodeToString([]byte(blob)) + ";"
					got := s.Redact("alice", text)
					assert.Check(t, got != text, "%q at %d+%d not redacted", v, pre, post)
					for _, d := range decodeRuns(got) {
						for i := 0; i+3 <= len(v); i++ {
							assert.Check(t, !strings.Contains(d, v[i:i+3]), "%q at %d+%d: %q decodes from %q", v, pre, post, v[i:i+3], got)
						}
					}
				}
			}
		}
	}
}

var base64Run = regexp.MustCompile(`[A-Za-z0-9+/_-]+`)

// decodeRuns decodes every run of base64 characters of text from each of
// its first four offsets, in both alphabets, as far as it decodes.
func decodeRuns(text string) []string {
	var out []string
	for _, run := range base64Run.FindAllString(text, -1) {
		for off := 0; off < 4 && off < len(run); off++ {
			r := run[off:]
			r = r[:len(r)-len(r)%4]
			for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				b, _ := enc.DecodeString(r)
				out = append(out, string(b))
			}
		}
	}
	return out
}

func TestRedactFragments(t *testing.T) {
	s := storeOf(t, "alice", "Xk9#mQ2vLp", "Password1!", "correct horse battery staple", "ada@example.com", "abc", "abcd")
	cases := []struct{ name, text, want string }{
		// Pieces to redact.
		{"maxlength=6 field", `textbox "Code" value="Xk9#mQ"`, `textbox "Code" value="[secret s0]"`},
		{"maxlength=6 of a word", `value="Passwo"`, `value="[secret s1]"`},
		{"all but the symbol", `value="Password1"`, `value="[secret s1]"`},
		{"a masked tail", "card ****#mQ2vLp", "card ****[secret s0]"},
		{"a middle piece", "id=9#mQ2vL;", "id=[secret s0];"},
		{"a piece in a longer word", "xx9#mQ2vyy", "xx[secret s0]yy"},
		{"a cut passphrase", `value="correct hor"`, `value="[secret s2]"`},
		{"a cut address", `"ada@example.c"`, `"[secret s3]"`},
		{"a piece of the query form", "?c=Xk9%23mQ&x", "?c=[secret s0]&x"},
		{"a piece of the JSON form", `{"c":"ect horse battery sta"}`, `{"c":"[secret s2]"}`},
		{"the short value", "abcd", "[secret s5]"},
		// Ordinary text to leave.
		{"the label", "Enter your Password", "Enter your Password"},
		{"the word alone", `"Password"`, `"Password"`},
		{"inside a longer word", "Passwordless sign-in", "Passwordless sign-in"},
		{"a word of a passphrase", "the battery is low", "the battery is low"},
		{"words of a passphrase", `"horse battery"`, `"horse battery"`},
		{"another address at the domain", "write to support@example.com", "write to support@example.com"},
		{"the domain", "© example.com", "© example.com"},
		{"5 characters", `value="Xk9#m"`, `value="Xk9#m"`},
		{"too short to redact", "abc", "abc"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Check(t, is.Equal(s.Redact("alice", tc.text), tc.want))
			assert.Check(t, is.Equal(s.Contains("alice", tc.text), tc.text != tc.want))
		})
	}
}

func TestRedactKeepsText(t *testing.T) {
	s := storeOf(t, "alice", "Xk9#mQ2vLp", "日本語のパスワード1")
	cases := []struct{ text, want string }{
		{"", ""},
		{"Xk9#m", "Xk9#m"},
		{"Xk9#mQ2vLp", "[secret s0]"},
		{"Xk9#mQ2vLpXk9#mQ2vLp", "[secret s0][secret s0]"},
		{"aXk9#mQ2vLp-Xk9#mQ2vLp!", "a[secret s0]-[secret s0]!"},
		{"語のパスワード1 and ドのパ", "[secret s1] and ドのパ"},
		{`"日本語のパスワ"`, `"[secret s1]"`},
		{"é日本語のパスワード", "é日本語のパスワード"},
	}
	for _, tc := range cases {
		got := s.Redact("alice", tc.text)
		assert.Check(t, is.Equal(got, tc.want))
		assert.Check(t, utf8.ValidString(got))
	}
}

func TestLabels(t *testing.T) {
	s := mustLoad(t, "alice gh/password * gh-pass-1\nalice gh/username * ada-user\nalice pin * 1234\n")
	assert.Check(t, is.Equal(s.Redact("alice", "ada-user:gh-pass-1 1234"), "[secret gh/username]:[secret gh/password] [secret pin]"))
}

// BenchmarkRedact redacts a 100 KB page with ten secrets: a page that holds
// none, and one that holds a few.
func BenchmarkRedact(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	var vals []string
	const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&*+-./:;<=>?@^_~ "
	for range 10 {
		v := make([]byte, 12+rng.IntN(20))
		for i := range v {
			v[i] = chars[rng.IntN(len(chars))]
		}
		vals = append(vals, string(v))
	}
	s := storeOf(b, "alice", vals...)
	words := strings.Fields(`the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part`)
	var page strings.Builder
	for page.Len() < 100<<10 {
		switch rng.IntN(12) {
		case 0:
			fmt.Fprintf(&page, `<input name="f%d" value="%d">`, rng.IntN(100), rng.IntN(1e6))
		case 1:
			fmt.Fprintf(&page, `<a href="/p?id=%d&amp;q=%s">`, rng.IntN(1e4), words[rng.IntN(len(words))])
		default:
			page.WriteString(words[rng.IntN(len(words))])
			page.WriteByte(' ')
		}
	}
	clean := page.String()
	withHits := clean[:30<<10] + vals[0] + clean[30<<10:60<<10] + url.QueryEscape(vals[3]) + clean[60<<10:90<<10] + base64.StdEncoding.EncodeToString([]byte(vals[7])) + clean[90<<10:]
	b.Run("clean", func(b *testing.B) {
		b.SetBytes(int64(len(clean)))
		for b.Loop() {
			if s.Redact("alice", clean) != clean {
				b.Fatal("a clean page was redacted")
			}
		}
	})
	b.Run("three hits", func(b *testing.B) {
		b.SetBytes(int64(len(withHits)))
		for b.Loop() {
			if got := s.Redact("alice", withHits); strings.Count(got, "[secret ") != 3 {
				b.Fatalf("%d redactions", strings.Count(got, "[secret "))
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		var env []string
		for i, v := range vals {
			env = append(env, "FLOW_SECRET_alice__s"+strconv.Itoa(i)+"="+v, "FLOW_SECRET_alice__s"+strconv.Itoa(i)+"_SITES=*")
		}
		for b.Loop() {
			if _, err := Load(Sources{Environ: env}); err != nil {
				b.Fatal(err)
			}
		}
	})
}
