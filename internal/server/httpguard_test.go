package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/server"
)

const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef"
)

// guarded serves a server with two principals in process, over real HTTP
// on 127.0.0.1.
func guarded(t *testing.T, cfg server.Config) *httptest.Server {
	t.Helper()
	tokens, err := auth.NewTokens(map[string]string{aliceToken: "alice", bobToken: "bob"})
	assert.NilError(t, err)
	cfg.Tokens, cfg.DataDir = tokens, t.TempDir()
	srv, err := server.New(cfg)
	assert.NilError(t, err)
	t.Cleanup(srv.Close)
	hs := httptest.NewServer(srv.HTTPHandler())
	t.Cleanup(hs.Close)
	return hs
}

type call struct {
	method, path, host, origin, token, session string
	body                                       io.Reader
	length                                     int64 // -1: chunked
}

func do(t *testing.T, base string, c call) (int, http.Header, string) {
	t.Helper()
	// A request that hangs (an event stream opened where it must not be)
	// fails before the test's own deadline, with the test named.
	ctx := t.Context()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-time.Until(d)/10))
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, c.method, base+c.path, c.body)
	assert.NilError(t, err)
	if c.host != "" {
		req.Host = c.host
	}
	if c.origin != "" {
		req.Header.Set("Origin", c.origin)
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	if c.body != nil {
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.ContentLength = c.length
	}
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, string(b)
}

// TestHostAndOrigin plays DNS rebinding and cross-site requests against
// every route of a loopback server.
func TestHostAndOrigin(t *testing.T) {
	hs := guarded(t, server.Config{AllowedOrigins: []string{"https://swagger.example"}})
	routes := []call{
		{method: "GET", path: "/resources/knowledge://index"},
		{method: "GET", path: "/files/private.txt"},
		{method: "GET", path: "/openapi.json"},
		{method: "POST", path: "/mcp", body: strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), length: 40},
	}
	for _, r := range routes {
		r.token = aliceToken
		foreign := r
		foreign.host = "evil.example:80"
		code, _, body := do(t, hs.URL, foreign)
		assert.Check(t, is.Equal(code, http.StatusForbidden), "%s %s with a foreign Host", r.method, r.path)
		assert.Check(t, is.Contains(body, "answers only for localhost"), r.path)

		if r.body != nil {
			r.body = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)
		}
		evil := r
		evil.origin = "http://evil.example"
		code, _, body = do(t, hs.URL, evil)
		assert.Check(t, is.Equal(code, http.StatusForbidden), "%s %s from a foreign origin", r.method, r.path)
		assert.Check(t, is.Contains(body, "FLOW_ALLOWED_ORIGINS"), r.path)
	}
	for _, ok := range []call{
		{method: "GET", path: "/openapi.json", host: "localhost"},
		{method: "GET", path: "/openapi.json", origin: "http://localhost:6274"}, // a loopback tool page
		{method: "GET", path: "/openapi.json", origin: "https://swagger.example"},
		{method: "GET", path: "/openapi.json", origin: hs.URL},
	} {
		ok.token = aliceToken
		code, _, body := do(t, hs.URL, ok)
		assert.Check(t, is.Equal(code, http.StatusOK), "%+v: %s", ok, body)
	}
	for _, bad := range []string{"null", "file://", "http://127.0.0.1.evil.example"} {
		code, _, _ := do(t, hs.URL, call{method: "GET", path: "/openapi.json", origin: bad, token: aliceToken})
		assert.Check(t, is.Equal(code, http.StatusForbidden), bad)
	}
}

// TestBodyLimit: a request body over the limit is refused with 413 whether
// or not it says its length, and nothing of it is echoed.
func TestBodyLimit(t *testing.T) {
	hs := guarded(t, server.Config{})
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"` + strings.Repeat("x", server.MaxBody) + `"}}`
	for _, length := range []int64{int64(len(big)), -1} {
		code, _, body := do(t, hs.URL, call{method: "POST", path: "/mcp", token: aliceToken, body: strings.NewReader(big), length: length})
		assert.Check(t, is.Equal(code, http.StatusRequestEntityTooLarge), "length %d", length)
		assert.Check(t, is.Contains(body, "larger than 1048576 bytes"))
		assert.Check(t, len(body) < 300, "a long refusal: %d bytes", len(body))
	}
}

// TestTransportSessionBelongsToItsCaller: bob cannot end, listen on or
// post to alice's Mcp-Session-Id; each is 404 as if it did not exist, and
// alice's session keeps working.
func TestTransportSessionBelongsToItsCaller(t *testing.T) {
	hs := guarded(t, server.Config{})
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	code, hdr, body := do(t, hs.URL, call{method: "POST", path: "/mcp", token: aliceToken, body: strings.NewReader(init), length: int64(len(init))})
	assert.Assert(t, is.Equal(code, http.StatusOK), body)
	sid := hdr.Get("Mcp-Session-Id")
	assert.Assert(t, sid != "")

	ping := `{"jsonrpc":"2.0","id":2,"method":"ping"}`
	setLevel := `{"jsonrpc":"2.0","id":3,"method":"logging/setLevel","params":{"level":"debug"}}`
	for _, c := range []call{
		{method: "DELETE", path: "/mcp"},
		{method: "GET", path: "/mcp"},
		{method: "POST", path: "/mcp", body: strings.NewReader(ping), length: int64(len(ping))},
		{method: "POST", path: "/mcp", body: strings.NewReader(setLevel), length: int64(len(setLevel))},
	} {
		c.token, c.session = bobToken, sid
		code, _, body := do(t, hs.URL, c)
		assert.Check(t, is.Equal(code, http.StatusNotFound), "bob %s on alice's session: %s", c.method, body)
	}
	code, _, body = do(t, hs.URL, call{method: "POST", path: "/mcp", token: aliceToken, session: sid, body: strings.NewReader(ping), length: int64(len(ping))})
	assert.Check(t, is.Equal(code, http.StatusOK), "alice's session was ended by bob: %s", body)
	code, _, _ = do(t, hs.URL, call{method: "DELETE", path: "/mcp", token: aliceToken, session: sid})
	assert.Check(t, is.Equal(code, http.StatusOK))
	code, _, _ = do(t, hs.URL, call{method: "POST", path: "/mcp", token: aliceToken, session: sid, body: strings.NewReader(ping), length: int64(len(ping))})
	assert.Check(t, is.Equal(code, http.StatusNotFound), "an ended session still answers")
}
