package auth

import (
	"bufio"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/issuer"
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

// FuzzAuthenticate sends any Authorization header to an Authenticator
// with a static token and OIDC from a real issuer: nothing panics, a
// refusal is 400, 401 or 403 with a challenge a client can parse (no
// line break, no quote inside a quoted value), no answer quotes a long
// bearer, and the static token, however the header is spaced or the
// scheme cased, is its principal.
func FuzzAuthenticate(f *testing.F) {
	idp := issuer.Start(f)
	good := idp.Token(f, issuer.Claims{"sub": "alice"})
	for _, seed := range []string{
		"Bearer " + staticToken,
		"bearer   " + staticToken + "  ",
		"Bearer " + good,
		"Bearer " + idp.Token(f, issuer.Claims{"sub": "alice"}, issuer.Unsigned()),
		"Bearer " + idp.Token(f, issuer.Claims{"sub": "alice"}, issuer.HS256WithPublicKey()),
		"Bearer eyJhbGciOiJSUzI1NiJ9.e30.",
		"Bearer a.b.c",
		"Basic dXNlcjpwYXNz",
		"Bearer",
		"",
		"Bearer ~~~~~~~~~~~~~~~~~~~~~~~~",
	} {
		f.Add(seed)
	}
	v, err := NewOIDC(context.Background(), OIDCConfig{Issuer: idp.URL, Audience: idp.Audience, RolesClaim: "realm_access.roles"})
	if err != nil {
		f.Fatal(err)
	}
	tokens, _ := NewTokens(map[string]string{staticToken: "robot"})
	a := NewAuthenticator(WithTokens(tokens), WithOIDC(v), WithResourceMetadata(func(*http.Request) string { return "http://127.0.0.1/meta" }))
	f.Fuzz(func(t *testing.T, header string) {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Authorization", header)
		ctx, fail := a.Authenticate(r)
		_, token, _ := strings.Cut(strings.TrimSpace(header), " ")
		token = strings.TrimSpace(token)
		if fail == nil {
			if token == staticToken && Principal(ctx) != "robot" {
				t.Fatalf("the static token is %q", Principal(ctx))
			}
			return
		}
		if token == staticToken && strings.EqualFold(strings.Fields(header)[0], "Bearer") {
			t.Fatalf("the static token was refused: %s", fail.Message)
		}
		switch fail.Status {
		case http.StatusBadRequest, http.StatusUnauthorized, http.StatusForbidden:
		default:
			t.Fatalf("status %d: %s", fail.Status, fail.Message)
		}
		rec := httptest.NewRecorder()
		a.Refuse(rec, r, fail)
		challenge := rec.Header().Get("WWW-Authenticate")
		if strings.ContainsAny(challenge, "\r\n") || strings.Count(challenge, `"`)%2 != 0 {
			t.Fatalf("the challenge cannot be parsed: %q", challenge)
		}
		// "~" is a bearer character no sentence of this package holds.
		if len(token) >= 16 && strings.Contains(token, "~") && strings.Contains(rec.Body.String()+challenge, token) {
			t.Fatalf("the answer quotes the token: %s", rec.Body.String())
		}
	})
}
