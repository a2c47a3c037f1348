// Package auth says who a request is from. A caller is a principal: on
// stdio the one local user, over HTTP whoever holds a bearer token — a
// static one from FLOW_TOKENS (Tokens) or an access token from an OpenID
// Connect provider (OIDC). Every per-caller thing — the browser session,
// kept files, flows, secrets — is keyed by the principal, so one caller
// never sees another's.
//
// Every HTTP surface authenticates through one Authenticator:
//
//	a := auth.NewAuthenticator(auth.WithTokens(tokens), auth.WithOIDC(verifier))
//	http.Handle("/", a.Middleware(mux)) // handlers read auth.Principal(r.Context())
package auth

import (
	"bufio"
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"fmt"
	"net"
	"net/http"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Local is the principal of the stdio transport.
const Local = "local"

type principalKey struct{}

// WithPrincipal records the caller of a request.
func WithPrincipal(ctx context.Context, principal string) context.Context {
	return context.WithValue(ctx, principalKey{}, principal)
}

// Principal is the caller of a request; Local when the transport has no
// notion of callers (stdio).
func Principal(ctx context.Context) string {
	if p, ok := ctx.Value(principalKey{}).(string); ok && p != "" {
		return p
	}
	return Local
}

// MaxPrincipalLen is the longest principal name, in bytes, that
// ValidPrincipal accepts; refusals quote it.
const MaxPrincipalLen = 64

var validName = regexp.MustCompile(fmt.Sprintf(`^[A-Za-z0-9._-]{1,%d}$`, MaxPrincipalLen))

// ValidPrincipal reports whether a name can be a principal: it names a
// folder under FLOW_DATA_DIR, so it is kept to letters, digits, . _ and -,
// and is not "." or "..". Every package that keys files by principal
// checks with this one function.
func ValidPrincipal(name string) bool {
	return validName.MatchString(name) && name != "." && name != ".."
}

// Tokens maps bearer tokens to principals and their roles. Only token
// digests are kept, and a lookup compares the digest of every entry in
// constant time, so how long it takes says nothing about any token.
type Tokens struct {
	entries []tokenEntry
}

type tokenEntry struct {
	digest    [32]byte
	principal string
	roles     []string
}

// NewTokens builds a token table from token → principal pairs.
func NewTokens(pairs map[string]string) (*Tokens, error) {
	t := &Tokens{}
	for tok, p := range pairs {
		if err := t.add(tok, p); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Add accepts one more token for a principal, with the roles it grants.
func (t *Tokens) Add(token, principal string, roles ...string) error {
	return t.add(token, principal, roles...)
}

func (t *Tokens) add(token, principal string, roles ...string) error {
	// Neither field is quoted: with the columns swapped, the "principal"
	// would be the token, printed to a log.
	if len(token) < 16 {
		return fmt.Errorf("the token is shorter than 16 characters; use a long random token (e.g. openssl rand -hex 24), before the principal on its line")
	}
	if !ValidPrincipal(principal) {
		return fmt.Errorf("the principal is not valid; use letters, digits, dot, underscore and dash (at most %d), after the token on its line", MaxPrincipalLen)
	}
	e := tokenEntry{digest: sha256.Sum256([]byte(token)), principal: principal, roles: slices.Clone(roles)}
	// A token given again (a later line) replaces the earlier entry.
	for i := range t.entries {
		if t.entries[i].digest == e.digest {
			t.entries[i] = e
			return nil
		}
	}
	t.entries = append(t.entries, e)
	return nil
}

// LoadTokens reads a FLOW_TOKENS file: one "token principal
// [roles=a,b]" line per token (e.g. "roles=operator"); blank lines and lines
// starting with # are skipped.
func LoadTokens(path string) (*Tokens, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the FLOW_TOKENS file: %w", err)
	}
	defer f.Close()
	t, _ := NewTokens(nil)
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if n == 1 {
			// An editor's byte-order mark is not part of the first token.
			line = strings.TrimPrefix(line, "\ufeff")
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.Fields(line)
		if len(fields) != 2 && len(fields) != 3 {
			return nil, fmt.Errorf("FLOW_TOKENS line %d: want \"token principal [roles=operator]\", found %d fields", n, len(fields))
		}
		var roles []string
		if len(fields) == 3 {
			var err error
			if roles, err = parseRoles(fields[2]); err != nil {
				return nil, fmt.Errorf("FLOW_TOKENS line %d: %w", n, err)
			}
		}
		if err := t.add(fields[0], fields[1], roles...); err != nil {
			return nil, fmt.Errorf("FLOW_TOKENS line %d: %w", n, err)
		}
	}
	return t, sc.Err()
}

// Len is the number of tokens.
func (t *Tokens) Len() int {
	if t == nil {
		return 0
	}
	return len(t.entries)
}

// Lookup returns the principal a token belongs to.
func (t *Tokens) Lookup(token string) (string, bool) {
	p, _, ok := t.LookupRoles(token)
	return p, ok
}

// LookupRoles returns the principal a token belongs to and the roles it
// grants.
func (t *Tokens) LookupRoles(token string) (string, []string, bool) {
	if t == nil {
		return "", nil, false
	}
	d := sha256.Sum256([]byte(token))
	found := -1
	for i := range t.entries {
		// Every entry is compared, with no early exit.
		if subtle.ConstantTimeCompare(t.entries[i].digest[:], d[:]) == 1 {
			found = i
		}
	}
	if found < 0 {
		return "", nil, false
	}
	e := t.entries[found]
	return e.principal, slices.Clone(e.roles), true
}

// Middleware refuses a request without a valid bearer token, with a
// sentence naming the header, and records the token's principal: the
// Authenticator with these tokens only. With no tokens at all every
// request is the Local caller (loopback only; see CheckListen).
func (t *Tokens) Middleware(next http.Handler) http.Handler {
	return NewAuthenticator(WithTokens(t)).Middleware(next)
}

// CheckListen refuses to serve a non-loopback address without tokens or
// OIDC: anyone who could reach it would drive browsers as the local user.
func CheckListen(addr string, t *Tokens, o OIDCConfig) error {
	if t.Len() > 0 || o.Enabled() {
		return nil
	}
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q is not host:port: %w", addr, err)
	}
	if loopbackHost(host) {
		return nil
	}
	return fmt.Errorf("refusing to serve %s without tokens: set FLOW_TOKENS to a file of \"token principal\" lines (or pass --token), or FLOW_OIDC_ISSUER and FLOW_OIDC_AUDIENCE, or listen on 127.0.0.1", addr)
}
