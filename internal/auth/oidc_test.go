package auth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/issuer"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

const staticToken = "static-token-0123456789abcdef"

// oidcServer serves, behind an Authenticator with OIDC from idp and one
// static token, a page that says who the caller is.
func oidcServer(t *testing.T, idp *issuer.Issuer, cfg OIDCConfig, opts ...OIDCOption) *httptest.Server {
	t.Helper()
	cfg.Issuer, cfg.Audience = idp.URL, idp.Audience
	v, err := NewOIDC(testenv.Context(t), cfg, opts...)
	assert.NilError(t, err)
	tokens, err := NewTokens(map[string]string{staticToken: "robot"})
	assert.NilError(t, err)
	a := NewAuthenticator(WithTokens(tokens), WithOIDC(v), WithResourceMetadata(func(r *http.Request) string {
		return "http://" + r.Host + "/.well-known/oauth-protected-resource"
	}))
	hs := httptest.NewServer(a.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "principal=%s roles=%s operator=%t", Principal(r.Context()), strings.Join(Roles(r.Context()), ","), IsOperator(r.Context()))
	})))
	t.Cleanup(hs.Close)
	return hs
}

func get(t *testing.T, url, authorization string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(testenv.Context(t), http.MethodGet, url, nil)
	assert.NilError(t, err)
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	assert.NilError(t, err)
	return res.StatusCode, res.Header, string(body)
}

// TestOIDCTokens: each kind of token gets the right status, the sentence
// that says what to do, and an RFC 6750 challenge naming the metadata;
// no answer quotes the token.
func TestOIDCTokens(t *testing.T) {
	idp := issuer.Start(t)
	hs := oidcServer(t, idp, OIDCConfig{RolesClaim: "groups", RequiredRole: "qa"})
	member := issuer.Claims{"sub": "alice", "groups": []string{"qa"}}
	with := func(extra issuer.Claims) issuer.Claims {
		c := issuer.Claims{}
		for k, v := range member {
			c[k] = v
		}
		for k, v := range extra {
			c[k] = v
		}
		return c
	}
	for _, tc := range []struct {
		name   string
		token  string // sent as "Bearer <token>"; "" sends no header
		status int
		body   string
		code   string // the challenge's error="…", "" for none
	}{
		{name: "valid", token: idp.Token(t, member), status: 200, body: "principal=alice roles=qa operator=false"},
		{name: "operator role", token: idp.Token(t, with(issuer.Claims{"groups": []string{"qa", "operator"}})), status: 200, body: "principal=alice roles=qa,operator operator=true"},
		{name: "static token beside OIDC", token: staticToken, status: 200, body: "principal=robot"},
		{name: "no token", status: 401, body: "Authorization: Bearer <token> with an access token from the identity provider at " + idp.URL},
		{name: "expired", token: idp.Token(t, member, issuer.ExpiresIn(-2*Leeway)), status: 401, body: "The access token has expired", code: "invalid_token"},
		{name: "not valid yet", token: idp.Token(t, with(issuer.Claims{"nbf": time.Now().Add(time.Hour).Unix()}), issuer.ExpiresIn(2*time.Hour)), status: 401, body: "not valid yet", code: "invalid_token"},
		{name: "wrong audience", token: idp.Token(t, with(issuer.Claims{"aud": "another-app"})), status: 401, body: "this server needs the audience " + idp.Audience, code: "invalid_token"},
		{name: "wrong issuer", token: idp.Token(t, with(issuer.Claims{"iss": "https://elsewhere.example.com"})), status: 401, body: "accepts tokens from " + idp.URL + " only", code: "invalid_token"},
		{name: "alg none", token: idp.Token(t, member, issuer.Unsigned()), status: 401, body: "signed with the algorithm none, which this server does not accept", code: "invalid_token"},
		{name: "HS256 keyed with the public key", token: idp.Token(t, member, issuer.HS256WithPublicKey()), status: 401, body: "signed with the algorithm HS256, which this server does not accept", code: "invalid_token"},
		{name: "unpublished key", token: idp.Token(t, member, issuer.SignedBy(idp.NewKey(t, "RS256"))), status: 401, body: "does not match any key the identity provider at " + idp.URL + " publishes", code: "invalid_token"},
		{name: "not a JWT", token: "opaque-0123456789abcdef", status: 401, body: "neither a token from this server's FLOW_TOKENS file nor a well-formed access token", code: "invalid_token"},
		{name: "missing role", token: idp.Token(t, with(issuer.Claims{"groups": []string{"dev"}})), status: 403, body: "does not grant the role qa (in its groups claim)", code: "insufficient_scope"},
		{name: "no roles claim", token: idp.Token(t, with(issuer.Claims{"groups": nil})), status: 403, body: "does not grant the role qa", code: "insufficient_scope"},
		{name: "unusable principal", token: idp.Token(t, with(issuer.Claims{"sub": "auth0|alice"})), status: 403, body: "its sub claim is missing or is not a usable principal name"},
		{name: "principal local", token: idp.Token(t, with(issuer.Claims{"sub": "local"})), status: 403, body: "FLOW_OIDC_PRINCIPAL_CLAIM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var authz string
			if tc.token != "" {
				authz = "Bearer " + tc.token
			}
			status, hdr, body := get(t, hs.URL+"/anything", authz)
			assert.Check(t, is.Equal(status, tc.status), body)
			assert.Check(t, is.Contains(body, tc.body))
			if tc.token != "" {
				assert.Check(t, !strings.Contains(body, tc.token), "the answer quotes the token")
				assert.Check(t, !strings.Contains(hdr.Get("WWW-Authenticate"), tc.token), "the challenge quotes the token")
			}
			if tc.status == 200 {
				return
			}
			challenge := hdr.Get("WWW-Authenticate")
			assert.Check(t, strings.HasPrefix(challenge, "Bearer "), challenge)
			assert.Check(t, is.Contains(challenge, `resource_metadata="`+hs.URL+`/.well-known/oauth-protected-resource"`))
			if tc.code != "" {
				assert.Check(t, is.Contains(challenge, `error="`+tc.code+`"`))
				assert.Check(t, is.Contains(challenge, `error_description="`))
			} else {
				assert.Check(t, !strings.Contains(challenge, "error="), challenge)
			}
		})
	}
}

// clock is a time that moves only when a test moves it.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// TestOIDCKeyRotation: a token signed with a key the verifier has not
// seen makes it fetch the key set again, at most once per KeyRefresh; a
// token of a key no longer published is refused.
func TestOIDCKeyRotation(t *testing.T) {
	idp := issuer.Start(t, issuer.WithAlgorithm("ES256"))
	c := &clock{now: time.Now()}
	hs := oidcServer(t, idp, OIDCConfig{}, WithClock(c.Now))
	old := idp.Token(t, issuer.Claims{"sub": "alice"})
	status, _, body := get(t, hs.URL, "Bearer "+old)
	assert.Assert(t, is.Equal(status, 200), body)
	fetched := idp.JWKSFetches()

	idp.Rotate(t)
	fresh := idp.Token(t, issuer.Claims{"sub": "alice"})
	// Right after a fetch the set is not fetched again...
	status, _, _ = get(t, hs.URL, "Bearer "+fresh)
	assert.Check(t, is.Equal(status, 401))
	assert.Check(t, is.Equal(idp.JWKSFetches(), fetched))
	// ...but once KeyRefresh has passed, the new key is.
	c.Add(KeyRefresh)
	status, _, body = get(t, hs.URL, "Bearer "+fresh)
	assert.Check(t, is.Equal(status, 200), body)
	assert.Check(t, is.Equal(idp.JWKSFetches(), fetched+1), "the new key was not fetched")

	status, _, body = get(t, hs.URL, "Bearer "+old)
	assert.Check(t, is.Equal(status, 401))
	assert.Check(t, is.Contains(body, "does not match any key"))
}

// TestOIDCForgeriesDoNotFetch: forged tokens cost the provider at most
// one key-set fetch per KeyRefresh, and none when they name a key it
// publishes.
func TestOIDCForgeriesDoNotFetch(t *testing.T) {
	idp := issuer.Start(t)
	c := &clock{now: time.Now()}
	hs := oidcServer(t, idp, OIDCConfig{}, WithClock(c.Now))
	status, _, _ := get(t, hs.URL, "Bearer "+idp.Token(t, issuer.Claims{"sub": "alice"}))
	assert.Assert(t, is.Equal(status, 200))
	fetched := idp.JWKSFetches()

	published := idp.SigningKey()
	impostor := &issuer.Key{ID: published.ID, Alg: published.Alg, Private: idp.NewKey(t, published.Alg).Private}
	for range 20 {
		status, _, _ = get(t, hs.URL, "Bearer "+idp.Token(t, issuer.Claims{"sub": "alice"}, issuer.SignedBy(impostor)))
		assert.Check(t, is.Equal(status, 401))
	}
	assert.Check(t, is.Equal(idp.JWKSFetches(), fetched), "a known key id with a bad signature made a fetch")

	// Concurrent forgeries with unknown key ids share one fetch.
	c.Add(KeyRefresh)
	forged := idp.Token(t, issuer.Claims{"sub": "alice"}, issuer.SignedBy(idp.NewKey(t, published.Alg)))
	var wg sync.WaitGroup
	for range 20 {
		wg.Go(func() {
			// Check, not Assert: FailNow belongs to the test's goroutine.
			req, err := http.NewRequestWithContext(testenv.Context(t), http.MethodGet, hs.URL, nil)
			if !assert.Check(t, err) {
				return
			}
			req.Header.Set("Authorization", "Bearer "+forged)
			res, err := http.DefaultClient.Do(req)
			if assert.Check(t, err) {
				res.Body.Close()
				assert.Check(t, is.Equal(res.StatusCode, 401))
			}
		})
	}
	wg.Wait()
	assert.Check(t, is.Equal(idp.JWKSFetches(), fetched+1), "unknown key ids made more than one fetch per KeyRefresh")
}

// TestOIDCClaims: the principal and roles come from the configured
// claims, dotted paths reaching into objects.
func TestOIDCClaims(t *testing.T) {
	idp := issuer.Start(t)
	for _, tc := range []struct {
		name   string
		cfg    OIDCConfig
		claims issuer.Claims
		want   string
	}{
		{name: "default sub, no roles claim", claims: issuer.Claims{"sub": "alice", "roles": []string{"operator"}}, want: "principal=alice roles= operator=false"},
		{name: "preferred_username", cfg: OIDCConfig{PrincipalClaim: "preferred_username"}, claims: issuer.Claims{"sub": "x|1", "preferred_username": "bob"}, want: "principal=bob"},
		{name: "nested roles", cfg: OIDCConfig{RolesClaim: "realm_access.roles"}, claims: issuer.Claims{"sub": "carol", "realm_access": map[string]any{"roles": []string{"operator"}}}, want: "roles=operator operator=true"},
		{name: "space-separated roles", cfg: OIDCConfig{RolesClaim: "scope"}, claims: issuer.Claims{"sub": "dan", "scope": "openid qa"}, want: "roles=openid,qa"},
		{name: "roles not strings", cfg: OIDCConfig{RolesClaim: "roles"}, claims: issuer.Claims{"sub": "erin", "roles": map[string]any{"operator": true}}, want: "roles= operator=false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hs := oidcServer(t, idp, tc.cfg)
			status, _, body := get(t, hs.URL, "Bearer "+idp.Token(t, tc.claims))
			assert.Check(t, is.Equal(status, 200), body)
			assert.Check(t, is.Contains(body, tc.want))
		})
	}
}

// TestNewOIDC: a configuration that cannot work stops the start with a
// sentence naming the setting.
func TestNewOIDC(t *testing.T) {
	idp := issuer.Start(t)
	// A provider whose keys would come over plain HTTP from elsewhere.
	var base string
	plainKeys := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":"http://keys.example.com/jwks","authorization_endpoint":%q,"token_endpoint":%q}`, base, base+"/a", base+"/t")
	}))
	t.Cleanup(plainKeys.Close)
	base = plainKeys.URL
	for _, tc := range []struct {
		name string
		cfg  OIDCConfig
		err  string
	}{
		{name: "no audience", cfg: OIDCConfig{Issuer: idp.URL}, err: "FLOW_OIDC_AUDIENCE is not set"},
		{name: "not a URL", cfg: OIDCConfig{Issuer: "idp.example.com", Audience: "a"}, err: "FLOW_OIDC_ISSUER is not an http(s) URL"},
		{name: "plain http elsewhere", cfg: OIDCConfig{Issuer: "http://idp.example.com", Audience: "a"}, err: "must be https"},
		{name: "keys over plain http", cfg: OIDCConfig{Issuer: plainKeys.URL, Audience: "a"}, err: "jwks_uri that is not https"},
		{name: "issuer differs from discovery", cfg: OIDCConfig{Issuer: idp.URL + "/realm", Audience: "a"}, err: "discovery document"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewOIDC(testenv.Context(t), tc.cfg)
			assert.Check(t, is.ErrorContains(err, tc.err))
		})
	}
	v, err := NewOIDC(context.Background(), OIDCConfig{Issuer: idp.URL, Audience: "a"})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(v.Config().PrincipalClaim, DefaultPrincipalClaim))
}

// TestOIDCKeysUnreachable: when the provider's key set cannot be read,
// the caller is told to try again (503), not that the token is bad, and
// the provider is asked again only after KeyRefresh.
func TestOIDCKeysUnreachable(t *testing.T) {
	minter := issuer.Start(t)
	var fetches atomic.Int64
	var base string
	idp := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/jwks" {
			fetches.Add(1)
			http.Error(w, "down", http.StatusBadGateway)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"issuer":%q,"jwks_uri":%q,"authorization_endpoint":%q,"token_endpoint":%q}`, base, base+"/jwks", base+"/authorize", base+"/token")
	}))
	t.Cleanup(idp.Close)
	base = idp.URL
	v, err := NewOIDC(testenv.Context(t), OIDCConfig{Issuer: idp.URL, Audience: "selenium-flow"})
	assert.NilError(t, err)
	hs := httptest.NewServer(NewAuthenticator(WithOIDC(v)).Middleware(http.NotFoundHandler()))
	t.Cleanup(hs.Close)
	token := minter.Token(t, issuer.Claims{"sub": "alice", "iss": idp.URL})
	for range 3 {
		status, _, body := get(t, hs.URL, "Bearer "+token)
		assert.Check(t, is.Equal(status, http.StatusServiceUnavailable))
		assert.Check(t, is.Contains(body, "could not fetch its identity provider's signing keys"))
		assert.Check(t, !strings.Contains(body, idp.URL+"/jwks"), body)
	}
	assert.Check(t, is.Equal(fetches.Load(), int64(1)))
}
