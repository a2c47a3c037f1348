package flows

import (
	"encoding/json"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestDraft(t *testing.T) {
	const site = "http://127.0.0.1:8000"
	email := map[string]any{"css": "#email"}
	calls := []Recorded{
		{Tool: "open_session", Args: map[string]any{"url": site + "/login"}, URLAfter: site + "/login"},
		{Tool: "navigate", Args: map[string]any{"url": site + "/login"}, URLBefore: site + "/login", URLAfter: site + "/login"},
		{Tool: "write", Args: map[string]any{"locator": map[string]any{"label": "Email"}, "text": "ada@example.com"}, Locator: email, URLBefore: site + "/login", URLAfter: site + "/login"},
		{Tool: "write", Args: map[string]any{"locator": map[string]any{"label": "Password"}, "secret": "login"}, Locator: map[string]any{"css": "#password"}, URLBefore: site + "/login", URLAfter: site + "/login"},
		{Tool: "write", Args: map[string]any{"locator": map[string]any{"label": "Code"}, "text": "12"}, URLBefore: site + "/login", URLAfter: site + "/login"},
		{Tool: "write", Args: map[string]any{"locator": map[string]any{"label": "Code"}, "text": "123456"}, URLBefore: site + "/login", URLAfter: site + "/login"},
		{Tool: "click", Args: map[string]any{"locator": map[string]any{"css": "form > button:nth-of-type(1)"}}, Locator: map[string]any{"role": "button", "name": "Sign in"}, URLBefore: site + "/login", URLAfter: site + "/welcome"},
		{Tool: "read_text", Args: map[string]any{}, URLBefore: site + "/welcome", URLAfter: site + "/welcome"},
		{Tool: "click", Args: map[string]any{"locator": map[string]any{"text": "Orders of ada@example.com"}}, URLBefore: site + "/welcome", URLAfter: site + "/orders"},
		{Tool: "assert", Args: map[string]any{"text": "Orders"}, URLBefore: site + "/orders", URLAfter: site + "/orders"},
		{Tool: "assert", Args: map[string]any{"text": "Orders"}, URLBefore: site + "/orders", URLAfter: site + "/orders"},
		{Tool: "write", Args: map[string]any{"locator": map[string]any{"css": "input[name=qty]"}, "text": "2.5"}, URLBefore: site + "/orders", URLAfter: site + "/orders"},
		{Tool: "read_text", Args: map[string]any{"locator": map[string]any{"css": "#total"}}, URLBefore: site + "/orders", URLAfter: site + "/orders"},
	}
	f, notes := Draft("login", calls)
	doc, err := json.MarshalIndent(f, "", "  ")
	assert.NilError(t, err)
	t.Log(string(doc), notes)
	var tools []string
	for _, st := range f.Steps {
		tools = append(tools, st.Tool)
	}
	assert.Check(t, is.DeepEqual(tools, []string{"navigate", "write", "write", "write", "click", "wait_for", "click", "assert", "write", "read_text"}))
	assert.Check(t, is.DeepEqual(f.Steps[0].Args, map[string]any{"url": "{{base_url}}/login"}))
	assert.Check(t, is.DeepEqual(f.Steps[1].Args["locator"], email), "the stable locator replaces the typed one")
	assert.Check(t, is.Equal(f.Steps[2].Args["secret"], "login"), "a secret stays a reference")
	assert.Check(t, is.Equal(f.Steps[3].Args["text"], "{{code}}"), "the write typed over is gone")
	assert.Check(t, is.DeepEqual(f.Steps[5].Args["locator"], map[string]any{"text": "Orders of {{email}}"}), "a wait where the page changed, with the value followed")
	assert.Check(t, is.Equal(f.Steps[9].Return, true))
	params := map[string]Param{}
	for _, p := range f.Parameters {
		params[p.Name] = p
	}
	assert.Check(t, is.DeepEqual(params["base_url"], Param{Name: "base_url", Description: "the site's address, scheme and host", Default: site}))
	assert.Check(t, is.DeepEqual(params["email"], Param{Name: "email", Default: "ada@example.com"}))
	assert.Check(t, is.DeepEqual(params["code"], Param{Name: "code", Type: TypeInteger, Default: 123456.0}))
	assert.Check(t, is.DeepEqual(params["qty"], Param{Name: "qty", Type: TypeNumber, Default: 2.5}))
	assert.Check(t, is.Len(f.Parameters, 4), "no parameter for the secret")
	for v, want := range map[string]string{"2.50": TypeString, "007": TypeString, "-3": TypeInteger, "0.125": TypeNumber, "1e5": TypeString} {
		g, _ := Draft("n", []Recorded{{Tool: "write", Args: map[string]any{"locator": map[string]any{"label": "N"}, "text": v}}})
		assert.Check(t, is.Equal(typeOf(g.Parameters[0]), want), v)
	}
	assert.Check(t, is.Contains(strings.Join(notes, "; "), "dropped 1 × navigate to the page already shown"))
	assert.Check(t, is.Contains(strings.Join(notes, "; "), "dropped 1 × repeated assert"))

	// The draft is a document save_flow accepts, types included.
	s := open(t)
	parsed, err := s.Parse(doc)
	assert.NilError(t, err)
	assert.NilError(t, CheckTypes(parsed, toolTypes))
}

// TestDraftValueNamedLikeItsParameter: a value that reads like its own
// parameter's name ("name" typed into Name) is not replaced again inside
// the placeholder, and a wait's locator is its own copy.
func TestDraftValueNamedLikeItsParameter(t *testing.T) {
	const site = "http://127.0.0.1:8000"
	f, _ := Draft("x", []Recorded{
		{Tool: "navigate", Args: map[string]any{"url": site + "/a"}, URLBefore: site + "/", URLAfter: site + "/a"},
		{Tool: "write", Args: map[string]any{"locator": map[string]any{"label": "Name"}, "text": "name"}, URLBefore: site + "/a", URLAfter: site + "/a"},
		{Tool: "click", Args: map[string]any{"locator": map[string]any{"role": "button", "name": "Save"}}, URLBefore: site + "/a", URLAfter: site + "/b"},
		{Tool: "click", Args: map[string]any{"locator": map[string]any{"role": "link", "name": "name"}}, URLBefore: site + "/b", URLAfter: site + "/b"},
	})
	var tools []string
	for _, st := range f.Steps {
		tools = append(tools, st.Tool)
	}
	assert.Check(t, is.DeepEqual(tools, []string{"navigate", "write", "click", "wait_for", "click"}))
	assert.Check(t, is.Equal(f.Steps[1].Args["text"], "{{name}}"))
	assert.Check(t, is.DeepEqual(f.Steps[3].Args["locator"], map[string]any{"role": "link", "name": "{{name}}"}))
	assert.Check(t, is.DeepEqual(f.Steps[4].Args["locator"], map[string]any{"role": "link", "name": "{{name}}"}))
}
