package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/resources"
)

// get reports a redirect instead of following it (servertest.Get), so a
// cleaned "//" shows up as a failure.
func get(t *testing.T, rawURL string, header http.Header) (*http.Response, string) {
	t.Helper()
	code, h, body := servertest.Get(t, rawURL, header)
	return &http.Response{StatusCode: code, Header: h}, string(body)
}

// TestReadAPIServesMCPBytes: GET /resources/{uri} answers the bytes an MCP
// client reads over HTTP from the same server, with the resource's type,
// for the URI as it is and percent-encoded.
func TestReadAPIServesMCPBytes(t *testing.T) {
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{}))
	c := servertest.ConnectHTTP(t, srv.URL, servertest.Options{})
	for _, tc := range []struct{ uri, typ string }{
		{"knowledge://index", "application/json"},
		{"knowledge://documents/flow-format", "text/markdown; charset=utf-8"},
		{"skill://selenium-flow/SKILL.md", "text/markdown; charset=utf-8"},
		{"skill://selenium-flow/references/base.md", "text/markdown; charset=utf-8"},
		{"flow://schema", "application/schema+json"},
	} {
		t.Run(tc.uri, func(t *testing.T) {
			want := readText(t, c, tc.uri)
			for _, path := range []string{tc.uri, url.PathEscape(tc.uri)} {
				res, body := get(t, srv.Base+server.ReadPrefix+path, nil)
				assert.Equal(t, res.StatusCode, http.StatusOK, "GET %s: %s", path, body)
				assert.Check(t, body == want, "GET %s differs from resources/read", path)
				assert.Check(t, is.Equal(res.Header.Get("Content-Type"), tc.typ))
			}
		})
	}
}

// TestReadAPIRefusals: a URI the table does not serve is 404 with the
// table's own sentence; other methods are refused.
func TestReadAPIRefusals(t *testing.T) {
	same := servertest.New(t, server.Config{})
	srv := servertest.ServeHTTP(t, same)
	for _, uri := range []string{"knowledge://nope", "knowledge://documents/nope", "nope"} {
		t.Run(uri, func(t *testing.T) {
			_, want := same.Table().Read(context.Background(), uri)
			assert.Assert(t, resources.IsNotFound(want))
			res, body := get(t, srv.Base+server.ReadPrefix+uri, nil)
			assert.Equal(t, res.StatusCode, http.StatusNotFound)
			assert.Check(t, is.Equal(strings.TrimSpace(body), want.Error()))
		})
	}
	req, err := http.NewRequestWithContext(servertest.Context(t), http.MethodPost, srv.Base+server.ReadPrefix+"knowledge://index", nil)
	assert.NilError(t, err)
	req.Header.Set("Content-Type", "text/plain")
	res, err := http.DefaultClient.Do(req)
	assert.NilError(t, err)
	res.Body.Close()
	assert.Check(t, is.Equal(res.StatusCode, http.StatusMethodNotAllowed))
}

// TestReadAPIAuth: the read API sits behind the MCP endpoint's tokens.
func TestReadAPIAuth(t *testing.T) {
	const token = "read-api-test-token-0123456789"
	tokens, err := auth.NewTokens(nil)
	assert.NilError(t, err)
	assert.NilError(t, tokens.Add(token, auth.Local))
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{Tokens: tokens}))
	res, body := get(t, srv.Base+server.ReadPrefix+"knowledge://index", nil)
	assert.Equal(t, res.StatusCode, http.StatusUnauthorized, body)
	assert.Check(t, is.Contains(body, "Authorization: Bearer"))
	res, body = get(t, srv.Base+server.OpenAPIPath, nil)
	assert.Equal(t, res.StatusCode, http.StatusUnauthorized, body)

	bearer := http.Header{"Authorization": {"Bearer " + token}}
	res, body = get(t, srv.Base+server.ReadPrefix+"knowledge://index", bearer)
	assert.Equal(t, res.StatusCode, http.StatusOK, body)
	c := servertest.ConnectHTTP(t, srv.URL, servertest.Options{Headers: map[string]string{"Authorization": "Bearer " + token}})
	assert.Check(t, body == readText(t, c, "knowledge://index"))
}

// TestReadAPIHidden: an entry only app hosts draw is not served over the
// read API, with the sentence of a URI that does not exist.
func TestReadAPIHidden(t *testing.T) {
	srv := servertest.New(t, server.Config{})
	const ui = "ui://selenium-flow/component"
	e, ok := srv.Table().Lookup(ui)
	assert.Assert(t, ok && e.Hidden, "%s is not a hidden entry of the table", ui)
	hs := servertest.ServeHTTP(t, srv)
	res, body := get(t, hs.Base+server.ReadPrefix+ui, nil)
	assert.Equal(t, res.StatusCode, http.StatusNotFound, body)
	assert.Check(t, is.Contains(body, "no resource at "+ui+". "))
	assert.Check(t, is.Contains(body, "knowledge://index"))
	assert.Check(t, !strings.Contains(body, "<html>"))

	doc, err := srv.OpenAPI()
	assert.NilError(t, err)
	assert.Check(t, !strings.Contains(string(doc), "ui://"), "the OpenAPI document names the hidden entry")
}

// TestOpenAPI: /openapi.json is an OpenAPI 3.1 document with a read path
// for every resource and template the server lists, each naming its URI
// (the actions are TestEveryToolHasAnEndpoint's).
func TestOpenAPI(t *testing.T) {
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{}))
	c := servertest.ConnectHTTP(t, srv.URL, servertest.Options{})
	res, body := get(t, srv.Base+server.OpenAPIPath, nil)
	assert.Equal(t, res.StatusCode, http.StatusOK, body)
	assert.Check(t, is.Equal(res.Header.Get("Content-Type"), "application/json"))

	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Title, Version string
		} `json:"info"`
		Paths map[string]struct {
			Get *struct {
				OperationID string `json:"operationId"`
				Resource    string `json:"x-mcp-resource"`
				Tool        string `json:"x-mcp-tool"`
				Parameters  []struct {
					Name, In string
					Required bool
				} `json:"parameters"`
			} `json:"get"`
		} `json:"paths"`
	}
	assert.NilError(t, json.Unmarshal([]byte(body), &doc))
	assert.Equal(t, doc.OpenAPI, "3.1.0")
	assert.Check(t, doc.Info.Title != "" && doc.Info.Version != "")

	var want []string
	for _, r := range listResources(t, c) {
		want = append(want, r.URI)
	}
	for _, tm := range listTemplates(t, c) {
		want = append(want, tm.URITemplate.Raw())
	}
	seen, ids := map[string]bool{}, map[string]bool{}
	for p, item := range doc.Paths {
		uri, ok := strings.CutPrefix(p, server.ReadPrefix)
		if !ok || item.Get == nil || item.Get.Tool != "" {
			continue // an action, an operation, or the read_resource tool's generic path
		}
		// A {+var} is written {var} in an OpenAPI path.
		tmpl := resources.ParseTemplate(item.Get.Resource)
		vars := map[string]string{}
		for _, v := range tmpl.Vars() {
			vars[v] = "{" + v + "}"
		}
		assert.Check(t, is.Equal(tmpl.Expand(vars, ""), uri), "%s names another resource", p)
		assert.Check(t, !ids[item.Get.OperationID], "operationId %s twice", item.Get.OperationID)
		ids[item.Get.OperationID] = true
		for _, prm := range item.Get.Parameters {
			assert.Check(t, prm.In == "path" && prm.Required && strings.Contains(uri, "{"+prm.Name+"}"), "%s: parameter %s", p, prm.Name)
		}
		seen[item.Get.Resource] = true
	}
	for _, uri := range want {
		assert.Check(t, seen[uri], "the OpenAPI document has no read path for %s", uri)
	}
	assert.Check(t, is.Len(seen, len(want)), "the document has paths the server does not list")

	// Every concrete embedded resource's path answers.
	for _, r := range listResources(t, c) {
		if !strings.HasPrefix(r.URI, "knowledge://") && !strings.HasPrefix(r.URI, "skill://") {
			continue
		}
		res, body := get(t, srv.Base+server.ReadPrefix+r.URI, nil)
		assert.Check(t, is.Equal(res.StatusCode, http.StatusOK), "%s: %s", r.URI, body)
	}
}
