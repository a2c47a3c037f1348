// Package issuer is an OpenID Connect provider that a test runs on
// 127.0.0.1: a discovery document, a JWKS with keys generated per run,
// key rotation, tokens minted with chosen claims and algorithm (the
// broken ones included, "none" and HS256 keyed with the public key), and
// an authorization endpoint that approves at once, with a token endpoint
// that checks PKCE (S256), for sign-in by authorization code. Discovery
// and the token endpoint answer cross-origin requests (CORS), so a page
// in a real browser can sign in against it.
//
// A test starts one and points the server at it:
//
//	idp := issuer.Start(t, issuer.WithAudience("selenium-flow"))
//	srv := servertest.New(t, server.Config{OIDC: auth.OIDCConfig{Issuer: idp.URL, Audience: "selenium-flow"}})
//	token := idp.Token(t, issuer.Claims{"sub": "alice"})
//
// It imports nothing of the server, so any package's tests can use it.
package issuer

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// Issuer is a running provider. Its methods are safe for concurrent use.
type Issuer struct {
	// URL is the issuer identifier and base URL, http://127.0.0.1:port.
	URL string
	// Audience is the aud Token puts in a token unless the claims name one.
	Audience string
	// Subject is who the authorization endpoint signs in, unless the
	// request carries a login_hint.
	Subject string

	alg     jose.SignatureAlgorithm
	claims  Claims
	fetches atomic.Int64

	mu    sync.Mutex
	keys  []*Key // keys[0] signs; all are published
	codes map[string]grant
	next  int
}

// Key is one signing key of the issuer.
type Key struct {
	ID      string
	Alg     jose.SignatureAlgorithm
	Private crypto.Signer
}

// Public is the key's public half.
func (k *Key) Public() crypto.PublicKey { return k.Private.Public() }

// Option configures Start.
type Option func(*Issuer)

// WithSubject sets who the authorization endpoint signs in (default "alice").
func WithSubject(sub string) Option { return func(i *Issuer) { i.Subject = sub } }

// WithAlgorithm signs with RS256 (the default) or ES256.
func WithAlgorithm(alg jose.SignatureAlgorithm) Option {
	return func(i *Issuer) { i.alg = alg }
}

// WithClaims adds claims to every token the token endpoint issues, such
// as {"roles": []string{"operator"}}.
func WithClaims(c Claims) Option { return func(i *Issuer) { i.claims = c } }

// Start runs an issuer on 127.0.0.1 until t ends.
func Start(t testing.TB, opts ...Option) *Issuer {
	t.Helper()
	i := &Issuer{Audience: "selenium-flow", Subject: "alice", alg: jose.RS256, codes: map[string]grant{}}
	for _, o := range opts {
		o(i)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", crossOrigin(i.discovery))
	mux.HandleFunc("OPTIONS /.well-known/openid-configuration", crossOrigin(nil))
	mux.HandleFunc("GET /jwks", i.jwks)
	mux.HandleFunc("GET /authorize", i.authorize)
	mux.HandleFunc("POST /token", crossOrigin(i.token))
	mux.HandleFunc("OPTIONS /token", crossOrigin(nil))
	hs := httptest.NewServer(mux)
	t.Cleanup(hs.Close)
	i.URL = hs.URL
	i.Rotate(t)
	return i
}

// Rotate makes a new key the signing key and stops publishing the
// others, as a provider does once old tokens have expired. It returns the
// new key.
func (i *Issuer) Rotate(t testing.TB) *Key {
	t.Helper()
	k := i.NewKey(t, i.alg)
	i.mu.Lock()
	defer i.mu.Unlock()
	i.keys = []*Key{k}
	return k
}

// NewKey makes a key of the issuer's kind that it does not publish: a
// token signed with it is a forgery.
func (i *Issuer) NewKey(t testing.TB, alg jose.SignatureAlgorithm) *Key {
	t.Helper()
	var priv crypto.Signer
	var err error
	switch alg {
	case jose.ES256:
		priv, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case jose.RS256:
		priv, err = rsa.GenerateKey(rand.Reader, 2048)
	default:
		t.Fatalf("issuer makes RS256 or ES256 keys, not %s", alg)
	}
	if err != nil {
		t.Fatal(err)
	}
	i.mu.Lock()
	i.next++
	id := fmt.Sprintf("key-%d", i.next)
	i.mu.Unlock()
	return &Key{ID: id, Alg: alg, Private: priv}
}

// SigningKey is the key tokens are signed with now.
func (i *Issuer) SigningKey() *Key {
	i.mu.Lock()
	defer i.mu.Unlock()
	return i.keys[0]
}

// JWKSFetches counts the requests for the key set so far: a verifier
// that met a new key fetched it again.
func (i *Issuer) JWKSFetches() int { return int(i.fetches.Load()) }

func (i *Issuer) discovery(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{
		"issuer":                                i.URL,
		"authorization_endpoint":                i.URL + "/authorize",
		"token_endpoint":                        i.URL + "/token",
		"jwks_uri":                              i.URL + "/jwks",
		"response_types_supported":              []string{"code"},
		"grant_types_supported":                 []string{"authorization_code"},
		"subject_types_supported":               []string{"public"},
		"id_token_signing_alg_values_supported": []string{string(jose.RS256), string(jose.ES256)},
		"code_challenge_methods_supported":      []string{"S256"},
		"token_endpoint_auth_methods_supported": []string{"none"},
	})
}

func (i *Issuer) jwks(w http.ResponseWriter, _ *http.Request) {
	i.fetches.Add(1)
	i.mu.Lock()
	set := jose.JSONWebKeySet{}
	for _, k := range i.keys {
		set.Keys = append(set.Keys, jose.JSONWebKey{Key: k.Public(), KeyID: k.ID, Algorithm: string(k.Alg), Use: "sig"})
	}
	i.mu.Unlock()
	writeJSON(w, http.StatusOK, set)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
