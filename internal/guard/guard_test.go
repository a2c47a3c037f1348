package guard_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/guard"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/skillsclient"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// apps declares the MCP Apps extension, so the client is offered the App tool.
var apps = mcp.ClientCapabilities{Extensions: map[string]any{surface.AppsExtension: map[string]any{}}}

// env keeps a guard run off the repository's data and off any browser: the
// Grid address is a closed loopback port, so a tool that reaches for a
// browser is refused at once.
func env(t testing.TB) []string {
	return []string{"FLOW_DATA_DIR=" + t.TempDir(), "SELENIUM_URL=http://127.0.0.1:9"}
}

// mirrorClient is the client offered the most: VS Code's clientInfo, so the
// mirror tools, and the Apps extension, so the App tool.
func mirrorClient(t testing.TB, tr servertest.Transport, extra ...string) *servertest.Client {
	return servertest.Connect(t, tr, servertest.Options{
		Info:         mcp.Implementation{Name: surface.NoResourceReaders[0], Version: "1.99.0"},
		Capabilities: apps,
		Env:          append(env(t), extra...),
	})
}

// The tool families an operator may leave out with FLOW_EXCLUDE_TOOLS.
var (
	flowTools    = "save_flow,run_flow,delete_flow"
	browserTools = "open_session,close_session,navigate,outline,click,write,press_key,select,wait_for,assert,screenshot,print,upload_file,hover,drag,scroll,read_text,execute_script,resize_window,list_windows,switch_window,close_window,switch_frame,answer_dialog,save_site_data"
)

// TestGuard reads everything the running server gives an agent, over real
// clients — instructions, tools, resources, prompts, the Skills extension's
// skills and directories, refusals — and fails on retired vocabulary and
// on any URI, tool or prompt name the server does not serve. It runs with
// every tool, and with the flow tools and the browser tools excluded:
// then what the server composes names none of them, and the pages it
// serves as written may name only what the index says is unavailable.
func TestGuard(t *testing.T) {
	for name, exclude := range map[string]string{"all tools": "", "flow tools excluded": flowTools, "browser tools excluded": browserTools} {
		t.Run(name, func(t *testing.T) {
			extra := []string{"FLOW_EXCLUDE_TOOLS=" + exclude}
			reader := servertest.Connect(t, servertest.Stdio, servertest.Options{
				Info:         mcp.Implementation{Name: "guard-reader", Version: "1"},
				Capabilities: apps,
				Env:          append(env(t), extra...),
			})
			mirror := mirrorClient(t, servertest.Stdio, extra...)
			c, err := guard.Gather(context.Background(), guard.Sources{
				Reader: reader, ReaderInit: reader.Init,
				Mirror: mirror, MirrorInit: mirror.Init,
				Skills: &skillsclient.Conn{Client: reader.Client, Info: mcp.Implementation{Name: "guard-reader", Version: "1"}, Capabilities: apps},
			})
			assert.NilError(t, err)
			assert.Check(t, reader.Init.Instructions != mirror.Init.Instructions, "a resource-reading client and a mirror client got the same instructions")
			for _, s := range c.Skipped {
				t.Logf("not called: %s", s)
			}
			t.Logf("checked %d texts against %d resources, %d templates, %d tools, %d prompts; %d tools excluded",
				len(c.Texts), len(c.Served.Resources), len(c.Served.Templates), len(c.Served.Tools), len(c.Served.Prompts), len(c.Served.Excluded))
			if exclude != "" {
				want := strings.Split(exclude, ",")
				if exclude == browserTools {
					// No step is left for a flow, so the flow tools go too.
					want = append(want, strings.Split(flowTools, ",")...)
				}
				assert.Check(t, is.DeepEqual(c.Served.Excluded, sorted(want)), "the index does not say which tools are excluded")
				for _, n := range want {
					assert.Check(t, !slices.Contains(c.Served.Tools, n), "%s is excluded but listed", n)
				}
			}
			assert.Check(t, slices.ContainsFunc(c.Texts, func(tx guard.Text) bool {
				return strings.HasPrefix(tx.Where, "skill file skill://selenium-flow/references/")
			}),
				"the skill's references were not read through the extension")
			findings, err := guard.Check(c.Texts, c.Served)
			assert.NilError(t, err)
			for _, f := range c.Problems {
				t.Error(f)
			}
			for _, line := range guard.Summarize(findings) {
				t.Error(line)
			}
		})
	}
}

func sorted(s []string) []string { return slices.Sorted(slices.Values(s)) }

// TestToolDescriptionBudget: every tool description, as the running server
// lists it to the client offered the most, is 40–120 words.
func TestToolDescriptionBudget(t *testing.T) {
	c := mirrorClient(t, servertest.Stdio)
	res, err := c.ListTools(context.Background(), mcp.ListToolsRequest{})
	assert.NilError(t, err)
	total := 0
	for _, tl := range res.Tools {
		n := guard.Words(tl.Description)
		total += n
		if n < guard.MinWords || n > guard.MaxWords {
			t.Errorf("%s: description is %d words; the budget is %d–%d", tl.Name, n, guard.MinWords, guard.MaxWords)
		}
	}
	t.Logf("%d tools, %d description words", len(res.Tools), total)
}

// BenchmarkToolListCost reports what tools/list costs an agent's context,
// for the client offered the most: the tools, their description words, and
// the whole tools/list JSON in bytes and in tokens (≈ bytes/4).
func BenchmarkToolListCost(b *testing.B) {
	c := mirrorClient(b, servertest.Stdio)
	var res *mcp.ListToolsResult
	for b.Loop() {
		var err error
		if res, err = c.ListTools(context.Background(), mcp.ListToolsRequest{}); err != nil {
			b.Fatal(err)
		}
	}
	raw, err := json.Marshal(res)
	if err != nil {
		b.Fatal(err)
	}
	words := 0
	for _, tl := range res.Tools {
		words += guard.Words(tl.Description)
	}
	b.ReportMetric(float64(len(res.Tools)), "tools")
	b.ReportMetric(float64(words), "desc-words")
	b.ReportMetric(float64(len(raw)), "list-bytes")
	b.ReportMetric(float64(len(raw))/4, "list-tokens")
}

func TestRetiredCompiles(t *testing.T) {
	terms, err := guard.Retired()
	assert.NilError(t, err)
	assert.Assert(t, len(terms) > 0)
	for _, term := range terms {
		assert.Check(t, term.Why != "", "retired pattern %s says not why", term.Pattern)
	}
}

func TestCheck(t *testing.T) {
	served := guard.Served{
		Resources: []string{"knowledge://index", "flow://schema", "session://files/screenshots"},
		Templates: []string{"knowledge://documents/{id}", "skill://{id}/references/{+file}", "flow://flows/{name}"},
		Tools:     []string{"open_session", "read_resource", "write", "outline", "show"},
		Prompts:   []string{"repair_flow"},
	}
	tests := []struct {
		name, body string
		want       []string // substrings, one per finding; none for a clean text
	}{
		{name: "clean", body: "Read knowledge://index first, then knowledge://documents/secrets and [flow://schema](flow://schema)."},
		{name: "template literal", body: "Each document is knowledge://documents/{id}; a flow is flow://flows/<name>."},
		{name: "reserved expansion", body: "skill://selenium-flow/references/deep/FILES.md"},
		{name: "unknown uri", body: "Read session://current.", want: []string{"session://current matches no"}},
		{name: "slash in a simple variable", body: "flow://flows/a/b", want: []string{"flow://flows/a/b matches no"}},
		{name: "not a scheme of ours", body: "See https://example.com and selenium-flow://x."},
		{name: "retired tool prefix", body: "Call selenium_click.", want: []string{`retired term "selenium_c"`}},
		{name: "setting is not retired", body: "Set SELENIUM_URL."},
		{name: "retired word", body: "Take a Snapshot of the page.", want: []string{`retired term "Snapshot"`}},
		{name: "retired scheme", body: "Open resource://x.", want: []string{`retired term "resource://"`}},
		{name: "developer path", body: "saved to /home/ada/shots/x.png", want: []string{"retired term"}},
		{name: "backticked tool", body: "Call `open_session`, then `close_session`.", want: []string{"close_session reads as a tool or prompt"}},
		{name: "flow parameter", body: "Put the root in `base_url` and use {{base_url}}."},
		{name: "call form", body: "Use write(secret=name) or read_resource(uri); not type_text(x).", want: []string{"type_text reads as"}},
		{name: "prose call that is no tool", body: "Open the session(s) and file(s)."},
		{name: "xpath", body: `{"xpath": "//tr[td[normalize-space()='x']][last()]/text()"}`},
		{name: "member call", body: "document.querySelector() and el.click()"},
		{name: "named tool", body: "the `show` tool and the `navigate` tool", want: []string{"navigate is named as a tool"}},
		{name: "named prompt", body: "use the `repair_flow` prompt or the build_flow prompt", want: []string{"build_flow is named as a prompt"}},
		{name: "prompt is not a tool", body: "the `repair_flow` tool", want: []string{"repair_flow is named as a tool"}},
		{name: "flow step", body: `{"tool": "outline"}, {"tool": "hover"}`, want: []string{"hover is named as a tool"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := guard.Check([]guard.Text{{Where: tc.name, Body: tc.body}}, served)
			assert.NilError(t, err)
			var lines []string
			for _, f := range got {
				lines = append(lines, f.String())
			}
			assert.Assert(t, is.Len(got, len(tc.want)), "findings:\n%s", strings.Join(lines, "\n"))
			for i, w := range tc.want {
				assert.Check(t, is.Contains(lines[i], w))
			}
		})
	}
}
