package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
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
//
// With a shared store (the workspace store, FLOW_STORE) each session is
// also written there with the clientInfo initialize gave it, so that a
// replica which did not see initialize serves the session, for the same
// principal only, and decides the same surface (clientFrom).
type transportSessions struct {
	ttl    time.Duration
	now    func() time.Time
	shared workspaces.TransportStore // nil: this process's memory only

	mu        sync.Mutex
	byID      map[string]*transportSession
	lastSweep time.Time
}

type transportSession struct {
	principal string
	lastUsed  time.Time
	// lastShared is when the shared store's copy was last written, which
	// slides its TTL.
	lastShared time.Time
	client     workspaces.Transport // the shared record, clientInfo and all
}

func newTransportSessions(ttl time.Duration, shared workspaces.TransportStore) *transportSessions {
	return &transportSessions{ttl: ttl, now: time.Now, shared: shared, byID: map[string]*transportSession{}}
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

// owns reports whether id is a live session of principal, and marks it
// used. A session this process does not know is looked up in the shared
// store: another replica may have made it.
func (t *transportSessions) owns(principal, id string) bool {
	now := t.now()
	t.mu.Lock()
	s := t.byID[id]
	if s != nil && now.Sub(s.lastUsed) > t.ttl {
		delete(t.byID, id)
		s = nil
	}
	if s != nil {
		ok := s.principal == principal
		var slide *workspaces.Transport
		if ok {
			s.lastUsed = now
			if t.shared != nil && now.Sub(s.lastShared) >= time.Minute {
				s.lastShared = now
				c := s.client
				slide = &c
			}
		}
		t.mu.Unlock()
		if slide != nil {
			t.put(*slide)
		}
		return ok
	}
	t.mu.Unlock()
	if t.shared == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	rec, found, err := t.shared.GetTransport(ctx, id)
	if err != nil || !found || rec.Principal != principal {
		return false
	}
	t.mu.Lock()
	t.byID[id] = &transportSession{principal: principal, lastUsed: now, lastShared: now, client: rec}
	t.mu.Unlock()
	t.put(rec)
	return true
}

// put writes a session to the shared store, sliding its TTL there.
func (t *transportSessions) put(rec workspaces.Transport) {
	if t.shared == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = t.shared.PutTransport(ctx, rec, t.ttl)
}

// hooks record what initialize's client said of itself with its session.
func (t *transportSessions) hooks(h *mcpserver.Hooks) {
	h.AddAfterInitialize(func(ctx context.Context, _ any, req *mcp.InitializeRequest, _ *mcp.InitializeResult) {
		cs := mcpserver.ClientSessionFromContext(ctx)
		if cs == nil {
			return
		}
		info, _ := json.Marshal(req.Params.ClientInfo)
		caps, _ := json.Marshal(req.Params.Capabilities)
		t.mu.Lock()
		s := t.byID[cs.SessionID()]
		var rec workspaces.Transport
		if s != nil {
			s.client.ClientInfo, s.client.Capabilities = info, caps
			rec = s.client
		}
		t.mu.Unlock()
		if s != nil {
			t.put(rec)
		}
	})
}

// clientFrom gives a request on a session initialized by another replica
// the clientInfo that initialize recorded (surface.WithClient).
func (t *transportSessions) clientFrom(ctx context.Context, r *http.Request) context.Context {
	id := r.Header.Get(mcpserver.HeaderKeySessionID)
	if id == "" {
		return ctx
	}
	t.mu.Lock()
	s := t.byID[id]
	var rec workspaces.Transport
	if s != nil {
		rec = s.client
	}
	t.mu.Unlock()
	var info mcp.Implementation
	var caps mcp.ClientCapabilities
	if len(rec.ClientInfo) == 0 || json.Unmarshal(rec.ClientInfo, &info) != nil {
		return ctx
	}
	_ = json.Unmarshal(rec.Capabilities, &caps)
	return surface.WithClient(ctx, info, caps)
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
	rec := workspaces.Transport{ID: id, Principal: p.principal}
	p.t.mu.Lock()
	p.t.sweepLocked(now)
	p.t.byID[id] = &transportSession{principal: p.principal, lastUsed: now, lastShared: now, client: rec}
	p.t.mu.Unlock()
	p.t.put(rec)
	return id
}

func (p principalSessions) Validate(id string) (bool, error) {
	if !p.t.owns(p.principal, id) {
		return false, errNoSession
	}
	return false, nil
}

func (p principalSessions) Terminate(id string) (bool, error) {
	if !p.t.owns(p.principal, id) {
		return false, nil
	}
	p.t.mu.Lock()
	delete(p.t.byID, id)
	p.t.mu.Unlock()
	if p.t.shared != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = p.t.shared.DeleteTransport(ctx, id)
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
