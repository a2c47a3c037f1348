package tools_test

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestFlowTypedParameters, over Streamable HTTP and in process: save_flow
// refuses a parameter that does not fit where a step puts it, with the
// JSON path; run_flow refuses a value that does not fit its parameter
// before any step acts (the browser stays where it was); an integer typed
// into a text field is typed as its digits; a step marked return brings
// its value back in the structured report; a failed step's report shows
// the page's address and the controls most like what it looked for; and
// time_limit stops a long wait_for.
func TestFlowTypedParameters(t *testing.T) {
	servertest.NeedBrowser(t)
	base := fixtures.Serve(t)
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, servertest.New(t, server.Config{}), tr, servertest.Options{})
			flowOK(t, c, "open_session", map[string]any{"url": base + "/article"})

			// At save: a string parameter where wait_for takes seconds, a
			// secret parameter typed as text.
			servertest.CallRefused(t, c, "save_flow", map[string]any{"document": map[string]any{
				"name":       "bad-wait",
				"parameters": []any{map[string]any{"name": "wait", "default": "5"}},
				"steps":      []any{step("wait_for", "", map[string]any{"text": "x", "timeout": "{{wait}}"})},
			}}, "at /steps/0/args/timeout:", `declare it "type": "number"`)
			servertest.CallRefused(t, c, "save_flow", map[string]any{"document": map[string]any{
				"name":       "bad-secret",
				"parameters": []any{map[string]any{"name": "pw", "type": "secret"}},
				"steps":      []any{step("write", "", map[string]any{"locator": label("Email"), "text": "{{pw}}"})},
			}}, "at /steps/0/args/text:", "secret parameter")
			servertest.CallRefused(t, c, "run_flow", map[string]any{"name": "bad-wait"}, "no flow named")

			flowOK(t, c, "save_flow", map[string]any{"document": map[string]any{
				"name": "code",
				"parameters": []any{
					map[string]any{"name": "code", "type": "integer", "required": true},
					map[string]any{"name": "who", "type": "enum", "values": []any{"ada@example.com", "bob@example.com"}, "default": "ada@example.com"},
				},
				"steps": []any{
					step("navigate", "open", map[string]any{"url": base + "/login"}),
					step("write", "email", map[string]any{"locator": label("Email"), "text": "{{who}}"}),
					step("write", "code", map[string]any{"locator": label("Verification code"), "text": "{{code}}"}),
					map[string]any{"tool": "execute_script", "id": "typed", "return": true, "args": map[string]any{"script": "return [document.querySelector('#code').value, document.forms.length];"}},
					map[string]any{"tool": "read_text", "return": "heading", "args": map[string]any{"locator": map[string]any{"role": "heading", "name": "Sign in to Acme"}}},
					map[string]any{"tool": "assert", "return": "where", "args": map[string]any{"title": "Sign in"}},
				},
			}})

			// A wrong value: refused with what would be valid, nothing acted.
			for _, params := range []map[string]any{{"code": "12a"}, {"code": 1.5}, {}, {"code": 7.0, "who": "eve@example.com"}} {
				text := servertest.CallRefused(t, c, "run_flow", map[string]any{"name": "code", "params": params}, "before any step ran")
				assert.Check(t, is.Contains(text, "code (integer, required)"), text)
			}
			flowOK(t, c, "assert", map[string]any{"url": "/article$"})

			res := servertest.Call(t, c, "run_flow", map[string]any{"name": "code", "params": map[string]any{"code": 123456.0, "who": "bob@example.com"}})
			assert.Assert(t, !res.IsError, servertest.Text(res))
			rep := reportOf(t, res)
			assert.Check(t, is.DeepEqual(rep.Values["typed"], []any{"123456", 1.0}))
			assert.Check(t, is.Equal(rep.Values["heading"], "Sign in to Acme"))
			assert.Check(t, is.Equal(rep.Values["where"], base+"/login"))
			assert.Check(t, is.Equal(rep.TimeLimit, 120.0))
			for _, st := range rep.Steps {
				assert.Check(t, st.Millis >= 0)
			}

			// A failure: the page and what it has instead.
			flowOK(t, c, "save_flow", map[string]any{"document": map[string]any{"name": "ghost", "steps": []any{
				step("click", "ghost", map[string]any{"locator": map[string]any{"role": "button", "name": "Sign on"}}),
			}}})
			res = runFlow(t, c, "ghost", nil, "")
			assert.Assert(t, res.IsError)
			rep = reportOf(t, res)
			page := rep.Steps[0].Page
			assert.Assert(t, page != nil, servertest.Text(res))
			assert.Check(t, is.Equal(page.URL, base+"/login"))
			assert.Check(t, is.Contains(page.Title, "Sign in"))
			assert.Assert(t, len(page.Similar) > 0)
			assert.Check(t, is.Equal(page.Similar[0].Locator, `button:"Sign in"`), "%+v", page.Similar)

			// The time limit stops a wait inside it.
			flowOK(t, c, "save_flow", map[string]any{"document": map[string]any{"name": "slow", "timeLimit": 600, "steps": []any{
				step("wait_for", "never", map[string]any{"text": "This text never appears", "timeout": 120}),
				step("outline", "", nil),
			}}})
			servertest.CallRefused(t, c, "run_flow", map[string]any{"name": "slow", "time_limit": 0.5}, "time_limit is not a number of seconds from 1 to 3600")
			res = servertest.Call(t, c, "run_flow", map[string]any{"name": "slow", "time_limit": 1})
			assert.Assert(t, res.IsError)
			first, _, _ := strings.Cut(servertest.Text(res), "\n")
			assert.Check(t, is.Contains(first, "step 1 (never) failed: the run reached its time limit of 1 s"), first)
			rep = reportOf(t, res)
			assert.Check(t, is.DeepEqual(statuses(rep), []string{"failed", "skipped"}))
		})
	}
}
