package server_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/issuer"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// withOIDC serves a server that accepts idp's tokens (and bob's static
// token) over real HTTP on 127.0.0.1.
func withOIDC(t *testing.T, idp *issuer.Issuer, cfg auth.OIDCConfig) *servertest.HTTPServer {
	t.Helper()
	cfg.Issuer, cfg.Audience = idp.URL, idp.Audience
	tokens, err := auth.NewTokens(map[string]string{bobToken: "bob"})
	assert.NilError(t, err)
	return servertest.ServeHTTP(t, servertest.New(t, server.Config{Resources: surface.On, Tokens: tokens, OIDC: cfg}))
}

// TestResourceMetadata: the MCP endpoint and the server publish OAuth 2.0
// Protected Resource Metadata naming the issuer, to anyone, before sign-in.
func TestResourceMetadata(t *testing.T) {
	idp := issuer.Start(t)
	hs := withOIDC(t, idp, auth.OIDCConfig{})
	for _, tc := range []struct{ path, resource string }{
		{server.ResourceMetadataPath + "/mcp", hs.Base + "/mcp"},
		{server.ResourceMetadataPath, hs.Base},
	} {
		t.Run(tc.path, func(t *testing.T) {
			code, hdr, body := do(t, hs.Base, call{method: "GET", path: tc.path})
			assert.Assert(t, is.Equal(code, http.StatusOK), body)
			assert.Check(t, is.Equal(hdr.Get("Content-Type"), "application/json"))
			var doc map[string]any
			assert.NilError(t, json.Unmarshal([]byte(body), &doc))
			assert.Check(t, is.Equal(doc["resource"], tc.resource))
			assert.Check(t, is.DeepEqual(doc["authorization_servers"], []any{idp.URL}))
			assert.Check(t, is.DeepEqual(doc["bearer_methods_supported"], []any{"header"}))
		})
	}
	code, hdr, _ := do(t, hs.Base, call{method: "POST", path: server.ResourceMetadataPath, body: strings.NewReader("{}"), length: 2})
	assert.Check(t, is.Equal(code, http.StatusMethodNotAllowed))
	assert.Check(t, is.Equal(hdr.Get("Allow"), "GET, HEAD"))

	// Without OIDC there is no authorization server to name.
	plain := guarded(t, server.Config{})
	code, _, _ = do(t, plain.URL, call{method: "GET", path: server.ResourceMetadataPath + "/mcp"})
	assert.Check(t, is.Equal(code, http.StatusUnauthorized))
}

// TestOIDCChallenges: every HTTP surface answers a caller without a good
// token with the status and sentence for its case, and a challenge that
// leads an MCP client to the metadata of the route it called.
func TestOIDCChallenges(t *testing.T) {
	idp := issuer.Start(t)
	hs := withOIDC(t, idp, auth.OIDCConfig{RolesClaim: "roles", RequiredRole: "selenium"})
	member := issuer.Claims{"sub": "alice", "roles": []string{"selenium"}}
	initialize := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, tc := range []struct {
		name, method, path, token string
		status                    int
		body, metadata, code      string
	}{
		{name: "MCP without a token", method: "POST", path: "/mcp", status: 401, body: "an access token from the identity provider at " + idp.URL, metadata: "/mcp"},
		{name: "MCP with an expired token", method: "POST", path: "/mcp", token: idp.Token(t, member, issuer.ExpiresIn(-auth.Leeway*2)), status: 401, body: "has expired", metadata: "/mcp", code: "invalid_token"},
		{name: "MCP without the required role", method: "POST", path: "/mcp", token: idp.Token(t, issuer.Claims{"sub": "alice"}), status: 403, body: "does not grant the role selenium", metadata: "/mcp", code: "insufficient_scope"},
		{name: "MCP with a token for another app", method: "POST", path: "/mcp", token: idp.Token(t, issuer.Claims{"sub": "alice", "roles": []string{"selenium"}, "aud": "other"}), status: 401, body: "needs the audience", metadata: "/mcp", code: "invalid_token"},
		{name: "MCP with a good token", method: "POST", path: "/mcp", token: idp.Token(t, member), status: 200},
		{name: "read API without a token", method: "GET", path: "/openapi.json", status: 401, body: "Authorization: Bearer <token>", metadata: ""},
		{name: "kept file with a forged token", method: "GET", path: "/files/x.png", token: idp.Token(t, member, issuer.Unsigned()), status: 401, body: "does not accept", metadata: "", code: "invalid_token"},
		{name: "read API with a good token", method: "GET", path: "/openapi.json", token: idp.Token(t, member), status: 200},
		{name: "static token beside OIDC", method: "GET", path: "/openapi.json", token: bobToken, status: 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := call{method: tc.method, path: tc.path, token: tc.token}
			if tc.method == "POST" {
				c.body, c.length = strings.NewReader(initialize), int64(len(initialize))
			}
			code, hdr, body := do(t, hs.Base, c)
			assert.Check(t, is.Equal(code, tc.status), body)
			assert.Check(t, is.Contains(body, tc.body))
			if tc.token != "" {
				assert.Check(t, !strings.Contains(body+hdr.Get("WWW-Authenticate"), tc.token), "the answer quotes the token")
			}
			if tc.status < 400 {
				return
			}
			challenge := hdr.Get("WWW-Authenticate")
			assert.Check(t, is.Contains(challenge, `resource_metadata="`+hs.Base+server.ResourceMetadataPath+tc.metadata+`"`))
			if tc.code != "" {
				assert.Check(t, is.Contains(challenge, `error="`+tc.code+`"`), challenge)
			}
		})
	}
}

// TestOIDCPrincipalsIsolated: two principals from two tokens of the same
// provider share one server, over Streamable HTTP on both protocol
// generations, but never a flow; the read API keeps them apart too.
func TestOIDCPrincipalsIsolated(t *testing.T) {
	idp := issuer.Start(t)
	hs := withOIDC(t, idp, auth.OIDCConfig{PrincipalClaim: "preferred_username"})
	for _, protocol := range servertest.Protocols {
		t.Run(servertest.Generation(protocol), func(t *testing.T) {
			gen := servertest.Generation(protocol)
			token := func(name string) string {
				return idp.Token(t, issuer.Claims{"sub": "id-" + name, "preferred_username": name})
			}
			as := func(token string) *servertest.Client {
				return servertest.ConnectHTTP(t, hs.URL, servertest.Options{Protocol: protocol, Headers: map[string]string{"Authorization": "Bearer " + token}})
			}
			aliceToken, carolToken := token("alice-"+gen), token("carol-"+gen)
			alice, carol := as(aliceToken), as(carolToken)

			var cur sessions.Current
			servertest.ReadJSON(t, carol, "session://current", &cur)
			assert.Check(t, is.Equal(cur.Principal, "carol-"+gen))

			steps := []any{map[string]any{"tool": "assert", "args": map[string]any{"text": "anything"}}}
			servertest.CallOK(t, alice, "save_flow", map[string]any{"document": map[string]any{"name": "alice-only", "steps": steps}})
			assert.Check(t, is.Contains(servertest.ReadText(t, alice, "flow://flows"), "alice-only"))
			assert.Check(t, !strings.Contains(servertest.ReadText(t, carol, "flow://flows"), "alice-only"))
			_, err := servertest.Read(t, carol, "flow://flows/alice-only")
			assert.Check(t, err != nil, "carol read alice's flow")
			res := servertest.Call(t, carol, "run_flow", map[string]any{"name": "alice-only"})
			assert.Check(t, res.IsError, "carol ran alice's flow: %s", servertest.Text(res))

			code, _, body := do(t, hs.Base, call{method: "GET", path: server.ReadPrefix + "flow://flows/alice-only", token: carolToken})
			assert.Check(t, is.Equal(code, http.StatusNotFound), body)
			code, _, body = do(t, hs.Base, call{method: "GET", path: server.ReadPrefix + "flow://flows/alice-only", token: aliceToken})
			assert.Check(t, is.Equal(code, http.StatusOK), body)
		})
	}
}

// TestServeOIDC: `selenium-flow serve` reads the FLOW_OIDC_* settings,
// and settings that cannot work stop the start with a sentence naming
// the setting.
func TestServeOIDC(t *testing.T) {
	idp := issuer.Start(t)
	good := []string{"FLOW_TOKENS=", "FLOW_OIDC_ISSUER=" + idp.URL, "FLOW_OIDC_AUDIENCE=" + idp.Audience, "FLOW_OIDC_ROLES_CLAIM=groups", "FLOW_OIDC_REQUIRED_ROLE=qa"}
	t.Run("serves", func(t *testing.T) {
		srv := servertest.StartHTTP(t, nil, good)
		code, _, body := do(t, srv.Base, call{method: "GET", path: server.ResourceMetadataPath + "/mcp"})
		assert.Check(t, is.Equal(code, http.StatusOK))
		assert.Check(t, is.Contains(body, `"authorization_servers":["`+idp.URL+`"]`))
		c := servertest.ConnectHTTP(t, srv.URL, servertest.Options{Headers: map[string]string{
			"Authorization": "Bearer " + idp.Token(t, issuer.Claims{"sub": "alice", "groups": []string{"qa"}})}})
		var cur sessions.Current
		servertest.ReadJSON(t, c, "session://current", &cur)
		assert.Check(t, is.Equal(cur.Principal, "alice"))
		// OIDC without tokens is not the open loopback server.
		code, _, body = do(t, srv.Base, call{method: "GET", path: "/openapi.json"})
		assert.Check(t, is.Equal(code, http.StatusUnauthorized), body)
		code, _, body = do(t, srv.Base, call{method: "GET", path: "/openapi.json", token: idp.Token(t, issuer.Claims{"sub": "alice"})})
		assert.Check(t, is.Equal(code, http.StatusForbidden))
		assert.Check(t, is.Contains(body, "does not grant the role qa (in its groups claim)"))
	})
	for _, tc := range []struct {
		name string
		env  []string
		want string
	}{
		{name: "no audience", env: []string{"FLOW_OIDC_ISSUER=" + idp.URL, "FLOW_OIDC_AUDIENCE="}, want: "FLOW_OIDC_AUDIENCE is not set"},
		{name: "plain http issuer", env: []string{"FLOW_OIDC_ISSUER=http://idp.example.com", "FLOW_OIDC_AUDIENCE=a"}, want: "FLOW_OIDC_ISSUER must be https"},
		{name: "issuer that answers no discovery", env: []string{"FLOW_OIDC_ISSUER=" + idp.URL + "/nowhere", "FLOW_OIDC_AUDIENCE=a"}, want: "FLOW_OIDC_ISSUER: the discovery document of " + idp.URL + "/nowhere could not be read"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, err := servertest.Command(t, tc.env, "serve", "--http", "127.0.0.1:0").CombinedOutput()
			assert.Check(t, err != nil, "the server started: %s", out)
			assert.Check(t, is.Contains(string(out), tc.want))
		})
	}
}

// TestMCPAuthorizationClient: mcp-go's own OAuth client, told nothing but
// the /mcp URL, follows the 401's challenge to the protected-resource
// metadata, finds the issuer there, signs in by authorization code with
// PKCE, and then works as the signed-in principal.
func TestMCPAuthorizationClient(t *testing.T) {
	idp := issuer.Start(t, issuer.WithSubject("dora"))
	hs := withOIDC(t, idp, auth.OIDCConfig{})
	c, err := client.NewOAuthStreamableHttpClient(hs.URL, client.OAuthConfig{
		ClientID: "an-mcp-client", RedirectURI: "http://127.0.0.1:1/callback", PKCEEnabled: true,
		TokenEndpointAuthMethod: "none", TokenStore: client.NewMemoryTokenStore(),
	}, transport.WithHTTPTimeout(servertest.Remaining(t)))
	assert.NilError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	ctx := servertest.Context(t)
	assert.NilError(t, c.Start(ctx))
	req := mcp.InitializeRequest{}
	req.Params.ProtocolVersion = servertest.Legacy
	req.Params.ClientInfo = mcp.Implementation{Name: "oauth-test", Version: "1"}
	_, err = c.Initialize(ctx, req)
	assert.Assert(t, client.IsOAuthAuthorizationRequiredError(err), "initialize without a token: %v", err)

	h := client.GetOAuthHandler(err)
	verifier, err := transport.GenerateCodeVerifier()
	assert.NilError(t, err)
	state, err := transport.GenerateState()
	assert.NilError(t, err)
	authorize, err := h.GetAuthorizationURL(ctx, state, transport.GenerateCodeChallenge(verifier))
	assert.NilError(t, err)
	// The issuer is on another port than the server: only the metadata
	// could have named it.
	assert.Assert(t, strings.HasPrefix(authorize, idp.URL+"/authorize?"), authorize)

	// The person's browser: the provider approves and redirects back.
	noRedirects := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	get, err := http.NewRequestWithContext(ctx, http.MethodGet, authorize, nil)
	assert.NilError(t, err)
	res, err := noRedirects.Do(get)
	assert.NilError(t, err)
	res.Body.Close()
	back, err := url.Parse(res.Header.Get("Location"))
	assert.NilError(t, err)
	assert.NilError(t, h.ProcessAuthorizationResponse(ctx, back.Query().Get("code"), back.Query().Get("state"), verifier))

	_, err = c.Initialize(ctx, req)
	assert.NilError(t, err)
	var cur sessions.Current
	servertest.ReadJSON(t, c, "session://current", &cur)
	assert.Check(t, is.Equal(cur.Principal, "dora"))
}

// TestOIDCPrincipalsKeepTheirFiles: with real Chromium, a file alice's
// browser kept is hers alone; carol, signed in at the same provider, sees
// no file, cannot read it as a resource or fetch it by name, and alice
// can.
func TestOIDCPrincipalsKeepTheirFiles(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	idp := issuer.Start(t)
	hs := withOIDC(t, idp, auth.OIDCConfig{})
	aliceToken, carolToken := idp.Token(t, issuer.Claims{"sub": "alice"}), idp.Token(t, issuer.Claims{"sub": "carol"})
	as := func(token string) *servertest.Client {
		return servertest.ConnectHTTP(t, hs.URL, servertest.Options{Headers: map[string]string{"Authorization": "Bearer " + token}})
	}
	alice, carol := as(aliceToken), as(carolToken)

	servertest.CallOK(t, alice, "open_session", map[string]any{"url": site + "/login"})
	t.Cleanup(func() { servertest.Call(t, alice, "close_session", nil) })
	servertest.CallOK(t, alice, "screenshot", map[string]any{"filename": "alice-login"})
	var mine sessions.FileList
	servertest.ReadJSON(t, alice, "session://files", &mine)
	assert.Assert(t, is.Len(mine.Files, 1))
	kept := mine.Files[0]

	var theirs sessions.FileList
	servertest.ReadJSON(t, carol, "session://files", &theirs)
	assert.Check(t, is.Len(theirs.Files, 0))
	_, err := servertest.Read(t, carol, kept.URI)
	assert.Check(t, err != nil, "carol read alice's file")
	// The signed link is a capability that travels (issue 14): whoever
	// holds it opens the file. The path without its signature is carol's
	// own /files/, where alice's file does not exist.
	unsigned, _, _ := strings.Cut(kept.Link, "?")
	code, _, body := do(t, hs.Base, call{method: "GET", path: unsigned, token: carolToken})
	assert.Check(t, is.Equal(code, http.StatusNotFound))
	assert.Check(t, !strings.HasPrefix(body, "\x89PNG"))
	code, _, body = do(t, hs.Base, call{method: "GET", path: kept.Link, token: aliceToken})
	assert.Check(t, is.Equal(code, http.StatusOK))
	assert.Check(t, strings.HasPrefix(body, "\x89PNG"))
	servertest.CallRefused(t, carol, "screenshot", nil, "open_session")
}

// TestStdioIgnoresOIDC: over stdio there is no bearer to check, so an
// identity provider that cannot be reached does not stop the start.
func TestStdioIgnoresOIDC(t *testing.T) {
	c := servertest.Connect(t, servertest.Stdio, servertest.Options{Env: []string{"FLOW_OIDC_ISSUER=https://127.0.0.1:1/nowhere", "FLOW_OIDC_AUDIENCE=a"}})
	var cur sessions.Current
	servertest.ReadJSON(t, c, "session://current", &cur)
	assert.Check(t, is.Equal(cur.Principal, auth.Local))
}
