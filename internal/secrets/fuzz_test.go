package secrets

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseFile reads any file in which § stands for a value-like secret
// (it holds $, ~ or |, which no message has) in any column: nothing panics
// and no problem, nor a refusal, quotes it.
func FuzzParseFile(f *testing.F) {
	for _, seed := range []string{
		file,
		"alice login/password a.test,*.b.test §\nalice login/_description a.test,*.b.test about\n",
		"\ufeff# c\r\n§ login a.test v\n",
		"alice § a.test value\n",
		"alice login § value\nalice login a.test\n",
		"alice\tlogin\t\ta.test   §  \n\n#\n",
		"alice login a.test,,b.test §\nalice login a.test §\nalice login a.test other\n",
		"alice login/§ [::1]:8080 value\nalice login *.§ value\n",
	} {
		f.Add(seed, "hunter$2-secret")
	}
	f.Fuzz(func(t *testing.T, body, secret string) {
		if len(secret) < 6 || !strings.ContainsAny(secret, "$~|") || strings.ContainsAny(secret, " \t\r\n") {
			return
		}
		body = strings.ReplaceAll(body, "§", secret)
		defs, problems := parseFile("f", []byte(body))
		for _, p := range problems {
			if strings.Contains(p.Error(), secret) {
				t.Fatalf("a problem quotes a field: %v", p)
			}
		}
		for _, d := range defs {
			if d.principal == "" || d.name == "" || d.text == "" || d.desc == (d.key != "") {
				t.Fatalf("a malformed definition from %q", body)
			}
		}
		s, err := assemble(defs, problems)
		if err != nil && strings.Contains(err.Error(), secret) {
			t.Fatalf("an error quotes a field: %v", err)
		}
		for _, d := range defs {
			if _, err := s.Value(d.principal, "nope", "", "https://x.test/"); err != nil && strings.Contains(err.Error(), secret) {
				t.Fatalf("a refusal quotes a field: %v", err)
			}
		}
	})
}

// FuzzRedact puts a value, encoded each way, between any two texts: no
// encoding of it survives redaction, outside the labels Redact writes.
func FuzzRedact(f *testing.F) {
	for _, v := range redactValues {
		f.Add(v, "before ", " after")
	}
	f.Add("abcd", "", "")
	f.Add("a b+c", "%", "2")
	f.Add("Xk9#mQ2vLp", "Xk9#mQ", "2vLp")
	f.Add("\u2028/\u00a0<'x", "[secret", "]")
	f.Fuzz(func(t *testing.T, value, before, after string) {
		if utf8.RuneCountInString(value) < MinRedactLength || len(value) > 200 || !utf8.ValidString(value) {
			return
		}
		s, err := assemble([]def{{principal: "alice", name: "s0", key: DefaultKey, text: value, sites: []site{{any: true}}}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, enc := range encodingsUnderTest {
			e := enc.encode(value)
			text := before + e + after
			got := s.Redact("alice", text)
			if survives(got, e) {
				t.Fatalf("%s form %q survives in %q", enc.name, e, got)
			}
			if !s.Contains("alice", text) {
				t.Fatalf("Contains misses the %s form in %q", enc.name, text)
			}
		}
		// The value inside a longer base64 text: its complete groups.
		blob := before + value + after
		drop := (3 - len(before)%3) % 3
		if drop < len(value) {
			w := value[drop:]
			for _, enc := range []*base64.Encoding{base64.RawStdEncoding, base64.RawURLEncoding} {
				stable := enc.EncodeToString([]byte(w[:len(w)/3*3]))
				if len(stable) < minBase64Stable {
					continue
				}
				if got := s.Redact("alice", enc.EncodeToString([]byte(blob))); survives(got, stable) {
					t.Fatalf("the base64 %q of the value survives in %q", stable, got)
				}
			}
		}
	})
}

// survives reports whether e occurs in text other than across a label.
func survives(text, e string) bool {
	const lbl = "[secret s0]"
	for at := 0; ; {
		i := strings.Index(text[at:], e)
		if i < 0 {
			return false
		}
		i += at
		overlaps := false
		for j := 0; ; {
			k := strings.Index(text[j:], lbl)
			if k < 0 {
				break
			}
			k += j
			if k < i+len(e) && i < k+len(lbl) {
				overlaps = true
				break
			}
			j = k + 1
		}
		if !overlaps {
			return true
		}
		at = i + 1
	}
}
