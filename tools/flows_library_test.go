package tools_test

import (
	"os"
	"path/filepath"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestFlowLibrary: an operator publishes a flow to the library (and one
// lands there as a file an operator copied into FLOW_LIBRARY_DIR); every
// principal lists it marked library, reads it and runs it in their own
// browser; none but the operator can change or delete it, and a
// principal's save under its name is refused rather than hiding it.
func TestFlowLibrary(t *testing.T) {
	servertest.NeedBrowser(t)
	base := fixtures.Serve(t)
	const opToken, bobToken = "op-token-0123456789abcdef", "bob-token-0123456789abcdef"
	tokens := filepath.Join(t.TempDir(), "tokens")
	assert.NilError(t, os.WriteFile(tokens, []byte(opToken+" ops roles=operator\n"+bobToken+" bob\n"), 0o600))
	toks, err := auth.LoadTokens(tokens)
	assert.NilError(t, err)
	lib := t.TempDir()
	assert.NilError(t, os.WriteFile(filepath.Join(lib, "copied.json"), []byte(`{"name":"copied","steps":[{"tool":"outline"}]}`), 0o600))
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{Tokens: toks, FlowLibraryDir: lib}))
	as := func(token string) *servertest.Client {
		return servertest.ConnectHTTP(t, srv.URL, servertest.Options{Headers: map[string]string{"Authorization": "Bearer " + token}})
	}
	ops, bob := as(opToken), as(bobToken)

	doc := map[string]any{"name": "article-title", "description": "Read the article's heading.", "steps": []any{
		step("navigate", "", map[string]any{"url": base + "/article"}),
		map[string]any{"tool": "read_text", "return": "heading", "args": map[string]any{"locator": map[string]any{"css": "h1"}}},
	}}
	servertest.CallRefused(t, bob, "save_flow", map[string]any{"document": doc, "library": true}, "Only an operator can publish")
	assert.Check(t, is.Contains(flowOK(t, ops, "save_flow", map[string]any{"document": doc, "library": true}), "Saved in the library the flow article-title"))

	for _, c := range []*servertest.Client{bob, ops} {
		listed := map[string]bool{}
		for _, f := range flowList(t, readOK(t, c, "flow://flows")) {
			assert.Check(t, f.Library, "%s not marked library", f.Name)
			assert.Check(t, is.Equal(f.Owner, "library"))
			listed[f.Name] = true
		}
		assert.Check(t, is.DeepEqual(listed, map[string]bool{"article-title": true, "copied": true}))
		assert.Check(t, is.Contains(readOK(t, c, "flow://flows/article-title"), "Read the article's heading."))
	}

	flowOK(t, bob, "open_session", nil)
	res := runFlow(t, bob, "article-title", nil, "")
	assert.Assert(t, !res.IsError, servertest.Text(res))
	assert.Check(t, reportOf(t, res).Values["heading"] != nil)

	changed := map[string]any{"name": "article-title", "steps": []any{step("outline", "", nil)}}
	servertest.CallRefused(t, bob, "save_flow", map[string]any{"document": changed}, "in the shared library, which only an operator can change", "another name")
	servertest.CallRefused(t, bob, "delete_flow", map[string]any{"name": "article-title"}, "only an operator can change")
	servertest.CallRefused(t, bob, "delete_flow", map[string]any{"name": "article-title", "library": true}, "only an operator can change")
	assert.Check(t, is.Contains(readOK(t, bob, "flow://flows/article-title"), "Read the article's heading."), "bob changed the library flow")

	// Histories are each principal's own: ops's recorded navigation is in
	// ops's draft and not in bob's.
	flowOK(t, ops, "open_session", nil)
	flowOK(t, ops, "start_recording", nil)
	flowOK(t, ops, "navigate", map[string]any{"url": base + "/controls"})
	assert.Check(t, is.Contains(flowOK(t, ops, "draft_flow", nil), "/controls"))
	servertest.CallRefused(t, bob, "draft_flow", map[string]any{"from": 1}, "hold nothing a flow can replay")

	flowOK(t, ops, "delete_flow", map[string]any{"name": "copied", "library": true})
	assert.Check(t, is.Len(flowList(t, readOK(t, bob, "flow://flows")), 1))
}
