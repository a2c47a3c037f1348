package server_test

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/links"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// reply is one HTTP answer of the action API.
type reply struct {
	code   int
	header http.Header
	body   []byte
}

func (r reply) json(t *testing.T) map[string]any {
	t.Helper()
	var v map[string]any
	assert.NilError(t, json.Unmarshal(r.body, &v), "%s", r.body)
	return v
}

// send makes one request as curl would, with a deadline from the test.
func send(t *testing.T, method, rawURL, body string, header ...string) reply {
	t.Helper()
	ctx := testenv.Context(t)
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, rawURL, rd)
	assert.NilError(t, err)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	assert.NilError(t, err)
	return reply{code: res.StatusCode, header: res.Header, body: b}
}

// openAPIValidator builds libopenapi-validator's validator for the
// document the server serves.
func openAPIValidator(t *testing.T, doc []byte) validator.Validator {
	t.Helper()
	d, err := libopenapi.NewDocument(doc)
	assert.NilError(t, err)
	v, errs := validator.NewValidator(d)
	assert.Assert(t, len(errs) == 0, "%v", errs)
	return v
}

type openAPIOp struct {
	OperationID string `json:"operationId"`
	Tool        string `json:"x-mcp-tool"`
	Resource    string `json:"x-mcp-resource"`
}

// operations are the document's operations by "METHOD path".
func operations(t *testing.T, doc []byte) map[string]openAPIOp {
	t.Helper()
	var d struct {
		Paths map[string]map[string]json.RawMessage `json:"paths"`
	}
	assert.NilError(t, json.Unmarshal(doc, &d))
	out := map[string]openAPIOp{}
	for p, item := range d.Paths {
		for method, raw := range item {
			if method == "parameters" {
				continue
			}
			var op openAPIOp
			assert.NilError(t, json.Unmarshal(raw, &op))
			out[strings.ToUpper(method)+" "+p] = op
		}
	}
	return out
}

// TestOpenAPIDocumentValidates: /openapi.json and /openapi.yaml are one
// valid OpenAPI 3.1 document, as libopenapi-validator checks it.
func TestOpenAPIDocumentValidates(t *testing.T) {
	hs := servertest.ServeHTTP(t, servertest.New(t, server.Config{}))
	js := send(t, "GET", hs.Base+server.OpenAPIPath, "")
	assert.Equal(t, js.code, http.StatusOK)
	ok, errs := openAPIValidator(t, js.body).ValidateDocument()
	assert.Assert(t, ok, "%v", errs)

	ym := send(t, "GET", hs.Base+server.OpenAPIYAMLPath, "")
	assert.Equal(t, ym.code, http.StatusOK)
	assert.Check(t, is.Equal(ym.header.Get("Content-Type"), "application/yaml"))
	d, err := libopenapi.NewDocument(ym.body)
	assert.NilError(t, err)
	m, err := d.BuildV3Model()
	assert.NilError(t, err)
	assert.Check(t, is.Equal(m.Model.Paths.PathItems.Len(), strings.Count(string(js.body), "\n    \"/")), "the YAML has other paths than the JSON")
}

// TestEveryToolHasAnEndpoint is the 1:1 test: every tool the server
// serves has exactly one endpoint in the document, marked x-mcp-tool,
// unless server.NoEndpoint says why not; every x-mcp-tool names a served
// tool; and every such endpoint is routed (no 404 or 405 from the mux).
func TestEveryToolHasAnEndpoint(t *testing.T) {
	srv := servertest.New(t, server.Config{})
	hs := servertest.ServeHTTP(t, srv)
	doc, err := srv.OpenAPI()
	assert.NilError(t, err)
	ops := operations(t, doc)
	byTool := map[string][]string{}
	for at, op := range ops {
		if op.Tool != "" {
			byTool[op.Tool] = append(byTool[op.Tool], at)
		}
	}
	var served []string
	for _, tl := range srv.Tools() {
		name := tl.Def.Name
		served = append(served, name)
		if why, none := server.NoEndpoint[name]; none {
			assert.Check(t, why != "" && len(byTool[name]) == 0, "%s: no endpoint, yet %v", name, byTool[name])
			continue
		}
		assert.Check(t, is.Len(byTool[name], 1), "the tool %s has endpoints %v", name, byTool[name])
	}
	for tool, at := range byTool {
		assert.Check(t, slices.Contains(served, tool), "%v names the tool %s, which the server does not serve", at, tool)
	}
	for _, r := range srv.Routes() {
		path := strings.NewReplacer("{name}", "no-such-flow", "{uri}", url.PathEscape("knowledge://index")).Replace(r.Path)
		body := ""
		if r.Method == "POST" || r.Method == "PUT" {
			body = `{"no_such_argument": 1}`
		}
		got := send(t, r.Method, hs.Base+path, body)
		assert.Check(t, got.code != http.StatusMethodNotAllowed && !(got.code == http.StatusNotFound && !bytes.Contains(got.body, []byte("flow"))),
			"%s %s is not routed: %d %s", r.Method, path, got.code, got.body)
	}
}

// TestNoServerErrorForBadInput: every endpoint refuses bad input with a
// 4xx and a sentence, never a 500.
func TestNoServerErrorForBadInput(t *testing.T) {
	srv := servertest.New(t, server.Config{})
	hs := servertest.ServeHTTP(t, srv)
	bodies := []string{`[1`, `[]`, `"text"`, `{"no_such_argument": true}`, `{"url": 5, "locator": "x", "name": [], "params": 3, "steps": "x"}`, `null`, `{}{}`, "\x00\xff"}
	var paths []struct{ method, path string }
	for _, r := range srv.Routes() {
		paths = append(paths, struct{ method, path string }{r.Method, strings.NewReplacer("{name}", "..%2F..", "{uri}", "%00").Replace(r.Path)})
	}
	paths = append(paths, []struct{ method, path string }{
		{"POST", server.BrowserPrefix + "no_such_tool"}, {"GET", server.FilesPath + "/%00"}, {"DELETE", server.FilesPath + "/..%2Fx"},
		{"GET", server.FilesPath + "/x.png?sig=forged&p=local&exp=99999999999"}, {"GET", server.FlowsPath + "/%FF"},
		{"PUT", server.FlowsPath + "/a"}, {"POST", server.FlowsPath + "/a/runs"},
	}...)
	for _, p := range paths {
		tries := bodies
		if p.method == "GET" || p.method == "DELETE" {
			tries = []string{""} // no body: the path is the bad input
			if !strings.ContainsAny(p.path, "%?") {
				continue // a list takes no input
			}
		}
		for _, b := range tries {
			got := send(t, p.method, hs.Base+p.path, b)
			assert.Check(t, got.code >= 400 && got.code < 500, "%s %s with %q: %d %.300s", p.method, p.path, b, got.code, got.body)
			assert.Check(t, len(bytes.TrimSpace(got.body)) > 0, "%s %s: an empty refusal", p.method, p.path)
		}
	}
	big := `{"text": "` + strings.Repeat("a", server.MaxBody) + `"}`
	got := send(t, "POST", hs.Base+server.BrowserPrefix+"write", big)
	assert.Check(t, is.Equal(got.code, http.StatusRequestEntityTooLarge), "%s", got.body)
}

// TestRefusalStatus: each refusal kind answers with its status; the body
// is the sentence an MCP client reads.
func TestRefusalStatus(t *testing.T) {
	tokens, err := auth.NewTokens(map[string]string{aliceToken: "alice"})
	assert.NilError(t, err)
	// No browser endpoint: a Grid address where nothing listens.
	dead := httptest.NewServer(http.NotFoundHandler())
	dead.Close()
	srv := servertest.New(t, server.Config{Tokens: tokens, SeleniumURL: dead.URL})
	hs := servertest.ServeHTTP(t, srv)
	bearer := []string{"Authorization", "Bearer " + aliceToken}
	for _, tc := range []struct {
		name, method, path, body string
		header                   []string
		code                     int
		says                     string
	}{
		{"bad-arguments", "POST", "/browser/click", `{"bogus": 1}`, bearer, 400, `click takes no argument "bogus"`},
		{"no-token", "POST", "/browser/click", `{}`, nil, 401, ""},
		{"missing-flow", "POST", "/flows/nope/runs", `{}`, bearer, 404, `no flow named "nope"`},
		{"missing-tool", "POST", "/browser/nope", `{}`, bearer, 404, "open_session"},
		{"no-session", "POST", "/browser/outline", `{}`, bearer, 409, "open_session"},
		{"too-large", "POST", "/browser/write", `{"text": "` + strings.Repeat("a", server.MaxBody) + `"}`, bearer, 413, "bytes"},
		{"no-browser-endpoint", "POST", "/browser/open_session", `{}`, bearer, 503, "could not be started"},
		{"not-ready", "GET", "/ready", "", bearer, 503, "running Grid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := send(t, tc.method, hs.Base+tc.path, tc.body, tc.header...)
			assert.Check(t, is.Equal(got.code, tc.code), "%s", got.body)
			sentence := string(got.body)
			var e struct{ Error string }
			if json.Unmarshal(got.body, &e) == nil && e.Error != "" {
				sentence = e.Error
			}
			assert.Check(t, is.Contains(sentence, tc.says))
			assert.Check(t, !strings.Contains(string(got.body), dead.URL[len("http://"):]), "the body names the endpoint")
		})
	}
	got := send(t, "GET", hs.Base+server.HealthPath, "")
	assert.Check(t, is.Equal(got.code, http.StatusOK), "GET /health needs no token: %s", got.body)
}

// TestActionsOverHTTP drives real Chromium through the action API as a
// script or workflow engine would: navigate, write, click, a screenshot
// as JSON and as PNG bytes, then a flow saved, run with Server-Sent
// Events progress, read and deleted. Every answer fits the document.
func TestActionsOverHTTP(t *testing.T) {
	testenv.NeedBrowser(t)
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{})
	hs := servertest.ServeHTTP(t, srv)
	doc, err := srv.OpenAPI()
	assert.NilError(t, err)
	v := openAPIValidator(t, doc)
	call := func(method, path, body string, header ...string) reply {
		t.Helper()
		got := send(t, method, hs.Base+path, body, header...)
		req, _ := http.NewRequest(method, hs.Base+path, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res := &http.Response{StatusCode: got.code, Header: got.header, Body: io.NopCloser(bytes.NewReader(got.body)), Request: req}
		if ok, errs := v.ValidateHttpResponse(req, res); !ok && !strings.HasPrefix(got.header.Get("Content-Type"), "text/event-stream") {
			t.Errorf("%s %s: the answer does not fit the OpenAPI document: %v", method, path, errs)
		}
		return got
	}
	got := call("POST", "/browser/open_session", `{"url": "`+site+`/login"}`)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	got = call("POST", "/browser/write", `{"locator": {"role": "textbox", "name": "Email"}, "text": "ann@example.com"}`)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	assert.Check(t, is.Contains(got.json(t)["text"].(string), "Typed"))
	got = call("POST", "/browser/click", `{"locator": {"role": "button", "name": "Sign in"}}`)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	got = call("POST", "/browser/screenshot", `{}`)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	var shot server.ToolAnswer
	assert.NilError(t, json.Unmarshal(got.body, &shot))
	assert.Assert(t, len(shot.Images) == 1 && shot.Images[0].MIMEType == "image/png" && shot.Images[0].Bytes > 0, "%s", got.body)
	assert.Assert(t, len(shot.Files) == 1 && strings.HasPrefix(shot.Files[0].Link, server.FilesPath+"/"), "%s", got.body)
	png := send(t, "POST", hs.Base+"/browser/screenshot", `{}`, "Accept", "image/png")
	assert.Equal(t, png.code, http.StatusOK)
	assert.Check(t, is.Equal(png.header.Get("Content-Type"), "image/png"))
	assert.Check(t, bytes.HasPrefix(png.body, []byte("\x89PNG\r\n\x1a\n")))

	flow := `{"parameters": [{"name": "email"}], "steps": [
		{"tool": "navigate", "args": {"url": "` + site + `/login"}},
		{"tool": "write", "args": {"locator": {"role": "textbox", "name": "Email"}, "text": "{{email}}"}},
		{"tool": "click", "args": {"locator": {"role": "button", "name": "Sign in"}}, "return": "landed"}]}`
	got = call("PUT", "/flows/sign-in", flow)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	got = call("GET", "/flows/sign-in", "")
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	assert.Check(t, is.Equal(got.json(t)["name"], "sign-in"))

	events := runEvents(t, hs.Base+"/flows/sign-in/runs", `{"params": {"email": "bo@example.com"}}`)
	assert.Assert(t, len(events) == 4, "%v", events)
	for i, e := range events[:3] {
		assert.Check(t, is.Equal(e.name, "progress"))
		assert.Check(t, is.Equal(e.data["progress"], float64(i+1)), "%v", e.data)
	}
	assert.Check(t, is.Equal(events[3].name, "result"))
	report, _ := events[3].data["result"].(map[string]any)
	assert.Check(t, is.Equal(report["ok"], true), "%v", events[3].data)
	// A step marked return comes back in the report's values (issue 15):
	// the click's, the page's address after it.
	values, _ := report["values"].(map[string]any)
	landed, _ := values["landed"].(string)
	assert.Check(t, strings.HasPrefix(landed, site+"/"), "values: %v", report["values"])

	got = call("POST", "/flows/sign-in/runs", `{"params": {"email": "cy@example.com"}}`)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	assert.Check(t, is.Contains(string(got.body), `"landed":"`+site+`/`), "%s", got.body)
	got = call("DELETE", "/flows/sign-in", "")
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	got = call("GET", "/flows/sign-in", "")
	assert.Equal(t, got.code, http.StatusNotFound, "%s", got.body)
	got = call("DELETE", server.FilesPath+"/"+shot.Files[0].Name, "")
	assert.Equal(t, got.code, http.StatusNoContent, "%s", got.body)
}

type event struct {
	name string
	data map[string]any
}

// runEvents runs a flow asking for Server-Sent Events and returns them.
func runEvents(t *testing.T, rawURL, body string) []event {
	t.Helper()
	req, err := http.NewRequestWithContext(testenv.Context(t), "POST", rawURL, strings.NewReader(body))
	assert.NilError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	defer res.Body.Close()
	assert.Equal(t, res.StatusCode, http.StatusOK)
	assert.Equal(t, res.Header.Get("Content-Type"), "text/event-stream")
	var out []event
	var cur event
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			cur.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			assert.NilError(t, json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.data))
		case line == "":
			out = append(out, cur)
			cur = event{}
		}
	}
	assert.NilError(t, sc.Err())
	return out
}

// TestSignedLinkInAnotherOrigin: a page of another origin shows a kept
// screenshot with an <img> whose src is the signed link the result gave,
// in headless Chromium, with no token; the same link expired, or with its
// signature altered, does not load, and neither does the bare path.
func TestSignedLinkInAnotherOrigin(t *testing.T) {
	testenv.NeedBrowser(t)
	tokens, err := auth.NewTokens(map[string]string{aliceToken: "alice"})
	assert.NilError(t, err)
	data := t.TempDir()
	srv := servertest.New(t, server.Config{Tokens: tokens, DataDir: data})
	hs := servertest.ServeHTTP(t, srv)
	bearer := []string{"Authorization", "Bearer " + aliceToken}
	site := fixtures.Serve(t)

	got := send(t, "POST", hs.Base+"/browser/open_session", `{"url": "`+site+`/login"}`, bearer...)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	got = send(t, "POST", hs.Base+"/browser/screenshot", `{}`, bearer...)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	var shot server.ToolAnswer
	assert.NilError(t, json.Unmarshal(got.body, &shot))
	assert.Assert(t, len(shot.Files) == 1)
	link := shot.Files[0].Link

	key, err := os.ReadFile(filepath.Join(data, links.KeyFile))
	assert.NilError(t, err)
	expired := links.New(key, links.WithClock(func() time.Time { return time.Now().Add(-2 * time.Hour) })).Sign("alice", server.FilesPath+"/"+shot.Files[0].Name)
	altered := strings.Replace(link, "p=alice", "p=bob", 1)
	bare, _, _ := strings.Cut(link, "?")

	// The other origin: a page on a server of its own, 127.0.0.1 on
	// another port, showing the four links.
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, `<!doctype html><title>gallery</title>`+
			`<img id="signed" src="`+hs.Base+link+`"><img id="expired" src="`+hs.Base+expired+`">`+
			`<img id="altered" src="`+hs.Base+altered+`"><img id="bare" src="`+hs.Base+bare+`">`)
	}))
	t.Cleanup(other.Close)
	got = send(t, "POST", hs.Base+"/browser/navigate", `{"url": "`+other.URL+`"}`, bearer...)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	loaded := func() map[string]any {
		got := send(t, "POST", hs.Base+"/browser/execute_script", `{"script": "return Object.fromEntries([...document.images].map(i => [i.id, i.complete ? i.naturalWidth : -1]))"}`, bearer...)
		assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
		var ans server.ToolAnswer
		assert.NilError(t, json.Unmarshal(got.body, &ans))
		var widths map[string]any
		text := ans.Text[strings.Index(ans.Text, "{"):]
		assert.NilError(t, json.NewDecoder(strings.NewReader(text)).Decode(&widths), ans.Text)
		return widths
	}
	var widths map[string]any
	testenv.Eventually(t, "the images loaded or failed", func() bool {
		widths = loaded()
		for _, w := range widths {
			if w == float64(-1) {
				return false
			}
		}
		return true
	})
	assert.Check(t, widths["signed"].(float64) > 0, "the signed link did not load in the other origin's page: %v", widths)
	for _, id := range []string{"expired", "altered", "bare"} {
		assert.Check(t, is.Equal(widths[id], float64(0)), "%s loaded: %v", id, widths)
	}

	// The same refusals as a person sees them: a 403 page that says why.
	for _, tc := range []struct{ link, says string }{{expired, "expired"}, {altered, "changed"}} {
		got := send(t, "GET", hs.Base+tc.link, "")
		assert.Check(t, is.Equal(got.code, http.StatusForbidden))
		assert.Check(t, is.Contains(string(got.body), tc.says))
		assert.Check(t, is.Equal(got.header.Get("Content-Type"), "text/html; charset=utf-8"))
	}
	// Range requests, and the headers a served file carries.
	got = send(t, "GET", hs.Base+link, "", "Range", "bytes=0-7")
	assert.Check(t, is.Equal(got.code, http.StatusPartialContent))
	assert.Check(t, is.Equal(string(got.body), "\x89PNG\r\n\x1a\n"))
	assert.Check(t, is.Equal(got.header.Get("X-Content-Type-Options"), "nosniff"))
	assert.Check(t, is.Contains(got.header.Get("Content-Security-Policy"), "default-src 'none'"))
	assert.Check(t, is.Contains(got.header.Get("Content-Disposition"), "inline"))
}

// TestCORS: with no allowed origins nothing carries an Access-Control
// header; an allowed origin (a Swagger UI elsewhere) gets its preflight
// with Authorization, X-Workspace and Content-Type answered, and reads
// /openapi.json and an action's answer.
func TestCORS(t *testing.T) {
	const swagger = "http://127.0.0.1:9999"
	off := servertest.ServeHTTP(t, servertest.New(t, server.Config{}))
	got := send(t, "GET", off.Base+server.OpenAPIPath, "", "Origin", swagger)
	assert.Check(t, is.Equal(got.header.Get("Access-Control-Allow-Origin"), ""))

	on := servertest.ServeHTTP(t, servertest.New(t, server.Config{AllowedOrigins: []string{swagger}}))
	pre := send(t, "OPTIONS", on.Base+"/browser/click", "", "Origin", swagger,
		"Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "authorization, x-workspace, content-type")
	assert.Check(t, is.Equal(pre.code, http.StatusNoContent))
	assert.Check(t, is.Equal(pre.header.Get("Access-Control-Allow-Origin"), swagger))
	for _, h := range []string{"Authorization", "X-Workspace", "Content-Type"} {
		assert.Check(t, is.Contains(pre.header.Get("Access-Control-Allow-Headers"), h))
	}
	got = send(t, "GET", on.Base+server.OpenAPIPath, "", "Origin", swagger)
	assert.Check(t, is.Equal(got.code, http.StatusOK))
	assert.Check(t, is.Equal(got.header.Get("Access-Control-Allow-Origin"), swagger))
	got = send(t, "POST", on.Base+"/browser/click", `{"bogus": 1}`, "Origin", swagger)
	assert.Check(t, is.Equal(got.code, http.StatusBadRequest))
	assert.Check(t, is.Equal(got.header.Get("Access-Control-Allow-Origin"), swagger), "a refusal is readable too")
	got = send(t, "OPTIONS", on.Base+"/browser/click", "", "Origin", "http://evil.example", "Access-Control-Request-Method", "POST")
	assert.Check(t, is.Equal(got.code, http.StatusForbidden))
}

// testUpload sends a file in the request to POST /browser/upload_file, as
// a multipart form and as base64 JSON, and checks the page's file input
// holds it; a file over the upload cap is 413, one over the JSON cap but
// under the upload cap is kept.
func testUpload(t *testing.T, cfg server.Config) {
	site := fixtures.Serve(t)
	srv := servertest.New(t, cfg)
	hs := servertest.ServeHTTP(t, srv)
	got := send(t, "POST", hs.Base+"/browser/open_session", `{"url": "`+site+`/upload"}`)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	t.Cleanup(func() { send(t, "POST", hs.Base+"/browser/close_session", `{}`) })
	picked := func() string {
		got := send(t, "POST", hs.Base+"/browser/execute_script", `{"script": "const f = document.getElementById('doc').files[0]; return f ? f.name + ' ' + f.size : 'none'"}`)
		assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
		return got.json(t)["text"].(string)
	}

	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	assert.NilError(t, mw.WriteField("locator", `{"label": "Document"}`))
	fw, err := mw.CreateFormFile("file", "notes.txt")
	assert.NilError(t, err)
	_, _ = fw.Write([]byte("hello, node"))
	assert.NilError(t, mw.Close())
	got = send(t, "POST", hs.Base+"/browser/upload_file", form.String(), "Content-Type", mw.FormDataContentType())
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	assert.Check(t, is.Contains(picked(), "notes.txt 11"))

	big := bytes.Repeat([]byte("x"), 2<<20) // over the JSON cap, under the upload cap
	body, _ := json.Marshal(map[string]any{"locator": map[string]any{"label": "Document"}, "file": map[string]any{"name": "big.bin", "content": base64.StdEncoding.EncodeToString(big)}})
	got = send(t, "POST", hs.Base+"/browser/upload_file", string(body))
	assert.Equal(t, got.code, http.StatusOK, "%.300s", got.body)
	assert.Check(t, is.Contains(picked(), fmt.Sprintf("big.bin %d", len(big))))

	got = send(t, "POST", hs.Base+server.FilesPath, `{"file": {"name": "kept.txt", "content": "`+base64.StdEncoding.EncodeToString([]byte("kept"))+`"}}`)
	assert.Equal(t, got.code, http.StatusCreated, "%s", got.body)
	assert.Check(t, is.Equal(got.json(t)["uri"], "session://files/kept.txt"))
	got = send(t, "POST", hs.Base+server.FilesPath, strings.Repeat("x", server.MaxUpload+1))
	assert.Equal(t, got.code, http.StatusRequestEntityTooLarge, "%.300s", got.body)
	got = send(t, "POST", hs.Base+server.FilesPath, `{"file": {"name": "../x", "content": ""}}`)
	assert.Equal(t, got.code, http.StatusBadRequest, "%.300s", got.body)
}

// TestUploadOverHTTP: a file in the request reaches a local browser's
// file input.
func TestUploadOverHTTP(t *testing.T) {
	testenv.NeedBrowser(t)
	testUpload(t, server.Config{})
}

// TestUploadOverHTTPGrid: the same on the Selenium Grid of SELENIUM_URL,
// where the bytes are shipped to the browser's node.
func TestUploadOverHTTPGrid(t *testing.T) {
	grid := os.Getenv("SELENIUM_URL")
	if grid == "" {
		t.Skip("SELENIUM_URL is not set")
	}
	testUpload(t, server.Config{SeleniumURL: grid})
}
