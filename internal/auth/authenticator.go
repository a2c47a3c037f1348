package auth

import (
	"context"
	"fmt"
	"net/http"
	"strings"
)

// Authenticator is the one authentication every HTTP surface goes through
// (MCP, the read API, the HTTP API, the admin page): a bearer is tried as
// a static token (FLOW_TOKENS), then, when OIDC is configured, as a JWT
// from the identity provider. With neither configured every request is
// the Local caller, which CheckListen allows on loopback only.
type Authenticator struct {
	tokens   *Tokens
	oidc     *OIDC
	metadata func(*http.Request) string
}

// Option configures an Authenticator.
type Option func(*Authenticator)

// WithTokens accepts the static tokens of t.
func WithTokens(t *Tokens) Option { return func(a *Authenticator) { a.tokens = t } }

// WithOIDC accepts JWTs that v verifies.
func WithOIDC(v *OIDC) Option { return func(a *Authenticator) { a.oidc = v } }

// WithResourceMetadata names, for a request, the URL of the OAuth 2.0
// Protected Resource Metadata (RFC 9728) that a 401 points MCP clients to
// so they find the issuer; used only with OIDC.
func WithResourceMetadata(url func(*http.Request) string) Option {
	return func(a *Authenticator) { a.metadata = url }
}

// NewAuthenticator builds the authentication of the HTTP surfaces.
func NewAuthenticator(opts ...Option) *Authenticator {
	a := &Authenticator{}
	for _, o := range opts {
		o(a)
	}
	return a
}

// Open reports whether no credential is configured: every request is
// then the Local caller.
func (a *Authenticator) Open() bool { return a.tokens.Len() == 0 && a.oidc == nil }

// OIDC is the verifier of JWTs, nil without OIDC.
func (a *Authenticator) OIDC() *OIDC { return a.oidc }

// Failure is why a request was not let through: the HTTP status, the
// OAuth error code for the WWW-Authenticate header ("" for none), and the
// sentence the caller reads. It never holds the token.
type Failure struct {
	Status  int
	Code    string
	Message string
}

func (f *Failure) Error() string { return f.Message }

// MaxBearer is the longest bearer accepted, in bytes; a longer one is
// refused before it is parsed.
const MaxBearer = 16 << 10

// Authenticate says who a request is from: its context with the principal
// and roles recorded, or the Failure to answer with.
func (a *Authenticator) Authenticate(r *http.Request) (context.Context, *Failure) {
	ctx := r.Context()
	if a.Open() {
		// The loopback-only local caller runs its own server.
		return WithRoles(WithPrincipal(ctx, Local), []string{Operator}), nil
	}
	token, f := a.bearer(r.Header.Values("Authorization"))
	if f != nil {
		return nil, f
	}
	if p, roles, ok := a.tokens.LookupRoles(token); ok {
		return WithRoles(WithPrincipal(ctx, p), roles), nil
	}
	if a.oidc == nil {
		return nil, &Failure{Status: http.StatusUnauthorized, Code: "invalid_token",
			Message: "The bearer token is not known to this server: send Authorization: Bearer <token> with a token from its FLOW_TOKENS file."}
	}
	id, err := a.oidc.Verify(ctx, token)
	if err != nil {
		if f, ok := err.(*Failure); ok {
			return nil, f
		}
		return nil, &Failure{Status: http.StatusUnauthorized, Code: "invalid_token", Message: "The access token could not be checked: get a new one and try again."}
	}
	return WithRoles(WithPrincipal(ctx, id.Principal), id.Roles), nil
}

// bearer reads the one Authorization: Bearer header of a request.
func (a *Authenticator) bearer(headers []string) (string, *Failure) {
	if len(headers) > 1 {
		return "", &Failure{Status: http.StatusBadRequest, Code: "invalid_request",
			Message: "The request has more than one Authorization header; send exactly one: Authorization: Bearer <token>."}
	}
	var h string
	if len(headers) == 1 {
		h = strings.TrimSpace(headers[0])
	}
	scheme, token, ok := strings.Cut(h, " ")
	token = strings.TrimSpace(token)
	// RFC 9110: the scheme is case-insensitive.
	if !ok || !strings.EqualFold(scheme, "Bearer") || token == "" {
		return "", &Failure{Status: http.StatusUnauthorized, Message: a.missing()}
	}
	if len(token) > MaxBearer {
		return "", &Failure{Status: http.StatusUnauthorized, Code: "invalid_token",
			Message: fmt.Sprintf("The bearer token is longer than %d bytes, more than any token this server accepts: send the access token or FLOW_TOKENS token itself.", MaxBearer)}
	}
	return token, nil
}

func (a *Authenticator) missing() string {
	if a.oidc == nil {
		return "This server needs a bearer token: send the header Authorization: Bearer <token> with a token from the server's FLOW_TOKENS file."
	}
	msg := "This server needs a bearer token: send the header Authorization: Bearer <token> with an access token from the identity provider at " + a.oidc.cfg.Issuer + " (its protected-resource metadata, under /.well-known/oauth-protected-resource, names it)"
	if a.tokens.Len() > 0 {
		msg += " or a token from the server's FLOW_TOKENS file"
	}
	return msg + "."
}

// Middleware refuses a request Authenticate refuses, with its status and
// sentence and the WWW-Authenticate header MCP clients follow, and hands
// the others on with their principal and roles.
func (a *Authenticator) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, f := a.Authenticate(r)
		if f != nil {
			a.Refuse(w, r, f)
			return
		}
		next.ServeHTTP(w, r.WithContext(ctx))
	})
}

// Refuse writes f: a 401 or 403 carries a WWW-Authenticate challenge
// (RFC 6750), which with OIDC names the protected-resource metadata
// (RFC 9728) where an MCP client finds the issuer.
func (a *Authenticator) Refuse(w http.ResponseWriter, r *http.Request, f *Failure) {
	if f.Status == http.StatusUnauthorized || f.Status == http.StatusForbidden {
		w.Header().Set("WWW-Authenticate", a.challenge(r, f))
	}
	http.Error(w, f.Message, f.Status)
}

func (a *Authenticator) challenge(r *http.Request, f *Failure) string {
	params := []string{`realm="selenium-flow"`}
	if a.oidc != nil && a.metadata != nil {
		params = append(params, fmt.Sprintf("resource_metadata=%q", a.metadata(r)))
	}
	if f.Code != "" {
		params = append(params, fmt.Sprintf("error=%q", f.Code), fmt.Sprintf("error_description=%q", quotable(f.Message)))
	}
	return "Bearer " + strings.Join(params, ", ")
}

// quotable keeps what a quoted-string can carry plainly: printable ASCII
// without quote or backslash (RFC 6750 §3 error_description).
func quotable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r > 0x7e || r == '"' || r == '\\' {
			return ' '
		}
		return r
	}, s)
}
