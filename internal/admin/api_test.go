package admin_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/admin"
	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// Tokens of the test server: alice is an operator, bob and carol are not.
const (
	aliceToken = "alice-token-0123456789abcdef"
	bobToken   = "bob-token-0123456789abcdef00"
	carolToken = "carol-token-0123456789abcdef"
	secretVal  = "hunter2-very-secret-value"
)

// fixture is a server over HTTP with bob's kept screenshot, bob's flow
// and bob's secret.
type fixture struct {
	srv     *server.Server
	base    string
	dataDir string
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	dataDir := t.TempDir()
	secretFile := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(secretFile, []byte("bob login example.com "+secretVal+"\n"), 0o600))
	tokens, err := auth.NewTokens(nil)
	assert.NilError(t, err)
	assert.NilError(t, tokens.Add(aliceToken, "alice", auth.Operator))
	assert.NilError(t, tokens.Add(bobToken, "bob"))
	assert.NilError(t, tokens.Add(carolToken, "carol"))
	store, err := files.Open(filepath.Join(dataDir, "files"))
	assert.NilError(t, err)
	box, err := store.For("bob")
	assert.NilError(t, err)
	_, err = box.Keep(files.Screenshots, "shot.png", pngBytes)
	assert.NilError(t, err)
	_, err = box.Keep(files.Downloads, "page.html", []byte("<script>alert(1)</script>"))
	assert.NilError(t, err)
	srv := servertest.New(t, server.Config{DataDir: dataDir, Tokens: tokens, Secrets: secrets.Sources{File: secretFile}})
	f := fixture{srv: srv, base: servertest.ServeHTTP(t, srv).Base, dataDir: dataDir}
	st, body := f.do(t, bobToken, "PUT", "/admin/api/workspaces/default@bob/flows/login", loginFlow)
	assert.Equal(t, st, http.StatusCreated, body)
	return f
}

// A 1×1 PNG.
var pngBytes = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\xcf\xc0\xf0\x1f\x00\x05\x00\x01\xff\x89\x99=\x1d\x00\x00\x00\x00IEND\xaeB`\x82")

const loginFlow = `{"name":"login","description":"Sign in","parameters":[{"name":"user","required":true}],"steps":[{"tool":"navigate","args":{"url":"http://127.0.0.1/login?u={{user}}"}}]}`

// do sends a request as the token's holder (none for ""), as the page
// does: the CSRF header and JSON on every change.
func (f fixture) do(t *testing.T, token, method, path, body string, extra ...string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(servertest.Context(t), method, f.base+path, rd)
	assert.NilError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if method != "GET" {
		req.Header.Set(admin.CSRFHeader, "1")
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(extra); i += 2 {
		if extra[i+1] == "" {
			req.Header.Del(extra[i])
		} else {
			req.Header.Set(extra[i], extra[i+1])
		}
	}
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	assert.NilError(t, err)
	// Nothing the API answers shows a secret value, a server path or a token.
	for _, leak := range []string{secretVal, f.dataDir, aliceToken, bobToken, carolToken} {
		assert.Check(t, !bytes.Contains(b, []byte(leak)), "%s %s leaked %q: %s", method, path, leak, b)
	}
	return res.StatusCode, string(b)
}

// refusal checks a 4xx answer is JSON with a sentence naming the next step.
func refusal(t *testing.T, body string, wants ...string) {
	t.Helper()
	var p struct {
		Error string `json:"error"`
	}
	assert.NilError(t, json.Unmarshal([]byte(body), &p), body)
	assert.Check(t, strings.HasSuffix(strings.TrimSpace(p.Error), "."), "not a sentence: %q", p.Error)
	for _, w := range wants {
		assert.Check(t, is.Contains(p.Error, w))
	}
}

func TestAPI(t *testing.T) {
	f := newFixture(t)
	const ws = "/admin/api/workspaces/default@bob"
	cases := []struct {
		name         string
		token        string
		method, path string
		body         string
		headers      []string
		status       int
		has          []string // in the body
		hasNot       []string
		plain        bool // refused by the server's HTTP guard, in text, before the admin API
	}{
		{name: "no token", method: "GET", path: "/admin/api/workspaces", status: 401},
		{name: "unknown token", token: "x-unknown-token-0123456789", method: "GET", path: "/admin/api/workspaces", status: 401},
		{name: "config needs none", method: "GET", path: "/admin/api/config", status: 200, has: []string{admin.CSRFHeader}},
		{name: "me", token: bobToken, method: "GET", path: "/admin/api/me", status: 200, has: []string{`"principal":"bob"`, `"operator":false`}},
		{name: "operator lists all", token: aliceToken, method: "GET", path: "/admin/api/workspaces", status: 200, has: []string{`"default@alice"`, `"default@bob"`, `"files":2`, `"flows":1`}},
		{name: "bob lists his own", token: bobToken, method: "GET", path: "/admin/api/workspaces", status: 200, has: []string{`"default@bob"`}, hasNot: []string{"alice", "carol"}},
		{name: "carol lists hers", token: carolToken, method: "GET", path: "/admin/api/workspaces", status: 200, has: []string{`"default@carol"`}, hasNot: []string{"bob"}},
		{name: "one workspace", token: bobToken, method: "GET", path: ws, status: 200, has: []string{`"state":"closed"`}},
		{name: "carol cannot see bob's", token: carolToken, method: "GET", path: ws, status: 404, has: []string{"default@carol", "GET /admin/api/workspaces"}},
		{name: "bad workspace id", token: aliceToken, method: "GET", path: "/admin/api/workspaces/nobody/files", status: 404, has: []string{"name@owner"}},
		{name: "unknown workspace name", token: aliceToken, method: "GET", path: "/admin/api/workspaces/other@bob/files", status: 404},
		{name: "files", token: bobToken, method: "GET", path: ws + "/files", status: 200, has: []string{`"shot.png"`, `"screenshots"`, `"link":"/admin/api/workspaces/default@bob/files/shot.png"`}},
		{name: "operator reads bob's files", token: aliceToken, method: "GET", path: ws + "/files", status: 200, has: []string{`"shot.png"`}},
		{name: "carol cannot read bob's files", token: carolToken, method: "GET", path: ws + "/files", status: 404, hasNot: []string{"shot.png"}},
		{name: "carol cannot fetch bob's file", token: carolToken, method: "GET", path: ws + "/files/shot.png", status: 404},
		{name: "missing file", token: bobToken, method: "GET", path: ws + "/files/nope.png", status: 404, has: []string{"/files lists the kept files"}},
		{name: "bad file name", token: bobToken, method: "GET", path: ws + "/files/..%2Fsecrets", status: 400},
		{name: "bad folder", token: bobToken, method: "DELETE", path: ws + "/folders/etc", status: 400, has: []string{"screenshots"}},
		{name: "flows", token: bobToken, method: "GET", path: ws + "/flows", status: 200, has: []string{`"login"`}},
		{name: "flow", token: aliceToken, method: "GET", path: ws + "/flows/login", status: 200, has: []string{`"navigate"`}},
		{name: "missing flow", token: bobToken, method: "GET", path: ws + "/flows/nope", status: 404, has: []string{"/flows lists its flows"}},
		{name: "carol cannot read bob's flow", token: carolToken, method: "GET", path: ws + "/flows/login", status: 404},
		{name: "invalid flow", token: bobToken, method: "PUT", path: ws + "/flows/login", body: `{"name":"login","steps":[{"tool":"navigate","args":{"url":"{{nope}}"}}]}`, status: 422, has: []string{`"problems"`, "nope"}},
		{name: "flow not JSON", token: bobToken, method: "PUT", path: ws + "/flows/login", body: `{"name":`, status: 422},
		{name: "flow renamed", token: bobToken, method: "PUT", path: ws + "/flows/login", body: strings.Replace(loginFlow, `"login"`, `"other"`, 1), status: 422, has: []string{"differs"}},
		{name: "no CSRF header", token: bobToken, method: "POST", path: ws + "/flows/login/share", headers: []string{admin.CSRFHeader, ""}, status: 403, has: []string{admin.CSRFHeader}},
		{name: "cross-site", token: bobToken, method: "POST", path: ws + "/flows/login/share", headers: []string{"Sec-Fetch-Site", "cross-site"}, status: 403},
		{name: "other origin", token: bobToken, method: "DELETE", path: ws + "/flows/login", headers: []string{"Origin", "http://evil.example"}, status: 403, plain: true, has: []string{"FLOW_ALLOWED_ORIGINS"}},
		{name: "form body", token: bobToken, method: "PUT", path: ws + "/flows/login", body: "a=b", headers: []string{"Content-Type", "application/x-www-form-urlencoded"}, status: 415},
		{name: "GET is no change", token: bobToken, method: "GET", path: ws + "/flows/login/share", status: 404, has: []string{"GET /admin/api/workspaces"}},
		{name: "PATCH refused", token: bobToken, method: "PATCH", path: ws + "/flows/login", status: 405},
		{name: "share", token: bobToken, method: "POST", path: ws + "/flows/login/share", status: 200, has: []string{`"shared":true`}},
		{name: "unshare by operator", token: aliceToken, method: "POST", path: ws + "/flows/login/unshare", status: 200, hasNot: []string{`"shared":true`}},
		{name: "carol cannot share bob's", token: carolToken, method: "POST", path: ws + "/flows/login/share", status: 404},
		{name: "no sites saved", token: bobToken, method: "GET", path: ws + "/sites", status: 200, has: []string{`"kept":true`, `"sites":[]`}},
		{name: "forget unknown site", token: bobToken, method: "DELETE", path: ws + "/sites/https%3A%2F%2Fexample.com", status: 404},
		{name: "no history yet", token: bobToken, method: "GET", path: ws + "/history", status: 200, has: []string{`"visits":[]`}},
		{name: "secrets of bob", token: bobToken, method: "GET", path: "/admin/api/secrets", status: 200, has: []string{`"login"`, `"example.com"`, `FLOW_SECRETS file, line 1`}},
		{name: "secrets for operator", token: aliceToken, method: "GET", path: "/admin/api/secrets", status: 200, has: []string{`"owner":"bob"`}},
		{name: "carol has no secrets", token: carolToken, method: "GET", path: "/admin/api/secrets", status: 200, has: []string{`"secrets":[]`}},
		{name: "settings for operator", token: aliceToken, method: "GET", path: "/admin/api/settings", status: 200, has: []string{"FLOW_DATA_DIR", "FLOW_TOKENS", "3 tokens", "FLOW_ADMIN_FRAME_ANCESTORS", `"source":"default"`}},
		{name: "settings refused", token: bobToken, method: "GET", path: "/admin/api/settings", status: 403, has: []string{"roles=operator"}},
		{name: "unknown call", token: bobToken, method: "GET", path: "/admin/api/nothing", status: 404, has: []string{"GET /admin/api/workspaces"}},
		{name: "end browser not open", token: bobToken, method: "POST", path: ws + "/end", status: 200, has: []string{`"ended":false`}},
		{name: "carol cannot end bob's", token: carolToken, method: "POST", path: ws + "/end", status: 404},
		{name: "delete missing file", token: bobToken, method: "DELETE", path: ws + "/files/nope.png", status: 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			st, body := f.do(t, tc.token, tc.method, tc.path, tc.body, tc.headers...)
			assert.Equal(t, st, tc.status, body)
			if st >= 400 && st != 401 && !tc.plain {
				refusal(t, body)
			}
			for _, h := range tc.has {
				assert.Check(t, is.Contains(body, h))
			}
			for _, h := range tc.hasNot {
				assert.Check(t, !strings.Contains(body, h), "%q in %s", h, body)
			}
		})
	}
}

// TestTidy deletes in order: a file, a folder, a flow; each is gone after.
func TestTidy(t *testing.T) {
	f := newFixture(t)
	const ws = "/admin/api/workspaces/default@bob"
	st, body := f.do(t, aliceToken, "DELETE", ws+"/files/shot.png", "")
	assert.Equal(t, st, 200, body)
	st, _ = f.do(t, bobToken, "GET", ws+"/files/shot.png", "")
	assert.Equal(t, st, 404)
	st, body = f.do(t, bobToken, "DELETE", ws+"/folders/downloads", "")
	assert.Equal(t, st, 200, body)
	assert.Check(t, is.Contains(body, `"deleted":1`))
	st, body = f.do(t, bobToken, "GET", ws+"/files", "")
	assert.Equal(t, st, 200)
	assert.Check(t, is.Contains(body, `"files":[]`))
	st, body = f.do(t, aliceToken, "DELETE", ws+"/flows/login", "")
	assert.Equal(t, st, 200, body)
	st, _ = f.do(t, bobToken, "GET", ws+"/flows/login", "")
	assert.Equal(t, st, 404)
}

// TestFileServedSafely: a kept image is shown inline, a kept HTML page is
// a sandboxed download that cannot run as the admin page's origin.
func TestFileServedSafely(t *testing.T) {
	f := newFixture(t)
	for _, tc := range []struct{ name, disposition, typ string }{
		{"shot.png", "inline", "image/png"},
		{"page.html", "attachment", "text/html"},
	} {
		req, _ := http.NewRequestWithContext(servertest.Context(t), "GET", f.base+"/admin/api/workspaces/default@bob/files/"+tc.name, nil)
		req.Header.Set("Authorization", "Bearer "+bobToken)
		res, err := http.DefaultClient.Do(req)
		assert.NilError(t, err)
		res.Body.Close()
		assert.Equal(t, res.StatusCode, 200)
		assert.Check(t, strings.HasPrefix(res.Header.Get("Content-Disposition"), tc.disposition))
		assert.Check(t, strings.HasPrefix(res.Header.Get("Content-Type"), tc.typ))
		assert.Check(t, is.Contains(res.Header.Get("Content-Security-Policy"), "sandbox"))
		assert.Equal(t, res.Header.Get("X-Content-Type-Options"), "nosniff")
	}
}

// TestPage: /admin is served without a token (it holds no data) with a
// CSP that allows no inline script and frames by the setting.
func TestPage(t *testing.T) {
	for _, tc := range []struct{ setting, want string }{
		{"", "frame-ancestors 'none'"},
		{"'self' https://intranet.example", "frame-ancestors 'self' https://intranet.example"},
	} {
		srv := servertest.New(t, server.Config{AdminFrameAncestors: tc.setting})
		base := servertest.ServeHTTP(t, srv).Base
		st, h, body := servertest.Get(t, base+"/admin", nil)
		assert.Equal(t, st, 200)
		csp := h.Get("Content-Security-Policy")
		assert.Check(t, is.Contains(csp, "script-src 'self'"))
		assert.Check(t, !strings.Contains(csp, "unsafe-eval"))
		assert.Check(t, !strings.Contains(strings.Split(strings.Split(csp, "script-src")[1], ";")[0], "unsafe-inline"), csp)
		assert.Check(t, is.Contains(csp, tc.want))
		assert.Check(t, is.Contains(string(body), "<div id=\"app\""))
		assert.Check(t, !strings.Contains(string(body), "<script>"), "inline script in the page")

		// Its script is a file of its own, served without a token.
		m := regexp.MustCompile(`src="(/admin/assets/[^"]+\.js)"`).FindStringSubmatch(string(body))
		assert.Assert(t, m != nil, "no script file in %s", body)
		st, h, _ = servertest.Get(t, base+m[1], nil)
		assert.Check(t, is.Equal(st, 200))
		assert.Check(t, is.Contains(h.Get("Content-Type"), "javascript"))
		// A path that climbs out of the assets is not served from them.
		st, _, _ = servertest.Get(t, base+"/admin/assets/../api/settings", nil)
		assert.Check(t, st != 200, "status %d", st)
	}
}
