package eval_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/eval"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// step is one scripted model reply: tool calls, or the final answer.
type step struct {
	calls  []call
	answer string
}

type call struct {
	name string
	args map[string]any
}

func calls(cs ...call) step   { return step{calls: cs} }
func answer(text string) step { return step{answer: text} }
func read(uri string) call    { return call{eval.ReadResourceTool, map[string]any{"uri": uri}} }
func tool(name string, kv ...any) call {
	args := map[string]any{}
	for i := 0; i+1 < len(kv); i += 2 {
		args[kv[i].(string)] = kv[i+1]
	}
	return call{name, args}
}

// scripted is a chat-completions endpoint that replies from a script: the
// steps for each attempt, by the attempt's number (from 1) and the turn
// within it. It counts a request with no assistant message as a new attempt.
type scripted struct {
	t       *testing.T
	script  func(attempt int) []step
	mu      sync.Mutex
	attempt int
	seen    [][]eval.Message
	tools   [][]string
}

func startModel(t *testing.T, script func(attempt int) []step) (*scripted, *eval.Model) {
	s := &scripted{t: t, script: script}
	hs := httptest.NewServer(s)
	t.Cleanup(hs.Close)
	return s, &eval.Model{URL: hs.URL + "/v1", Name: "scripted"}
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions" {
		http.Error(w, "not here", http.StatusNotFound)
		return
	}
	var req struct {
		Model    string          `json:"model"`
		Messages []eval.Message  `json:"messages"`
		Tools    []eval.ToolSpec `json:"tools"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	turn := 0
	for _, m := range req.Messages {
		if m.Role == "assistant" {
			turn++
		}
	}
	s.mu.Lock()
	if turn == 0 {
		s.attempt++
	}
	attempt := s.attempt
	s.seen = append(s.seen, req.Messages)
	var names []string
	for _, tl := range req.Tools {
		names = append(names, tl.Function.Name)
	}
	s.tools = append(s.tools, names)
	s.mu.Unlock()

	steps := s.script(attempt)
	st := step{answer: "I have nothing more to say."}
	if turn < len(steps) {
		st = steps[turn]
	}
	msg := map[string]any{"role": "assistant", "content": nil}
	if st.calls == nil {
		msg["content"] = st.answer
	} else {
		var tcs []map[string]any
		for i, c := range st.calls {
			args, _ := json.Marshal(c.args)
			tcs = append(tcs, map[string]any{"id": "call_" + string(rune('a'+i)), "type": "function",
				"function": map[string]any{"name": c.name, "arguments": string(args)}})
		}
		msg["tool_calls"] = tcs
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"choices": []any{map[string]any{"message": msg, "finish_reason": "stop"}}})
}

// always gives every attempt the same steps.
func always(steps ...step) func(int) []step { return func(int) []step { return steps } }

// toolReplies are the texts the host gave the model, in order.
func toolReplies(a eval.Attempt) []string {
	var out []string
	for _, m := range a.Transcript {
		if m.Role == "tool" {
			out = append(out, m.Content)
		}
	}
	return out
}

const (
	bigHead = "HEAD-OF-THE-BIG-DOCUMENT "
	bigMid  = " MIDDLE-OF-THE-BIG-DOCUMENT "
	bigTail = " TAIL-OF-THE-BIG-DOCUMENT"
)

// bigText is 30 KB of text whose two-byte runes straddle the cut points.
var bigText = bigHead + strings.Repeat("é", 7500) + bigMid + strings.Repeat("é", 7500) + bigTail

var pngBytes = []byte("\x89PNG\r\n\x1a\nnot really an image")

// fake is an MCP server with what the harness must handle: a read-only and
// a writing tool, more resources than one page holds, a text over 20 KB, a
// binary, and ui:// resources and templates that a model must never see.
func fake(t *testing.T) (*mcpserver.MCPServer, *atomic.Int32) {
	s := mcpserver.NewMCPServer("fake", "1",
		mcpserver.WithResourceCapabilities(false, false),
		mcpserver.WithToolCapabilities(false),
		mcpserver.WithPaginationLimit(2),
		mcpserver.WithInstructions("Read knowledge://a first."),
	)
	writes := &atomic.Int32{}
	s.AddTool(mcp.NewTool("lookup", mcp.WithDescription("Look a word up."), mcp.WithReadOnlyHintAnnotation(true), mcp.WithString("q")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("found " + req.GetString("q", "")), nil
		})
	s.AddTool(mcp.NewTool("save_note", mcp.WithDescription("Save a note."), mcp.WithString("text")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			writes.Add(1)
			return mcp.NewToolResultText("saved"), nil
		})
	s.AddTool(mcp.NewTool("refuse", mcp.WithDescription("Always refuses."), mcp.WithReadOnlyHintAnnotation(true)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("Nothing to refuse with; pass q."), nil
		})
	text := func(uri, body, mime string) func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
		return func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextResourceContents{URI: uri, MIMEType: mime, Text: body}}, nil
		}
	}
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		uri := "knowledge://" + id
		s.AddResource(mcp.NewResource(uri, "doc-"+id, mcp.WithResourceDescription("document "+id)), text(uri, "the text of "+id, "text/markdown"))
	}
	s.AddResource(mcp.NewResource("knowledge://big", "big"), text("knowledge://big", bigText, "text/plain"))
	s.AddResource(mcp.NewResource("knowledge://logo.png", "logo", mcp.WithMIMEType("image/png")),
		func(context.Context, mcp.ReadResourceRequest) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.BlobResourceContents{URI: "knowledge://logo.png", MIMEType: "image/png", Blob: base64.StdEncoding.EncodeToString(pngBytes)}}, nil
		})
	s.AddResource(mcp.NewResource("ui://app/shell", "shell", mcp.WithMIMEType("text/html;profile=mcp-app")), text("ui://app/shell", "<html>", "text/html"))
	s.AddResourceTemplate(mcp.NewResourceTemplate("knowledge://documents/{id}", "document"), text("knowledge://documents/x", "x", "text/markdown"))
	s.AddResourceTemplate(mcp.NewResourceTemplate("ui://app/{view}", "view"), text("ui://app/x", "<html>", "text/html"))
	return s, writes
}

func connect(t *testing.T, s *mcpserver.MCPServer) *mcpclient.Client {
	c, err := mcpclient.NewInProcessClient(s)
	assert.NilError(t, err)
	t.Cleanup(func() { _ = c.Close() })
	ctx := servertest.Context(t)
	assert.NilError(t, c.Start(ctx))
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = eval.ClientInfo
	_, err = c.Initialize(ctx, req)
	assert.NilError(t, err)
	return c
}

func host(t *testing.T, conn eval.Conn, resources bool) *eval.Host {
	h, err := eval.NewHost(context.Background(), conn, resources, t.TempDir())
	assert.NilError(t, err)
	return h
}

// run asks the tasks of the YAML document with the scripted model over the fake server.
func run(t *testing.T, conn eval.Conn, resources bool, repeats int, script func(int) []step, tasksYAML string) ([]eval.Result, *scripted) {
	t.Helper()
	tasks, err := eval.ParseTasks([]byte(tasksYAML))
	assert.NilError(t, err)
	s, model := startModel(t, script)
	rs, err := eval.Run(context.Background(), eval.Config{Model: model, Host: host(t, conn, resources), Repeats: repeats}, tasks)
	assert.NilError(t, err)
	return rs, s
}

func TestScoring(t *testing.T) {
	srv, _ := fake(t)
	conn := connect(t, srv)
	tests := []struct {
		name   string
		expect string
		steps  []step
		pass   bool
		why    string
	}{
		{"substring", "{substring: Secret}", []step{answer("Type it with a secret name.")}, true, ""},
		{"substring missing", "{substring: secret}", []step{answer("Type it.")}, false, `does not contain "secret"`},
		{"regex", `{regex: '\b15 minutes\b'}`, []step{answer("After 15 minutes.")}, true, ""},
		{"regex missing", `{regex: '\b15 minutes\b'}`, []step{answer("After 150 minutes.")}, false, "does not match"},
		{"tool call", "{tool: lookup}", []step{calls(tool("lookup", "q", "x")), answer("done")}, true, ""},
		{"tool call with args", "{tool: lookup, args: {q: flows}}", []step{calls(tool("lookup", "q", "flows")), answer("done")}, true, ""},
		{"tool call with other args", "{tool: lookup, args: {q: flows}}", []step{calls(tool("lookup", "q", "secrets")), answer("done")}, false, "no call of lookup with"},
		{"no tool call", "{tool: lookup}", []step{answer("done")}, false, "no call of lookup"},
		{"read", "{read: 'knowledge://a'}", []step{calls(read("knowledge://a")), answer("done")}, true, ""},
		{"read of another", "{read: 'knowledge://a'}", []step{calls(read("knowledge://b")), answer("done")}, false, "no read of knowledge://a"},
		{"every expectation", "{substring: done, read: 'knowledge://a'}", []step{calls(read("knowledge://a")), answer("not yet")}, false, `does not contain "done"`},
		{"no answer in the turns", "{substring: done}", []step{calls(tool("lookup")), calls(tool("lookup")), calls(tool("lookup"))}, false, "no answer in text after 2 turns"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rs, _ := run(t, conn, true, 1, always(tc.steps...), "tasks:\n- id: x\n  ask: How?\n  max_turns: 2\n  expect: "+tc.expect+"\n")
			assert.Assert(t, is.Len(rs, 1))
			a := rs[0].Attempts[0]
			assert.Check(t, is.Equal(a.Passed, tc.pass), a.Why)
			assert.Check(t, is.Contains(a.Why, tc.why))
		})
	}
}

// TestRepeats: a task passes only if it passes every repeat.
func TestRepeats(t *testing.T) {
	srv, _ := fake(t)
	conn := connect(t, srv)
	tasks := "tasks:\n- {id: steady, ask: 'How?', expect: {substring: yes}}\n- {id: flaky, ask: 'Why?', expect: {substring: yes}}\n"
	// Attempts are numbered across the run: steady is 1–3, flaky 4–6, and
	// flaky's second repeat (attempt 5) answers wrong.
	rs, _ := run(t, conn, true, 3, func(n int) []step {
		if n == 5 {
			return []step{answer("no")}
		}
		return []step{answer("yes")}
	}, tasks)
	assert.Assert(t, is.Len(rs, 2))
	assert.Check(t, rs[0].Passed())
	assert.Check(t, !rs[1].Passed())
	assert.Check(t, is.Equal(rs[1].Passes(), 2))
	assert.Check(t, !eval.AllPassed(rs))

	var out bytes.Buffer
	eval.Table(&out, rs)
	assert.Check(t, regexp.MustCompile(`(?m)^steady\s+3/3\s+pass\s*$`).MatchString(out.String()), out.String())
	assert.Check(t, regexp.MustCompile(`(?m)^flaky\s+2/3\s+FAIL\s+repeat 2: the answer does not contain "yes"$`).MatchString(out.String()), out.String())
	assert.Check(t, is.Contains(out.String(), "1 of 2 tasks passed every repeat"))
}

// TestWriteCallFails: a call to a tool the server does not annotate
// readOnlyHint fails the attempt, and is not made, unless the task allows it.
func TestWriteCallFails(t *testing.T) {
	srv, writes := fake(t)
	conn := connect(t, srv)
	script := always(calls(tool("save_note", "text", "hi")), answer("Saved it, yes."))
	rs, _ := run(t, conn, true, 1, script, "tasks:\n- {id: w, ask: Note this., expect: {substring: yes}}\n")
	a := rs[0].Attempts[0]
	assert.Check(t, !a.Passed)
	assert.Check(t, is.Contains(a.Why, "called save_note, which is not read-only"))
	assert.Check(t, is.Equal(writes.Load(), int32(0)), "the write was made")

	rs, _ = run(t, conn, true, 1, script, "tasks:\n- {id: w, ask: Note this., allow_writes: true, expect: {substring: yes, tool: save_note}}\n")
	assert.Check(t, rs[0].Passed(), rs[0].Attempts[0].Why)
	assert.Check(t, is.Equal(writes.Load(), int32(1)))

	// Read-only tools, refusals included, are fine.
	rs, _ = run(t, conn, true, 1, always(calls(tool("lookup", "q", "x"), tool("refuse")), answer("yes")), "tasks:\n- {id: r, ask: Look., expect: {substring: yes}}\n")
	assert.Check(t, rs[0].Passed(), rs[0].Attempts[0].Why)
	replies := toolReplies(rs[0].Attempts[0])
	assert.Check(t, is.DeepEqual(replies, []string{"found x", "The call was refused: Nothing to refuse with; pass q."}))
}

// TestCutting: text over 20 KB keeps its head and tail, loses its middle,
// and names a file only its owner reads that holds the whole text.
func TestCutting(t *testing.T) {
	srv, _ := fake(t)
	rs, _ := run(t, connect(t, srv), true, 1, always(calls(read("knowledge://big")), answer("ok")), "tasks:\n- {id: big, ask: Read it., expect: {read: 'knowledge://big'}}\n")
	assert.Check(t, rs[0].Passed(), rs[0].Attempts[0].Why)
	got := toolReplies(rs[0].Attempts[0])[0]
	assert.Check(t, len(got) < eval.CutAt+200, "%d bytes reached the model", len(got))
	assert.Check(t, strings.HasPrefix(got, bigHead))
	assert.Check(t, strings.HasSuffix(got, bigTail))
	assert.Check(t, !strings.Contains(got, bigMid), "the middle was not cut")
	assert.Check(t, utf8.ValidString(got), "the cut split a rune")
	m := regexp.MustCompile(`\[(\d+) bytes cut from the middle; the full text is saved at (\S+)\]`).FindStringSubmatch(got)
	assert.Assert(t, m != nil, "the result names no file: %s", got[eval.CutAt/2-100:eval.CutAt/2+300])
	info, err := os.Stat(m[2])
	assert.NilError(t, err)
	assert.Check(t, is.Equal(info.Mode().Perm(), os.FileMode(0o600)))
	full, err := os.ReadFile(m[2])
	assert.NilError(t, err)
	assert.Check(t, string(full) == bigText, "the saved file is not the full text")
}

// TestBinarySaved: binary content is saved to an owner-only file the
// result names, never handed to the model as base64.
func TestBinarySaved(t *testing.T) {
	srv, _ := fake(t)
	rs, _ := run(t, connect(t, srv), true, 1, always(calls(read("knowledge://logo.png")), answer("ok")), "tasks:\n- {id: png, ask: Show it., expect: {substring: ok}}\n")
	got := toolReplies(rs[0].Attempts[0])[0]
	m := regexp.MustCompile(`is binary \(image/png, (\d+) bytes\); it is saved at (\S+)$`).FindStringSubmatch(got)
	assert.Assert(t, m != nil, got)
	assert.Check(t, !strings.Contains(got, base64.StdEncoding.EncodeToString(pngBytes)))
	info, err := os.Stat(m[2])
	assert.NilError(t, err)
	assert.Check(t, is.Equal(info.Mode().Perm(), os.FileMode(0o600)))
	b, _ := os.ReadFile(m[2])
	assert.Check(t, bytes.Equal(b, pngBytes))
}

// looping repeats a cursor: after the first page, every page says the
// next one is at the cursor it was asked for.
type looping struct{ eval.Conn }

func (l looping) ListResourcesByPage(ctx context.Context, req mcp.ListResourcesRequest) (*mcp.ListResourcesResult, error) {
	if req.Params.Cursor == "again" {
		res := &mcp.ListResourcesResult{Resources: []mcp.Resource{mcp.NewResource("knowledge://loop", "loop")}}
		res.NextCursor = "again"
		return res, nil
	}
	res, err := l.Conn.ListResourcesByPage(ctx, req)
	if res != nil {
		res.NextCursor = "again"
	}
	return res, err
}

// TestPaging: the host follows the server's cursors to the last page, and
// stops with an error when the server gives a cursor again.
func TestPaging(t *testing.T) {
	srv, _ := fake(t)
	conn := connect(t, srv)
	rs, _ := run(t, conn, true, 1, always(calls(call{name: eval.ListResourcesTool}, call{name: eval.ListTemplatesTool}), answer("ok")), "tasks:\n- {id: list, ask: 'What is there?', expect: {substring: ok}}\n")
	replies := toolReplies(rs[0].Attempts[0])
	var listed struct {
		Resources []struct{ URI string } `json:"resources"`
	}
	assert.NilError(t, json.Unmarshal([]byte(replies[0]), &listed))
	var uris []string
	for _, r := range listed.Resources {
		uris = append(uris, r.URI)
	}
	// Eight resources at two a page: four pages followed; ui:// left out.
	assert.Check(t, is.Len(uris, 7), "%v", uris)
	for _, want := range []string{"knowledge://a", "knowledge://e", "knowledge://big", "knowledge://logo.png"} {
		assert.Check(t, is.Contains(uris, want))
	}
	assert.Check(t, !strings.Contains(replies[0], "ui://"), replies[0])
	assert.Check(t, is.Contains(replies[1], "knowledge://documents/{id}"))
	assert.Check(t, !strings.Contains(replies[1], "ui://"), replies[1])

	rs, _ = run(t, looping{conn}, true, 1, always(calls(call{name: eval.ListResourcesTool}), answer("ok")), "tasks:\n- {id: loop, ask: 'What is there?', expect: {substring: ok}}\n")
	a := rs[0].Attempts[0]
	assert.Check(t, is.Contains(toolReplies(a)[0], `Error: the server gave cursor "again" again after 2 page(s)`))
	assert.Check(t, is.Contains(a.Calls[0].Error, "again"))
}

// TestUILeftOut: ui:// resources are neither listed nor readable, and the
// host's resource tools are offered only when resources are on.
func TestUILeftOut(t *testing.T) {
	srv, _ := fake(t)
	conn := connect(t, srv)
	rs, model := run(t, conn, true, 1, always(calls(read("ui://app/shell")), answer("ok")), "tasks:\n- {id: ui, ask: Draw it., expect: {substring: ok}}\n")
	assert.Check(t, is.Contains(toolReplies(rs[0].Attempts[0])[0], "Error: ui://app/shell is an app shell"))
	assert.Check(t, is.DeepEqual(model.tools[0], []string{"lookup", "refuse", "save_note", eval.ListResourcesTool, eval.ListTemplatesTool, eval.ReadResourceTool}))

	_, model = run(t, conn, false, 1, always(answer("ok")), "tasks:\n- {id: off, ask: Hi., expect: {substring: ok}}\n")
	assert.Check(t, is.DeepEqual(model.tools[0], []string{"lookup", "refuse", "save_note"}))
	// Without resources on, the host's read tool is not offered, so a call
	// of it is refused to the model rather than made.
	rs, _ = run(t, conn, false, 1, always(calls(read("knowledge://a")), answer("ok")), "tasks:\n- {id: off, ask: Hi., expect: {read: 'knowledge://a'}}\n")
	assert.Check(t, !rs[0].Passed())
	assert.Check(t, is.Contains(toolReplies(rs[0].Attempts[0])[0], "not offered"))
}

func TestSystemMessageCarriesInstructions(t *testing.T) {
	srv, _ := fake(t)
	tasks, err := eval.ParseTasks([]byte("tasks:\n- {id: x, ask: 'Where do I start?', expect: {substring: a}}\n"))
	assert.NilError(t, err)
	s, model := startModel(t, always(answer("a")))
	_, err = eval.Run(context.Background(), eval.Config{Model: model, Host: host(t, connect(t, srv), true), Instructions: "Read knowledge://a first."}, tasks)
	assert.NilError(t, err)
	first := s.seen[0]
	assert.Check(t, is.Equal(first[0].Role, "system"))
	assert.Check(t, is.Contains(first[0].Content, "Read knowledge://a first."))
	assert.Check(t, is.DeepEqual(first[1], eval.Message{Role: "user", Content: "Where do I start?"}))
}

func TestTaskNamingAToolIsRefused(t *testing.T) {
	srv, _ := fake(t)
	_, model := startModel(t, always(answer("a")))
	h := host(t, connect(t, srv), true)
	for _, ask := range []string{"Call save_note with hi.", "Use `lookup` for it.", "Try lookup(q) first."} {
		tasks, err := eval.ParseTasks([]byte("tasks:\n- id: x\n  ask: " + ask + "\n  expect: {substring: a}\n"))
		assert.NilError(t, err)
		_, err = eval.Run(context.Background(), eval.Config{Model: model, Host: h}, tasks)
		assert.Check(t, is.ErrorContains(err, "names the tool"), ask)
	}
}

// TestMain: no server binary or goroutine outlives the tests, and the
// binary's build folder is removed (see servertest.Main).
func TestMain(m *testing.M) { servertest.Main(m) }

func TestParseTasks(t *testing.T) {
	tests := []struct{ name, doc, err string }{
		{"empty", "tasks: []\n", "no tasks"},
		{"no id", "tasks:\n- {ask: a, expect: {substring: a}}\n", "has no id"},
		{"twice", "tasks:\n- {id: a, ask: a, expect: {substring: a}}\n- {id: a, ask: b, expect: {substring: b}}\n", "used twice"},
		{"no ask", "tasks:\n- {id: a, expect: {substring: a}}\n", "nothing to ask"},
		{"no expectation", "tasks:\n- {id: a, ask: a}\n", "expects nothing"},
		{"args without tool", "tasks:\n- {id: a, ask: a, expect: {args: {q: x}}}\n", "args without the tool"},
		{"bad regex", "tasks:\n- {id: a, ask: a, expect: {regex: '('}}\n", "regex"},
		{"unknown field", "tasks:\n- {id: a, ask: a, expect: {subtring: a}}\n", "expected shape"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := eval.ParseTasks([]byte(tc.doc))
			assert.Check(t, is.ErrorContains(err, tc.err))
		})
	}
	ts, err := eval.DefaultTasks()
	assert.NilError(t, err)
	assert.Check(t, len(ts) >= 8)
}

// perfect answers every shipped task as a model that knew the knowledge
// base would, reading flow://schema with whichever read tool it has.
func perfect(readTool string) func(int) []step {
	return always(
		calls(call{readTool, map[string]any{"uri": "flow://schema"}}),
		answer("Type it with write and a secret name; wait_for the button; set SELENIUM_URL; the idle timeout is 15 minutes; "+
			"use a role locator; call read_resource or start with --resources off; use the repair_flow prompt; files are in session://files."),
	)
}

// TestMountedServer mounts the real binary alone over stdio, both ways,
// and runs the shipped tasks with a scripted model: the host offers the
// right tools for each way, a read of flow://schema is scored through
// either read tool, and no shipped task names a tool the server offers.
func TestMountedServer(t *testing.T) {
	for _, tc := range []struct {
		resources string
		readTool  string
		offered   string
		hidden    string
	}{
		{"on", eval.ReadResourceTool, eval.ListResourcesTool, "read_resource"},
		{"off", "read_resource", "read_resource", eval.ReadResourceTool},
	} {
		t.Run(tc.resources, func(t *testing.T) {
			ctx := servertest.Context(t)
			m, err := eval.Mount(ctx, servertest.Binary(t), tc.resources, []string{"FLOW_DATA_DIR=" + t.TempDir()}, nil)
			assert.NilError(t, err)
			defer m.Close()
			h, err := eval.NewHost(ctx, m.Client, tc.resources == "on", t.TempDir())
			assert.NilError(t, err)
			assert.Check(t, is.Contains(h.ToolNames(), tc.offered))
			assert.Check(t, !contains(h.ToolNames(), tc.hidden), "%v", h.ToolNames())

			tasks, err := eval.DefaultTasks()
			assert.NilError(t, err)
			s, model := startModel(t, perfect(tc.readTool))
			rs, err := eval.Run(ctx, eval.Config{Model: model, Host: h, Instructions: m.Init.Instructions}, tasks)
			assert.NilError(t, err)
			for _, r := range rs {
				assert.Check(t, r.Passed(), "%s: %s", r.Task.ID, r.Attempts[0].Why)
			}
			schema := toolReplies(rs[1].Attempts[0])[0]
			assert.Check(t, is.Contains(schema, `"$id": "flow://schema"`))
			assert.Check(t, is.Contains(s.seen[0][0].Content, "knowledge://index"))
		})
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// TestEvalCommand runs `selenium-flow eval` itself against the scripted
// model: exit 0 and a table when every task passes every repeat, and a
// failing exit when one does not.
func TestEvalCommand(t *testing.T) {
	dir := t.TempDir()
	env := []string{"FLOW_DATA_DIR=" + dir, "TMPDIR=" + dir}
	_, good := startModel(t, perfect(eval.ReadResourceTool))
	cmd := servertest.Command(t, env, "eval", "--model", good.URL, "--model-name", "scripted", "--repeats", "2")
	out, err := cmd.CombinedOutput()
	assert.NilError(t, err, "%s", out)
	assert.Check(t, regexp.MustCompile(`(?m)^flow-document-shape\s+2/2\s+pass`).Match(out), "%s", out)
	assert.Check(t, is.Contains(string(out), "9 of 9 tasks passed every repeat"))

	tasks := dir + "/tasks.yaml"
	assert.NilError(t, os.WriteFile(tasks, []byte("tasks:\n- {id: never, ask: Say hi., expect: {substring: goodbye}}\n"), 0o600))
	_, bad := startModel(t, always(answer("hi")))
	cmd = servertest.Command(t, env, "eval", "--model", bad.URL, "--repeats", "1", tasks)
	out, err = cmd.CombinedOutput()
	var exit *exec.ExitError
	assert.Check(t, errors.As(err, &exit) && exit.ExitCode() != 0, "%v: %s", err, out)
	assert.Check(t, regexp.MustCompile(`(?m)^never\s+0/1\s+FAIL\s+repeat 1: the answer does not contain "goodbye"$`).Match(out), "%s", out)
}
