package auth_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

func TestTokenRoles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens")
	assert.NilError(t, os.WriteFile(path, []byte("op-token-0123456789 olga roles=operator,qa\nuser-token-0123456789 ulf\n"), 0o600))
	toks, err := auth.LoadTokens(path)
	assert.NilError(t, err)

	tests := []struct {
		token    string
		who      string
		operator bool
		qa       bool
	}{
		{"op-token-0123456789", "olga", true, true},
		{"user-token-0123456789", "ulf", false, false},
	}
	for _, tc := range tests {
		t.Run(tc.who, func(t *testing.T) {
			var got context.Context
			h := toks.Middleware(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) { got = r.Context() }))
			req := httptest.NewRequest("GET", "/mcp", nil)
			req.Header.Set("Authorization", "Bearer "+tc.token)
			h.ServeHTTP(httptest.NewRecorder(), req)
			assert.Equal(t, auth.Principal(got), tc.who)
			assert.Equal(t, auth.IsOperator(got), tc.operator)
			assert.Equal(t, auth.HasRole(got, "qa"), tc.qa)
		})
	}
}

func TestStdioCallerIsOperator(t *testing.T) {
	assert.Assert(t, auth.IsOperator(context.Background()))
	assert.Assert(t, !auth.IsOperator(auth.WithPrincipal(context.Background(), "bob")))
	assert.Assert(t, !auth.IsOperator(auth.WithRoles(context.Background(), nil)), "a credential without roles is no operator, even as local")
}

func TestTokenRoleLineRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens")
	assert.NilError(t, os.WriteFile(path, []byte("op-token-0123456789 olga roles=oper/ator\n"), 0o600))
	_, err := auth.LoadTokens(path)
	assert.ErrorContains(t, err, "line 1: a role is not valid")

	assert.NilError(t, os.WriteFile(path, []byte("op-token-0123456789 olga other-token-0123456789\n"), 0o600))
	_, err = auth.LoadTokens(path)
	assert.ErrorContains(t, err, "line 1: the third field is not a role list")
	assert.Assert(t, !strings.Contains(err.Error(), "other-token"), "the refusal quotes no token")
}
