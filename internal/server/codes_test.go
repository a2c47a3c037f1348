package server_test

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/skillsclient"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// keptFiles gives the local caller a download whose name has a space,
// before the server starts.
func keptFiles(c *server.Config) {
	store, err := files.Open(filepath.Join(c.DataDir, "files"))
	if err != nil {
		panic(err)
	}
	box, err := store.For("local")
	if err != nil {
		panic(err)
	}
	if _, err := box.Keep(files.Downloads, "a b.txt", []byte("kept\n")); err != nil {
		panic(err)
	}
}

// TestRefusalCodes: each kind of refusal a read or the Skills extension
// gives arrives as the JSON-RPC error its generation specifies, and its
// sentence names a call that works.
func TestRefusalCodes(t *testing.T) {
	each(t, keptFiles, func(t *testing.T, c conn, modern bool) {
		notFound := mcp.RESOURCE_NOT_FOUND
		if modern {
			notFound = mcp.INVALID_PARAMS
		}
		cases := []struct {
			name   string
			method string
			params map[string]any
			code   int
			says   []string
		}{
			{"read of a URI nothing answers", "resources/read", map[string]any{"uri": "knowledge://nope"}, notFound,
				[]string{"no resource at knowledge://nope", "Read knowledge://index", "knowledge://documents/{id} (e.g. knowledge://documents/"}},
			{"read of a document that does not exist", "resources/read", map[string]any{"uri": "knowledge://documents/nope"}, notFound,
				[]string{`id "nope" is not one of`, "Try knowledge://documents/"}},
			{"a miss while no flow is saved", "resources/read", map[string]any{"uri": "knowledge://flows/x"}, notFound,
				[]string{"flow://flows/{name} (you have no flows yet: save one with save_flow first)"}},
			{"read of a kept file that does not exist", "resources/read", map[string]any{"uri": "session://files/nope.png"}, notFound,
				[]string{`no file named "nope.png"`, `"a b.txt"`, "session://files"}},
			{"read of a flow that does not exist", "resources/read", map[string]any{"uri": "flow://flows/nope"}, notFound,
				[]string{"nope", "save_flow"}},
			{"read of a directory", "resources/read", map[string]any{"uri": "skill://selenium-flow/references"}, notFound,
				[]string{"is a directory, not a file: list it with resources/directory/read, or read one of its entries: skill://selenium-flow/references/FILES.md"}},
			{"skills/get of no skill", "skills/get", map[string]any{"uri": "skill://nope/SKILL.md"}, mcp.INVALID_PARAMS,
				[]string{"is not a skill this server serves", "skill://selenium-flow/SKILL.md", "Call skills/list"}},
			{"skills/get of a draft", "skills/get", map[string]any{"uri": "skill://grid-operations/SKILL.md"}, mcp.INVALID_PARAMS,
				[]string{"skills/list"}},
			{"skills/get of a file that is no SKILL.md", "skills/get", map[string]any{"uri": "skill://selenium-flow/references/FLOWS.md"}, mcp.INVALID_PARAMS,
				[]string{"is not the URI of a skill's SKILL.md", "skills/get with one of those URIs"}},
			{"skills/get without uri", "skills/get", nil, mcp.INVALID_PARAMS,
				[]string{"skills/get needs params.uri, a string", `{"uri": "skill://selenium-flow/SKILL.md"}`}},
			{"skills/get with a number", "skills/get", map[string]any{"uri": 42}, mcp.INVALID_PARAMS,
				[]string{"params.uri is 42, not a string", `{"uri": "skill://selenium-flow/SKILL.md"}`}},
			{"skills/list with a cursor it never gave", "skills/list", map[string]any{"cursor": "nope"}, mcp.INVALID_PARAMS,
				[]string{`cursor "nope" is not one skills/list gave`, "call skills/list without a cursor"}},
			{"directory read of a file", "resources/directory/read", map[string]any{"uri": "skill://selenium-flow/SKILL.md"}, mcp.INVALID_PARAMS,
				[]string{"is not a directory resource: read it with resources/read", "knowledge://documents, skill://selenium-flow"}},
			{"directory read of nothing", "resources/directory/read", map[string]any{"uri": "skill://nope"}, mcp.INVALID_PARAMS,
				[]string{"no directory at skill://nope", "call resources/directory/read with one of them"}},
			{"directory read without uri", "resources/directory/read", map[string]any{}, mcp.INVALID_PARAMS,
				[]string{`{"uri": "knowledge://documents"}`}},
			{"directory read with a cursor it never gave", "resources/directory/read", map[string]any{"uri": "knowledge://documents", "cursor": 7}, mcp.INVALID_PARAMS,
				[]string{"params.cursor is 7, not a string"}},
		}
		for _, tc := range cases {
			var out json.RawMessage
			err := c.Call(servertest.Context(t), tc.method, tc.params, &out)
			var rpc *skillsclient.Error
			if !assert.Check(t, errors.As(err, &rpc), "%s: not refused: %v %s", tc.name, err, out) {
				continue
			}
			assert.Check(t, is.Equal(rpc.Code, tc.code), "%s: %s", tc.name, rpc.Message)
			for _, w := range tc.says {
				assert.Check(t, is.Contains(rpc.Message, w), tc.name)
			}
		}

		// mcp-go's own client sees the same code on resources/read.
		req := mcp.ReadResourceRequest{}
		req.Params.URI = "knowledge://nope"
		_, err := c.Client.ReadResource(servertest.Context(t), req)
		want := mcp.ErrResourceNotFound
		if modern {
			want = mcp.ErrInvalidParams
		}
		assert.Check(t, errors.Is(err, want), "%v", err)
		assert.Check(t, is.Contains(err.Error(), "Read knowledge://index"))
	})
}

// TestKeptFileForms: a kept file reads by the URI session://files lists,
// with or without its folder, and by the value completion gives; the
// completion value is the form the listed URI uses.
func TestKeptFileForms(t *testing.T) {
	each(t, keptFiles, func(t *testing.T, c conn, _ bool) {
		listed, err := c.read(t, "session://files/downloads")
		assert.NilError(t, err)
		var folder struct {
			Files []struct{ Name, URI string }
		}
		assert.NilError(t, json.Unmarshal(listed, &folder))
		assert.Assert(t, is.Len(folder.Files, 1))
		assert.Check(t, is.Equal(folder.Files[0].URI, "session://files/a%20b.txt"))

		req := mcp.CompleteRequest{}
		req.Params.Ref = mcp.ResourceReference{Type: "ref/resource", URI: "session://files/{+name}"}
		req.Params.Argument = mcp.CompleteArgument{Name: "name", Value: "a b"}
		res, err := c.Client.Complete(servertest.Context(t), req)
		assert.NilError(t, err)
		assert.DeepEqual(t, res.Completion.Values, []string{"a%20b.txt"})

		for _, uri := range []string{
			folder.Files[0].URI,
			"session://files/" + res.Completion.Values[0],
			"session://files/downloads/a%20b.txt",
		} {
			body, err := c.read(t, uri)
			assert.Check(t, err == nil, "%s: %v", uri, err)
			assert.Check(t, is.Equal(string(body), "kept\n"), uri)
		}
	})
}

// TestExcludeUnknownTool: a name in FLOW_EXCLUDE_TOOLS that is no tool
// stops the server at start-up, naming the tools there are.
func TestExcludeUnknownTool(t *testing.T) {
	_, err := server.New(server.Config{DataDir: t.TempDir(), ExcludeTools: []string{"click", "clik"}})
	assert.ErrorContains(t, err, `FLOW_EXCLUDE_TOOLS names "clik", which this server does not have; the tools are: `)
	assert.ErrorContains(t, err, "click, close_session")
}

// TestReadResourceArgument: the mirror says an argument of the wrong type
// is not a string, and a missing one is required.
func TestReadResourceArgument(t *testing.T) {
	c := servertest.InProcess(t, servertest.New(t, server.Config{Resources: surface.Off}), servertest.Options{})
	res := servertest.Call(t, c, "read_resource", map[string]any{"uri": 42})
	assert.Check(t, res.IsError)
	assert.Check(t, is.Contains(servertest.Text(res), `The argument "uri" of read_resource is a number, not a string.`))
	assert.Check(t, !strings.Contains(servertest.Text(res), "required"))
	res = servertest.Call(t, c, "read_resource", map[string]any{})
	assert.Check(t, res.IsError)
	assert.Check(t, is.Contains(servertest.Text(res), `The argument "uri" is required.`))
}
