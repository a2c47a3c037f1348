package issuer_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coreos/go-oidc/v3/oidc"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/issuer"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

const (
	clientID = "admin-page"
	redirect = "http://127.0.0.1:1/admin/callback"
	verifier = "a-pkce-verifier-of-enough-length-0123456789abcdef"
)

// noRedirects is a client that shows the authorization endpoint's
// redirect instead of following it to a callback nobody serves.
var noRedirects = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// authorize plays the browser: it asks for a code and returns the
// callback's query.
func authorize(t *testing.T, idp *issuer.Issuer, q url.Values) url.Values {
	t.Helper()
	req, err := http.NewRequestWithContext(testenv.Context(t), http.MethodGet, idp.URL+"/authorize?"+q.Encode(), nil)
	assert.NilError(t, err)
	res, err := noRedirects.Do(req)
	assert.NilError(t, err)
	res.Body.Close()
	assert.Assert(t, is.Equal(res.StatusCode, http.StatusFound))
	loc, err := url.Parse(res.Header.Get("Location"))
	assert.NilError(t, err)
	assert.Check(t, strings.HasPrefix(loc.String(), redirect+"?"), loc.String())
	return loc.Query()
}

// exchange posts a code to the token endpoint.
func exchange(t *testing.T, idp *issuer.Issuer, code, verifier string) (int, map[string]any) {
	t.Helper()
	form := url.Values{"grant_type": {"authorization_code"}, "code": {code}, "redirect_uri": {redirect}, "client_id": {clientID}, "code_verifier": {verifier}}
	req, err := http.NewRequestWithContext(testenv.Context(t), http.MethodPost, idp.URL+"/token", strings.NewReader(form.Encode()))
	assert.NilError(t, err)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	defer res.Body.Close()
	var out map[string]any
	assert.NilError(t, json.NewDecoder(res.Body).Decode(&out))
	return res.StatusCode, out
}

func codeRequest(extra url.Values) url.Values {
	q := url.Values{"response_type": {"code"}, "client_id": {clientID}, "redirect_uri": {redirect}, "state": {"s1"},
		"code_challenge": {issuer.Challenge(verifier)}, "code_challenge_method": {"S256"}, "nonce": {"n1"}}
	for k, v := range extra {
		q[k] = v
	}
	return q
}

// TestAuthorizationCodeWithPKCE: the sign-in the admin page uses, played
// end to end; the tokens verify with go-oidc against the issuer's keys.
func TestAuthorizationCodeWithPKCE(t *testing.T) {
	idp := issuer.Start(t, issuer.WithClaims(issuer.Claims{"roles": []string{"operator"}}))
	back := authorize(t, idp, codeRequest(url.Values{"login_hint": {"bob"}}))
	assert.Check(t, is.Equal(back.Get("state"), "s1"))
	assert.Check(t, is.Equal(back.Get("iss"), idp.URL))
	status, tokens := exchange(t, idp, back.Get("code"), verifier)
	assert.Assert(t, is.Equal(status, http.StatusOK), "%v", tokens)
	assert.Check(t, is.Equal(tokens["token_type"], "Bearer"))

	ctx := testenv.Context(t)
	provider, err := oidc.NewProvider(ctx, idp.URL)
	assert.NilError(t, err)
	id, err := provider.Verifier(&oidc.Config{ClientID: clientID}).Verify(ctx, tokens["id_token"].(string))
	assert.NilError(t, err)
	assert.Check(t, is.Equal(id.Subject, "bob"))
	assert.Check(t, is.Equal(id.Nonce, "n1"))
	at, err := provider.Verifier(&oidc.Config{ClientID: idp.Audience}).Verify(ctx, tokens["access_token"].(string))
	assert.NilError(t, err)
	var claims struct {
		Roles []string `json:"roles"`
	}
	assert.NilError(t, at.Claims(&claims))
	assert.Check(t, is.DeepEqual(claims.Roles, []string{"operator"}))

	// A code is exchanged once.
	status, out := exchange(t, idp, back.Get("code"), verifier)
	assert.Check(t, is.Equal(status, http.StatusBadRequest))
	assert.Check(t, is.Equal(out["error"], "invalid_grant"))
}

// TestAuthorizationCodeRefusals: what a careless or hostile client gets.
func TestAuthorizationCodeRefusals(t *testing.T) {
	idp := issuer.Start(t)
	t.Run("wrong verifier", func(t *testing.T) {
		back := authorize(t, idp, codeRequest(nil))
		status, out := exchange(t, idp, back.Get("code"), "another-verifier-0123456789abcdef0123456789")
		assert.Check(t, is.Equal(status, http.StatusBadRequest))
		assert.Check(t, is.Contains(out["error_description"].(string), "code_verifier"))
		// The failed exchange used the code up.
		status, _ = exchange(t, idp, back.Get("code"), verifier)
		assert.Check(t, is.Equal(status, http.StatusBadRequest))
	})
	for _, tc := range []struct {
		name  string
		extra url.Values
		error string
	}{
		{name: "no PKCE", extra: url.Values{"code_challenge": nil}, error: "invalid_request"},
		{name: "plain PKCE", extra: url.Values{"code_challenge_method": {"plain"}}, error: "invalid_request"},
		{name: "implicit flow", extra: url.Values{"response_type": {"token"}}, error: "unsupported_response_type"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			back := authorize(t, idp, codeRequest(tc.extra))
			assert.Check(t, is.Equal(back.Get("error"), tc.error))
			assert.Check(t, is.Equal(back.Get("code"), ""))
		})
	}
}

// TestCrossOrigin: a page on another origin may read discovery and the
// token endpoint's answer (it fetches both during sign-in), never with
// credentials; the keys and the authorization endpoint, which the page
// does not fetch, say nothing about CORS.
func TestCrossOrigin(t *testing.T) {
	idp := issuer.Start(t)
	for _, tc := range []struct {
		method, path string
		allowed      bool
		status       int
	}{
		{method: http.MethodGet, path: "/.well-known/openid-configuration", allowed: true, status: http.StatusOK},
		{method: http.MethodOptions, path: "/.well-known/openid-configuration", allowed: true, status: http.StatusNoContent},
		{method: http.MethodPost, path: "/token", allowed: true, status: http.StatusBadRequest},
		{method: http.MethodOptions, path: "/token", allowed: true, status: http.StatusNoContent},
		{method: http.MethodGet, path: "/jwks", status: http.StatusOK},
	} {
		t.Run(tc.method+" "+tc.path, func(t *testing.T) {
			req, err := http.NewRequestWithContext(testenv.Context(t), tc.method, idp.URL+tc.path, strings.NewReader("grant_type=authorization_code&code=nope"))
			assert.NilError(t, err)
			req.Header.Set("Origin", "http://127.0.0.1:1")
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if tc.method == http.MethodOptions {
				req.Header.Set("Access-Control-Request-Method", http.MethodPost)
			}
			res, err := http.DefaultClient.Do(req)
			assert.NilError(t, err)
			res.Body.Close()
			assert.Check(t, is.Equal(res.StatusCode, tc.status))
			want := ""
			if tc.allowed {
				want = "*"
			}
			assert.Check(t, is.Equal(res.Header.Get("Access-Control-Allow-Origin"), want))
			assert.Check(t, is.Equal(res.Header.Get("Access-Control-Allow-Credentials"), ""))
		})
	}
}
