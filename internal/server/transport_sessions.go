package server

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"sync"
	"time"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// SessionIdleTTL is how long a Streamable HTTP transport session lives
// without a request: a client that went away without DELETE leaves nothing
// behind for longer.
const SessionIdleTTL = time.Hour

// sessionPrefix starts every transport session id this server makes.
const sessionPrefix = "mcp-session-"

// transportSessions are the Streamable HTTP sessions (Mcp-Session-Id) of
// the initialize handshake, each bound to the principal that created it: a
// request that names another principal's session, or one that expired or
// ended, is answered 404 as if the id had never existed, so a session id
// is not a way to reach another caller (end it, open its event stream or
// set its log level). The 2026-07-28 protocol has no transport sessions.
type transportSessions struct {
	ttl time.Duration
	now func() time.Time

	mu        sync.Mutex
	byID      map[string]*transportSession
	lastSweep time.Time
}

type transportSession struct {
	principal string
	lastUsed  time.Time
}

func newTransportSessions(ttl time.Duration) *transportSessions {
	return &transportSessions{ttl: ttl, now: time.Now, byID: map[string]*transportSession{}}
}

// errNoSession is what mcp-go answers 404 for.
var errNoSession = errors.New("no such session")

// ResolveSessionIdManager gives mcp-go the session ids of the request's
// principal (mcpserver.SessionIdManagerResolver).
// mcp-go's idle sweeper asks with no request, to end an expired session
// of whoever owned it.
func (t *transportSessions) ResolveSessionIdManager(r *http.Request) mcpserver.SessionIdManager {
	if r == nil {
		return sweeper{t}
	}
	return principalSessions{t: t, principal: auth.Principal(r.Context())}
}

// sweeper ends sessions of any principal; mcp-go's idle sweeper uses it.
type sweeper struct{ t *transportSessions }

func (s sweeper) Generate() string { return "" }

func (s sweeper) Validate(string) (bool, error) { return false, errNoSession }

func (s sweeper) Terminate(id string) (bool, error) {
	s.t.mu.Lock()
	delete(s.t.byID, id)
	s.t.mu.Unlock()
	return false, nil
}

// owns reports whether id is a live session of principal, and marks it used.
func (t *transportSessions) owns(principal, id string) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.byID[id]
	now := t.now()
	if s == nil || s.principal != principal {
		return false
	}
	if now.Sub(s.lastUsed) > t.ttl {
		delete(t.byID, id)
		return false
	}
	s.lastUsed = now
	return true
}

// sweepLocked drops expired sessions, at most once a minute, so memory is
// bounded by the sessions used within the TTL without a goroutine of its
// own.
func (t *transportSessions) sweepLocked(now time.Time) {
	if now.Sub(t.lastSweep) < time.Minute {
		return
	}
	t.lastSweep = now
	for id, s := range t.byID {
		if now.Sub(s.lastUsed) > t.ttl {
			delete(t.byID, id)
		}
	}
}

// principalSessions is the transport sessions seen by one principal.
type principalSessions struct {
	t         *transportSessions
	principal string
}

func (p principalSessions) Generate() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	id := sessionPrefix + hex.EncodeToString(b[:])
	now := p.t.now()
	p.t.mu.Lock()
	defer p.t.mu.Unlock()
	p.t.sweepLocked(now)
	p.t.byID[id] = &transportSession{principal: p.principal, lastUsed: now}
	return id
}

func (p principalSessions) Validate(id string) (bool, error) {
	if !p.t.owns(p.principal, id) {
		return false, errNoSession
	}
	return false, nil
}

func (p principalSessions) Terminate(id string) (bool, error) {
	p.t.mu.Lock()
	defer p.t.mu.Unlock()
	if s := p.t.byID[id]; s != nil && s.principal == p.principal {
		delete(p.t.byID, id)
	}
	return false, nil
}

// ownSessionsOnly answers 404 before mcp-go sees a request that names a
// transport session the caller does not own: mcp-go (v1.2.1) validates the
// id of a POST, but ends a session on DELETE and opens its event stream on
// GET without asking whose it is.
func (t *transportSessions) ownSessionsOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get(mcpserver.HeaderKeySessionID)
		if id != "" && !t.owns(auth.Principal(r.Context()), id) {
			http.Error(w, "No such session: it ended, expired or was never yours. Start a new one with initialize.", http.StatusNotFound)
			return
		}
		next.ServeHTTP(w, r)
	})
}
