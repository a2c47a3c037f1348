package auth

import (
	"bufio"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadTokens reads any FLOW_TOKENS file: nothing panics, no error
// quotes a token — any field of 16 characters or more, which with the
// columns swapped is the token printed to a log — and a file accepted
// maps each line's token to that line's principal (the last line wins).
func FuzzLoadTokens(f *testing.F) {
	for _, seed := range []string{
		"0123456789abcdef0123 alice\n# comment\n\nfedcba9876543210fedc bob\n",
		"alice 0123456789abcdef0123\n",
		"0123456789abcdef0123\tcarol\r\n",
		"short alice\n",
		"0123456789abcdef0123 al/ice\n",
		"0123456789abcdef0123 alice extra-field-long-enough\n",
		"\ufeff0123456789abcdef0123 alice\n",
		"0123456789abcdef0123\u00a0alice\n",
		"0123456789abcdef0123\u0085alice\u2028\n",
		"   # 0123456789abcdef0123 x\n0123456789abcdef0123 ..\n",
		"0123456789abcdef0123 a\n0123456789abcdef0123 b\n",
		"0123456789abcdef0123 " + strings.Repeat("p", MaxPrincipalLen+1) + "\n",
	} {
		f.Add(seed)
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, body string) {
		path := filepath.Join(dir, "tokens")
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
		toks, err := LoadTokens(path)
		if errors.Is(err, bufio.ErrTooLong) {
			return // a line over 64 KiB: refused as a whole
		}
		if err != nil {
			msg := err.Error()
			for _, field := range strings.Fields(body) {
				if len([]rune(field)) >= 16 && strings.Contains(msg, field) {
					t.Fatalf("the error quotes the field %q: %v", field, err)
				}
			}
			if strings.Contains(msg, dir) && !strings.HasPrefix(msg, "cannot open") {
				t.Fatalf("the error shows the file's folder: %v", err)
			}
			return
		}
		want := map[string]string{}
		for i, line := range strings.Split(body, "\n") {
			line = strings.TrimSpace(line)
			if i == 0 {
				line = strings.TrimPrefix(line, "\ufeff") // not part of the token
			}
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			fields := strings.Fields(line)
			roles := len(fields) == 3 && strings.HasPrefix(fields[2], "roles=")
			if (len(fields) != 2 && !roles) || len(fields[0]) < 16 || !ValidPrincipal(fields[1]) {
				t.Fatalf("LoadTokens accepts the line %q", line)
			}
			want[fields[0]] = fields[1]
		}
		if toks.Len() != len(want) {
			t.Fatalf("LoadTokens holds %d tokens, the file has %d", toks.Len(), len(want))
		}
		for tok, p := range want {
			if got, ok := toks.Lookup(tok); !ok || got != p {
				t.Fatalf("the token of %q looks up as %q, %v", p, got, ok)
			}
		}
	})
}
