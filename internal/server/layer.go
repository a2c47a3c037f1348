package server

// The layer in front of HandleMessage on each transport (see extension.go
// for what it answers): stdio, the Streamable HTTP endpoint, and an
// in-process transport for mcp-go's client.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"sync"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// Title and About are the server's title and description in serverInfo.
const (
	Title = "Selenium Flow"
	About = "A knowledge base and real browsers for agents: sessions, saved flows replayed without a model, kept files and secrets the model never sees."
)

// serverInfo is the server's identity, as mcp-go gives it in serverInfo
// and in the _meta of results on 2026-07-28.
func serverInfo() mcp.Implementation {
	return mcp.Implementation{Name: Name, Version: Version, Title: Title, Description: About}
}

// stdioLayer sits between stdin and mcp-go's stdio server: it answers the
// layer's requests itself and passes every other line on, and it
// serialises its writes with mcp-go's, one whole message per Write.
type stdioLayer struct {
	s     *Server
	mu    sync.Mutex
	out   io.Writer
	pr    *io.PipeReader
	pw    *io.PipeWriter
	ready chan struct{}
	once  sync.Once
	ctx   context.Context
}

// stdio wraps a transport's input and output; base must be called with
// the context mcp-go gives requests (its session, the caller) before the
// layer answers any.
func (s *Server) stdio(in io.Reader, out io.Writer) *stdioLayer {
	pr, pw := io.Pipe()
	l := &stdioLayer{s: s, out: out, pr: pr, pw: pw, ready: make(chan struct{})}
	go l.pump(in)
	return l
}

// base records the context of the stdio session.
func (l *stdioLayer) base(ctx context.Context) {
	l.once.Do(func() { l.ctx = ctx; close(l.ready) })
}

// Read is what mcp-go's stdio server reads: every line the layer passes on.
func (l *stdioLayer) Read(p []byte) (int, error) { return l.pr.Read(p) }

// Write is what mcp-go's stdio server writes; it is serialised with the
// layer's own answers.
func (l *stdioLayer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.out.Write(p)
}

func (l *stdioLayer) pump(in io.Reader) {
	r := bufio.NewReader(in)
	for {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			if req, ok := peek(line); ok && l.s.ours(req.Method) && req.JSONRPC == mcp.JSONRPC_VERSION {
				// Off the read loop, as mcp-go serves requests: a read
				// that waits (downloads) must not hold up the next line.
				<-l.ready
				go func() { l.reply(l.s.answer(l.ctx, req, line)) }()
			} else if _, werr := l.pw.Write(line); werr != nil {
				return // mcp-go stopped reading
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			_ = l.pw.CloseWithError(err)
			return
		}
	}
}

// stop ends the passing on of input once mcp-go has stopped reading.
func (l *stdioLayer) stop() { _ = l.pr.Close() }

func (l *stdioLayer) reply(msg mcp.JSONRPCMessage) {
	b, err := json.Marshal(msg)
	if err != nil {
		return
	}
	_, _ = l.Write(append(b, '\n'))
}

// httpLayer answers the layer's requests on the Streamable HTTP endpoint
// and passes everything else to mcp-go's handler. A request is checked as
// mcp-go checks it: on 2026-07-28 the protocol version in the header and
// in _meta, and the Mcp-Method header; on the handshake generation the
// Mcp-Session-Id of a session initialize opened. The principal and the
// surface setting come from the request as for every other request.
func (s *Server) httpLayer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		// mcp-go reads the whole body too; the layer reads it first and
		// hands it on unchanged.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, "the request body could not be read", http.StatusBadRequest)
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		req, ok := peek(body)
		mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
		if !ok || !s.ours(req.Method) || req.JSONRPC != mcp.JSONRPC_VERSION || mediaType != "application/json" {
			next.ServeHTTP(w, r)
			return
		}
		ctx := r.Context()
		set, _ := surface.SettingFromRequest(r)
		ctx = auth.WithPrincipal(surface.WithSetting(ctx, set), auth.Principal(r.Context()))
		info, _ := protocolInfo(req.Params)
		modern := (info != nil && info.Modern) || mcp.IsModernProtocol(r.Header.Get(mcp.HeaderProtocolVersion))
		if modern {
			if code, msg, bad := checkModern(r, req); bad {
				writeRPC(w, rpcError(req.ID, code, msg), statusFor(code))
				return
			}
		} else {
			if v := r.Header.Get(mcp.HeaderProtocolVersion); v != "" && !mcp.IsValidProtocolVersion(v) {
				http.Error(w, "Unsupported protocol version: "+v, http.StatusBadRequest)
				return
			}
			session, ok := s.registry.get(r.Header.Get(mcpserver.HeaderKeySessionID))
			if !ok {
				http.Error(w, "Invalid session ID", http.StatusNotFound)
				return
			}
			ctx = s.mcp.WithContext(ctx, session)
		}
		resp := s.answer(ctx, req, body)
		status := http.StatusOK
		if e, isErr := resp.(mcp.JSONRPCError); isErr && modern {
			status = statusFor(e.Error.Code)
		}
		writeRPC(w, resp, status)
	})
}

// checkModern applies the transport checks of 2026-07-28 to a request.
func checkModern(r *http.Request, req request) (int, string, bool) {
	header := r.Header.Get(mcp.HeaderProtocolVersion)
	var wrapper struct {
		Meta *mcp.Meta `json:"_meta"`
	}
	_ = json.Unmarshal(req.Params, &wrapper)
	meta := wrapper.Meta.ProtocolVersion()
	switch {
	case r.Header.Get(mcp.HeaderLastEventID) != "":
		return mcp.HEADER_MISMATCH, "Last-Event-ID is not supported in protocol version " + mcp.ProtocolVersion20260728 + ": streams are not resumable, re-issue the request with a new ID", true
	case header == "":
		return mcp.HEADER_MISMATCH, mcp.HeaderProtocolVersion + " header is required for requests carrying " + mcp.MetaKeyProtocolVersion, true
	case meta == "":
		return mcp.INVALID_PARAMS, "missing or invalid _meta field " + mcp.MetaKeyProtocolVersion, true
	case header != meta:
		return mcp.HEADER_MISMATCH, fmt.Sprintf("%s header %s does not match request %s %s", mcp.HeaderProtocolVersion, header, mcp.MetaKeyProtocolVersion, meta), true
	}
	if err := mcp.ValidateStandardHeaders(r.Header.Get, meta, mcp.MCPMethod(req.Method), req.Params); err != nil {
		return mcp.HEADER_MISMATCH, err.Error(), true
	}
	return 0, "", false
}

// statusFor is the HTTP status 2026-07-28 gives a JSON-RPC error code.
func statusFor(code int) int {
	switch code {
	case mcp.METHOD_NOT_FOUND:
		return http.StatusNotFound
	case mcp.HEADER_MISMATCH, mcp.MISSING_REQUIRED_CLIENT_CAPABILITY, mcp.UNSUPPORTED_PROTOCOL_VERSION,
		mcp.INVALID_REQUEST, mcp.INVALID_PARAMS, mcp.PARSE_ERROR:
		return http.StatusBadRequest
	}
	return http.StatusOK
}

func writeRPC(w http.ResponseWriter, msg mcp.JSONRPCMessage, status int) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(msg)
}

// InProcess is a transport for mcp-go's client that reaches the server in
// the same process through the same layer as stdio and HTTP, so the
// Skills extension answers there too (client.NewInProcessClient reaches
// MCP() directly, where only mcp-go's own methods exist):
//
//	c := client.NewClient(srv.InProcess())
func (s *Server) InProcess() transport.Interface {
	return &inProcess{s: s, done: make(chan struct{})}
}

type inProcess struct {
	s       *Server
	session *mcpserver.InProcessSession
	mu      sync.RWMutex
	notify  func(mcp.JSONRPCNotification)
	done    chan struct{}
	once    sync.Once
}

func (t *inProcess) Start(ctx context.Context) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.session != nil {
		return nil
	}
	t.session = mcpserver.NewInProcessSessionWithHandlers(t.s.mcp.GenerateInProcessSessionID(), nil, nil, nil)
	if err := t.s.mcp.RegisterSession(ctx, t.session); err != nil {
		return fmt.Errorf("failed to register session: %w", err)
	}
	go t.forward()
	return nil
}

func (t *inProcess) forward() {
	for {
		select {
		case <-t.done:
			return
		case n, ok := <-t.session.ClientNotifications():
			if !ok {
				return
			}
			t.mu.RLock()
			h := t.notify
			t.mu.RUnlock()
			if h != nil {
				h(n)
			}
		}
	}
}

// context is what mcp-go's in-process transport gives a request: its
// session. The caller is the local principal, as on stdio.
func (t *inProcess) context(ctx context.Context) context.Context {
	if t.session != nil {
		ctx = t.s.mcp.WithContext(ctx, t.session)
	}
	return t.s.StdioContext(ctx)
}

func (t *inProcess) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	raw, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("failed to marshal request: %w", err)
	}
	b, err := json.Marshal(t.s.handleMessage(t.context(ctx), raw))
	if err != nil {
		return nil, fmt.Errorf("failed to marshal response message: %w", err)
	}
	var resp transport.JSONRPCResponse
	if err := json.Unmarshal(b, &resp); err != nil {
		return nil, fmt.Errorf("failed to unmarshal response message: %w", err)
	}
	return &resp, nil
}

func (t *inProcess) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	raw, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("failed to marshal notification: %w", err)
	}
	t.s.mcp.HandleMessage(t.context(ctx), raw)
	return nil
}

func (t *inProcess) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.notify = h
}

func (t *inProcess) Close() error {
	t.once.Do(func() { close(t.done) })
	t.mu.RLock()
	session := t.session
	t.mu.RUnlock()
	if session != nil {
		t.s.mcp.UnregisterSession(context.Background(), session.SessionID())
	}
	return nil
}

func (t *inProcess) GetSessionId() string { return "" }
