package auth

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestValidPrincipal(t *testing.T) {
	for _, tc := range []struct {
		name string
		want bool
	}{
		{"alice", true},
		{"agent-7", true},
		{"team.ops_1", true},
		{"..x", true},
		{strings.Repeat("p", MaxPrincipalLen), true},
		{"", false},
		{".", false},
		{"..", false},
		{"a/b", false},
		{"../etc", false},
		{"a b", false},
		{"ü", false},
		{strings.Repeat("p", MaxPrincipalLen+1), false},
	} {
		assert.Check(t, is.Equal(ValidPrincipal(tc.name), tc.want), "%q", tc.name)
	}
}

func TestLoadTokens(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, body, err string
		leak            string // a field the error must not show
		want            map[string]string
	}{
		{name: "two callers", body: "# tokens\n0123456789abcdef-alice alice\n\n0123456789abcdef-bob   bob\n", want: map[string]string{"0123456789abcdef-alice": "alice", "0123456789abcdef-bob": "bob"}},
		{name: "byte-order mark", body: "\ufeff0123456789abcdef-alice alice\n", want: map[string]string{"0123456789abcdef-alice": "alice"}},
		{name: "short token", body: "short alice\n", err: "line 1: the token is shorter than 16 characters"},
		// Columns swapped: the error must not print the token.
		{name: "swapped columns", body: "alice 0123456789abcdef-secret\n", err: "line 1: the token is shorter than 16 characters", leak: "0123456789abcdef-secret"},
		{name: "three fields", body: "0123456789abcdef alice extra\n", err: "line 1: the third field is not a role list"},
		{name: "bad principal", body: "0123456789abcdef ../etc\n", err: "line 1: the principal is not valid", leak: "0123456789abcdef"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
			assert.NilError(t, os.WriteFile(p, []byte(tc.body), 0o600))
			tok, err := LoadTokens(p)
			if tc.err != "" {
				assert.ErrorContains(t, err, tc.err)
				if tc.leak != "" {
					assert.Check(t, !strings.Contains(err.Error(), tc.leak), "the error shows a field: %v", err)
				}
				return
			}
			assert.NilError(t, err)
			for k, v := range tc.want {
				got, ok := tok.Lookup(k)
				assert.Check(t, ok)
				assert.Check(t, is.Equal(got, v))
			}
		})
	}
}

func TestMiddleware(t *testing.T) {
	tok, err := NewTokens(map[string]string{"0123456789abcdef-alice": "alice"})
	assert.NilError(t, err)
	h := tok.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(Principal(r.Context())))
	}))
	for _, tc := range []struct {
		auth, body string
		code       int
		second     string // a second Authorization header
	}{
		{"", "Authorization: Bearer <token>", 401, ""},
		{"Bearer nope-nope-nope-nope", "not known", 401, ""},
		{"Basic abc", "Authorization: Bearer <token>", 401, ""},
		{"Bearer 0123456789abcdef-alice", "alice", 200, ""},
		{"bearer 0123456789abcdef-alice", "alice", 200, ""}, // the scheme is case-insensitive
		{"BEARER  0123456789abcdef-alice ", "alice", 200, ""},
		{"Bearer 0123456789abcdef-alice", "more than one Authorization header", 400, "Bearer nope-nope-nope-nope"},
	} {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest("POST", "/mcp", nil)
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		if tc.second != "" {
			req.Header.Add("Authorization", tc.second)
		}
		h.ServeHTTP(rec, req)
		assert.Check(t, is.Equal(rec.Code, tc.code), tc.auth)
		assert.Check(t, is.Contains(rec.Body.String(), tc.body), tc.auth)
	}
	assert.Check(t, is.Equal(Principal(context.Background()), Local))
}

func TestCheckListen(t *testing.T) {
	tok, _ := NewTokens(map[string]string{"0123456789abcdef-alice": "alice"})
	idp := OIDCConfig{Issuer: "https://idp.example.com", Audience: "selenium-flow"}
	for _, tc := range []struct {
		addr   string
		tokens *Tokens
		oidc   OIDCConfig
		err    string
	}{
		{addr: "127.0.0.1:8765"},
		{addr: "[::1]:8765"},
		{addr: "localhost:1"},
		{addr: "0.0.0.0:8765", err: "set FLOW_TOKENS"},
		{addr: ":8765", err: "FLOW_OIDC_ISSUER"},
		{addr: "0.0.0.0:8765", tokens: tok},
		// OIDC alone guards a server as tokens do.
		{addr: "0.0.0.0:8765", oidc: idp},
	} {
		err := CheckListen(tc.addr, tc.tokens, tc.oidc)
		if tc.err == "" {
			assert.Check(t, err, tc.addr)
		} else {
			assert.Check(t, is.ErrorContains(err, tc.err), tc.addr)
		}
	}
}
