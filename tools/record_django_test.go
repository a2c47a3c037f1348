package tools_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// generatedLooking are ids and classes no recorded locator may carry: a
// long run of digits, a framework's made-up prefix.
var generatedLooking = regexp.MustCompile(`[0-9]{3,}|ember[0-9]|:r[0-9a-z]+:|react-select|css-[0-9a-z]{5,}`)

// djBookQuery prints each book of title as author|published|genre.
func djBookQuery(title string) string {
	return fmt.Sprintf(`from library.models import Book
for b in Book.objects.filter(title=%q): print(f"{b.author.name}|{b.published}|{b.genre}")`, title)
}

// TestDjangoRecordedFlow drives the Django admin by hand through MCP —
// sign in, add an author, add a book of theirs, read the confirmation —
// with a recording running, turns the recording into a flow with
// draft_flow, saves it, and replays it in a fresh browser with other
// parameters: the database then holds the second author and book exactly
// as the first pass left the first. The draft holds no secret value and
// no generated-looking id, and the read confirmation comes back in the
// run report's values.
func TestDjangoRecordedFlow(t *testing.T) {
	r := djStart(t)
	base := r.app.Localhost()
	save := djRole("button", "Save")
	servertest.CallOK(t, r.c, "open_session", nil)
	servertest.CallOK(t, r.c, "start_recording", nil)
	for _, st := range []djStep{
		{"admin", "navigate", map[string]any{"url": base + "/admin/"}, nil},
		{"look", "outline", nil, nil},
		// A css path typed by hand: the draft keeps the page's own locator.
		{"username", "write", map[string]any{"locator": map[string]any{"css": "form input[type=text]"}, "text": "admin"}, nil},
		{"password", "write", map[string]any{"locator": djLabel("Password:"), "secret": djSecret}, nil},
		{"log-in", "click", map[string]any{"locator": djRole("button", "Log in")}, nil},
		{"add-author", "navigate", map[string]any{"url": base + "/admin/library/author/add/"}, nil},
		{"author-typo", "write", map[string]any{"locator": djLabel("Name:"), "text": "Octavia Buttler"}, nil},
		{"author-name", "write", map[string]any{"locator": djLabel("Name:"), "text": "Octavia E. Butler"}, nil},
		{"save-author", "click", map[string]any{"locator": save}, nil},
		{"add-book", "navigate", map[string]any{"url": base + "/admin/library/book/add/"}, nil},
		{"again", "navigate", map[string]any{"url": base + "/admin/library/book/add/"}, nil},
		{"title", "write", map[string]any{"locator": djLabel("Title:"), "text": "Kindred"}, nil},
		{"book-author", "select", map[string]any{"locator": djLabel("Author:"), "option": "Octavia E. Butler"}, nil},
		{"published", "write", map[string]any{"locator": djLabel("Published:"), "text": "1979-06-01"}, nil},
		{"genre", "select", map[string]any{"locator": djLabel("Genre:"), "option": "Fiction"}, nil},
		{"save-book", "click", map[string]any{"locator": save}, nil},
		{"added", "assert", map[string]any{"text": "was added successfully"}, nil},
		{"read", "read_text", map[string]any{"locator": map[string]any{"css": "ul.messagelist li"}}, nil},
		{"shot", "screenshot", nil, nil},
	} {
		r.call(t, st)
	}
	stopped := servertest.CallOK(t, r.c, "stop_recording", nil)
	assert.Check(t, is.Contains(stopped, "Stopped the recording: actions 2–"), stopped)
	// After the recording: not in the draft.
	servertest.CallOK(t, r.c, "navigate", map[string]any{"url": base + "/admin/library/author/"})
	assert.Check(t, is.Equal(r.app.Shell(t, djBookQuery("Kindred")), "Octavia E. Butler|1979-06-01|fiction\n"))

	res := servertest.Call(t, r.c, "draft_flow", map[string]any{"name": "add-book"})
	text := servertest.Text(res)
	assert.Assert(t, !res.IsError, text)
	t.Log(text)
	var d struct {
		Document flows.Flow `json:"document"`
		Notes    []string   `json:"notes"`
	}
	b, err := json.Marshal(res.StructuredContent)
	assert.NilError(t, err)
	assert.NilError(t, json.Unmarshal(b, &d))
	doc, err := json.Marshal(d.Document)
	assert.NilError(t, err)
	assert.Check(t, !strings.Contains(string(doc), r.app.Password), "a secret value in the draft")
	assert.Check(t, !strings.Contains(text, r.app.Password))
	for _, st := range d.Document.Steps {
		loc, _ := json.Marshal(st.Args["locator"])
		assert.Check(t, !generatedLooking.Match(loc), "a generated-looking id in the draft: %s", loc)
	}
	assert.Check(t, !strings.Contains(string(doc), "input[type=text]"), "the typed css path was kept:\n%s", doc)
	tools := map[string]int{}
	for _, st := range d.Document.Steps {
		tools[st.Tool]++
	}
	assert.Check(t, is.Equal(tools["outline"]+tools["screenshot"], 0), "looks kept: %v", tools)
	assert.Check(t, is.Equal(tools["navigate"], 3), "the repeated navigate or the one after the recording kept: %v", tools)
	assert.Check(t, is.Equal(tools["write"], 5), "the typo write kept: %v", tools)
	params := map[string]flows.Param{}
	for _, p := range d.Document.Parameters {
		params[p.Name] = p
		assert.Check(t, p.Type != "secret" || p.Default == nil)
	}
	assert.Check(t, is.Equal(params["base_url"].Default, base))
	byDefault := map[any]string{}
	for n, p := range params {
		byDefault[p.Default] = n
	}
	for _, v := range []string{"Octavia E. Butler", "Kindred", "1979-06-01", "Fiction", "admin"} {
		assert.Check(t, byDefault[v] != "", "no parameter proposed for %q: %v", v, params)
	}

	saved := servertest.CallOK(t, r.c, "save_flow", map[string]any{"document": json.RawMessage(doc)})
	assert.Check(t, is.Contains(saved, "add-book"))

	// Replay with other values in a fresh browser: the flow signs in
	// itself.
	run := map[string]any{"base_url": base}
	for v, n := range byDefault {
		switch v {
		case "Octavia E. Butler":
			run[n] = "N. K. Jemisin"
		case "Kindred":
			run[n] = "The Fifth Season"
		case "1979-06-01":
			run[n] = "2015-08-04"
		case "Fiction":
			run[n] = "Science"
		}
	}
	servertest.CallOK(t, r.c, "close_session", nil)
	servertest.CallOK(t, r.c, "open_session", nil)
	res = servertest.Call(t, r.c, "run_flow", map[string]any{"name": "add-book", "params": run})
	assert.Assert(t, !res.IsError, "run_flow %v: %s\nDjango's log:\n%s", run, servertest.Text(res), djTail(r.app.Output()))
	var rep flows.Report
	b, err = json.Marshal(res.StructuredContent)
	assert.NilError(t, err)
	assert.NilError(t, json.Unmarshal(b, &rep))
	assert.Check(t, rep.OK)
	assert.Check(t, is.Len(rep.Values, 1), "%v", rep.Values)
	for _, v := range rep.Values {
		assert.Check(t, is.Contains(fmt.Sprint(v), "The Fifth Season"), "the returned confirmation: %v", v)
	}
	for _, st := range rep.Steps {
		assert.Check(t, is.Equal(st.Status, "ok"), "step %d %s: %s", st.Step, st.Tool, st.Result)
	}
	assert.Check(t, is.Equal(r.app.Shell(t, djBookQuery("The Fifth Season")), "N. K. Jemisin|2015-08-04|science\n"))
	assert.Check(t, is.Equal(r.app.Shell(t, djBookQuery("Kindred")), "Octavia E. Butler|1979-06-01|fiction\n"), "the first book changed")
	t.Logf("replayed %d steps with one run_flow call: %d model round trips saved", len(rep.Steps), len(rep.Steps)-1)
	_ = mcp.TextContent{}
}
