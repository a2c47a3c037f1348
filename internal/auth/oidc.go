package auth

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/coreos/go-oidc/v3/oidc"
)

// OIDCConfig is how bearer JWTs from an OpenID Connect provider are
// accepted (the FLOW_OIDC_* settings). The zero value accepts none.
type OIDCConfig struct {
	// Issuer is the provider's issuer URL (FLOW_OIDC_ISSUER); its
	// discovery document and keys are fetched from there. https, or http
	// on a loopback host.
	Issuer string
	// Audience is the aud a token must carry to be for this server
	// (FLOW_OIDC_AUDIENCE); required with Issuer.
	Audience string
	// PrincipalClaim names the claim that holds the caller's principal
	// (FLOW_OIDC_PRINCIPAL_CLAIM); "sub" when empty.
	PrincipalClaim string
	// RolesClaim names the claim that holds the caller's roles, a list or
	// a space-separated string, a dotted path reaching into objects such
	// as "realm_access.roles" (FLOW_OIDC_ROLES_CLAIM); no roles when empty.
	RolesClaim string
	// RequiredRole, when set, is a role a token must grant to use the
	// server at all (FLOW_OIDC_REQUIRED_ROLE).
	RequiredRole string
	// AdminClientID is the public client id the admin page signs in with,
	// by authorization code with PKCE (FLOW_OIDC_ADMIN_CLIENT_ID).
	AdminClientID string
}

// Enabled reports whether OIDC tokens are accepted at all.
func (c OIDCConfig) Enabled() bool { return c.Issuer != "" }

// DefaultPrincipalClaim is the claim a principal is read from unless
// OIDCConfig.PrincipalClaim names another.
const DefaultPrincipalClaim = "sub"

// Algorithms are the signature algorithms a token may be signed with:
// asymmetric only, so neither "none" nor an HMAC keyed with a public key
// (the HS256 confusion) is ever accepted.
var Algorithms = []string{
	oidc.RS256, oidc.RS384, oidc.RS512,
	oidc.ES256, oidc.ES384, oidc.ES512,
	oidc.PS256, oidc.PS384, oidc.PS512,
	oidc.EdDSA,
}

// Leeway is how far past its exp a token is still accepted, for clocks
// that differ a little; go-oidc allows five minutes on nbf.
const Leeway = 30 * time.Second

// OIDC verifies bearer JWTs from one provider and maps them to a
// principal and roles.
type OIDC struct {
	cfg      OIDCConfig
	verifier *oidc.IDTokenVerifier
}

// OIDCOption adjusts NewOIDC.
type OIDCOption func(*oidcOptions)

type oidcOptions struct {
	client  *http.Client
	now     func() time.Time
	refresh time.Duration
}

// WithClock reads the time from now instead of time.Now, for expiry and
// for the key set's refresh interval (tests that move time).
func WithClock(now func() time.Time) OIDCOption {
	return func(o *oidcOptions) { o.now = now }
}

// NewOIDC reads the provider's discovery document, so a wrong issuer
// stops the start with a sentence instead of refusing every caller later.
// Its keys are fetched when the first token arrives, and again when a
// token names a key not seen yet (the provider rotated its keys).
func NewOIDC(ctx context.Context, cfg OIDCConfig, opts ...OIDCOption) (*OIDC, error) {
	o := oidcOptions{client: &http.Client{Timeout: 10 * time.Second}, now: time.Now, refresh: KeyRefresh}
	for _, opt := range opts {
		opt(&o)
	}
	if err := cfg.check(); err != nil {
		return nil, err
	}
	if cfg.PrincipalClaim == "" {
		cfg.PrincipalClaim = DefaultPrincipalClaim
	}
	provider, err := oidc.NewProvider(oidc.ClientContext(ctx, o.client), cfg.Issuer)
	if err != nil {
		return nil, fmt.Errorf("FLOW_OIDC_ISSUER: the discovery document of %s could not be read (%v); check the issuer URL, which must equal the issuer its /.well-known/openid-configuration names", cfg.Issuer, err)
	}
	var discovered struct {
		JWKS string `json:"jwks_uri"`
	}
	if err := provider.Claims(&discovered); err != nil || discovered.JWKS == "" {
		return nil, fmt.Errorf("FLOW_OIDC_ISSUER: the discovery document of %s names no jwks_uri, so tokens could not be checked; is it an OpenID Connect provider?", cfg.Issuer)
	}
	if u, err := url.Parse(discovered.JWKS); err != nil || !(u.Scheme == "https" || (u.Scheme == "http" && loopbackHost(u.Hostname()))) {
		return nil, fmt.Errorf("FLOW_OIDC_ISSUER: the discovery document of %s names a jwks_uri that is not https; the keys that sign tokens must come over TLS", cfg.Issuer)
	}
	// Our own key set rather than go-oidc's: it refetches on an unknown
	// key id at most once per refresh, and never for a known one.
	keys := &keySet{url: discovered.JWKS, client: o.client, now: o.now, refresh: o.refresh}
	verifier := oidc.NewVerifier(cfg.Issuer, keys, &oidc.Config{
		ClientID:             cfg.Audience,
		SupportedSigningAlgs: Algorithms,
		Now:                  func() time.Time { return o.now().Add(-Leeway) },
	})
	return &OIDC{cfg: cfg, verifier: verifier}, nil
}

// check refuses a configuration that could not work, or that would take
// keys over a connection anyone on the path could change.
func (c OIDCConfig) check() error {
	u, err := url.Parse(c.Issuer)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") {
		return fmt.Errorf("FLOW_OIDC_ISSUER is not an http(s) URL; set it to the identity provider's issuer, e.g. https://idp.example.com/realms/team")
	}
	if u.Scheme == "http" && !loopbackHost(u.Hostname()) {
		return fmt.Errorf("FLOW_OIDC_ISSUER must be https (http only on a loopback host): the keys that sign tokens are fetched from it")
	}
	if c.Audience == "" {
		return fmt.Errorf("FLOW_OIDC_AUDIENCE is not set: set it to the audience (aud) your identity provider puts in tokens for this server, so tokens issued for other applications are refused")
	}
	return nil
}

func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Config is the configuration the verifier was built with, PrincipalClaim
// filled in.
func (v *OIDC) Config() OIDCConfig { return v.cfg }

// Identity is who a verified token is from.
type Identity struct {
	Principal string
	Roles     []string
}

// Verify checks a bearer JWT — signature by a key the provider publishes,
// an allowed algorithm, iss, aud, exp and nbf — and maps it to a
// principal and roles. A refusal is a *Failure with the status and the
// sentence the caller should read.
func (v *OIDC) Verify(ctx context.Context, raw string) (Identity, error) {
	tok, err := v.verifier.Verify(ctx, raw)
	if err != nil {
		return Identity{}, v.failure(raw, err)
	}
	var claims map[string]any
	if err := tok.Claims(&claims); err != nil {
		return Identity{}, v.failure(raw, err)
	}
	principal, _ := lookupClaim(claims, v.cfg.PrincipalClaim).(string)
	if !ValidPrincipal(principal) || principal == Local {
		return Identity{}, &Failure{Status: http.StatusForbidden, Message: fmt.Sprintf(
			"The access token is valid, but its %s claim is missing or is not a usable principal name (letters, digits, dot, underscore and dash, at most %d, not %q). Ask the operator to set FLOW_OIDC_PRINCIPAL_CLAIM to a claim that holds such a name, e.g. preferred_username.",
			v.cfg.PrincipalClaim, MaxPrincipalLen, Local)}
	}
	roles := rolesOf(lookupClaim(claims, v.cfg.RolesClaim))
	if r := v.cfg.RequiredRole; r != "" && !slices.Contains(roles, r) {
		return Identity{}, &Failure{Status: http.StatusForbidden, Code: "insufficient_scope", Message: fmt.Sprintf(
			"The access token is valid, but it does not grant the role %s (in its %s claim), which this server requires. Ask your identity provider's administrator for that role, then sign in again for a new token.",
			r, claimName(v.cfg.RolesClaim))}
	}
	return Identity{Principal: principal, Roles: roles}, nil
}

func claimName(c string) string {
	if c == "" {
		return "roles (FLOW_OIDC_ROLES_CLAIM is not set, so none)"
	}
	return c
}

// failure turns go-oidc's error into the sentence a caller can act on.
// The token is never quoted; only its header's algorithm is looked at,
// and named only when it is a known one.
func (v *OIDC) failure(raw string, err error) *Failure {
	f := &Failure{Status: http.StatusUnauthorized, Code: "invalid_token"}
	from := " from the identity provider at " + v.cfg.Issuer
	var expired *oidc.TokenExpiredError
	msg := err.Error()
	switch alg := headerAlg(raw); {
	case errors.As(err, &expired):
		f.Message = "The access token has expired. Get a new one" + from + " (sign in again, or use a refresh token) and send it as Authorization: Bearer <token>."
	case alg != "" && !slices.Contains(Algorithms, alg):
		f.Message = fmt.Sprintf("The access token is signed with %s, which this server does not accept: it accepts %s only, never none or HMAC. Use a token%s, which signs with one of those.", knownAlg(alg), strings.Join(Algorithms, ", "), from)
	case strings.Contains(msg, fetchFailed):
		f.Status, f.Code = http.StatusServiceUnavailable, ""
		f.Message = "The server could not fetch its identity provider's signing keys to check the token. Try again shortly; if it persists, the operator should check that the server can reach FLOW_OIDC_ISSUER."
	case strings.Contains(msg, "failed to verify signature"):
		f.Message = "The access token's signature does not match any key the identity provider at " + v.cfg.Issuer + " publishes. Get a fresh token there; tokens from another provider, or altered ones, are refused."
	case strings.Contains(msg, "issued by a different provider"):
		f.Message = "The access token was issued by another identity provider: this server accepts tokens from " + v.cfg.Issuer + " only. Get a token there."
	case strings.Contains(msg, "expected audience"):
		f.Message = fmt.Sprintf("The access token was issued for another application: this server needs the audience %s. Ask the identity provider at %s for a token for that audience (the resource in its protected-resource metadata).", v.cfg.Audience, v.cfg.Issuer)
	case strings.Contains(msg, "nbf"):
		f.Message = "The access token is not valid yet (its nbf time is in the future). Check that this server's and the identity provider's clocks agree, then try again."
	default:
		f.Message = "The bearer token is neither a token from this server's FLOW_TOKENS file nor a well-formed access token" + from + ". Send Authorization: Bearer <token> with one of those."
	}
	return f
}

// knownAlg names an algorithm a header carried only when it is a
// registered JOSE name, so no caller-chosen text is echoed.
func knownAlg(alg string) string {
	for _, known := range append([]string{"none", "HS256", "HS384", "HS512"}, Algorithms...) {
		if alg == known {
			return "the algorithm " + known
		}
	}
	return "an unknown algorithm"
}
