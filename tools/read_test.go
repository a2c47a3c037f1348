package tools_test

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// rtCut is the line read_text ends a part with when more remains.
var rtCut = regexp.MustCompile(`\n\[cut: characters (\d+)–(\d+) of (\d+) shown, (\d+) remain; read on with read_text (\{.*\})\]$`)

// TestReadText reads the long article whole by following the cut line's
// call, reads HTML and a JSON body, and never returns a secret the page
// echoed, whether read as text, as HTML or by a script.
func TestReadText(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{Resources: surface.Off, Secrets: secrets.Sources{File: ptSecretsFile(t, auth.Local)}})
	c := servertest.InProcess(t, srv, servertest.Options{})
	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/long"})

	t.Run("paging with offset", func(t *testing.T) {
		var whole strings.Builder
		args := map[string]any{"max": 10000}
		parts := 0
		for {
			text := servertest.CallOK(t, c, "read_text", args)
			parts++
			m := rtCut.FindStringSubmatch(text)
			if m == nil {
				whole.WriteString(text)
				break
			}
			whole.WriteString(strings.TrimSuffix(text, m[0]))
			args = map[string]any{}
			assert.NilError(t, json.Unmarshal([]byte(m[5]), &args), m[5])
			assert.Check(t, is.Equal(args["max"], float64(10000)), "the next call keeps max")
			assert.Assert(t, parts < 10)
		}
		assert.Check(t, parts >= 3, "20+ KB in parts of 10000 characters: %d", parts)
		assert.Check(t, is.Contains(whole.String(), "The last paragraph ends here."))
		assert.Check(t, is.Contains(whole.String(), `"customer": "Customer 18"`))
		assert.Check(t, strings.HasPrefix(whole.String(), "A long article\n"), whole.String()[:40])
	})

	t.Run("an element, HTML, and refusals", func(t *testing.T) {
		body := servertest.CallOK(t, c, "read_text", map[string]any{"locator": css("#json")})
		var v map[string]any
		assert.NilError(t, json.Unmarshal([]byte(body), &v), "the 2.9 KB JSON body comes back whole")
		html := servertest.CallOK(t, c, "read_text", map[string]any{"locator": "css:#last", "html": true})
		assert.Check(t, is.Equal(html, `<p id="last">The last paragraph ends here.</p>`))
		part := servertest.CallOK(t, c, "read_text", map[string]any{"locator": "css:#last", "html": true, "max": 13})
		assert.Check(t, is.Contains(part, `read on with read_text {"html":true,"locator":{"css":"#last"},"max":13,"offset":13}]`), part)
		servertest.CallRefused(t, c, "read_text", map[string]any{"offset": 10000000}, "past the end")
		servertest.CallRefused(t, c, "read_text", map[string]any{"max": 60000}, "max is not a whole number from 1 to 50000")
		servertest.CallRefused(t, c, "read_text", map[string]any{"locator": css("#nothing-here")}, "no element matches", "outline")
	})

	t.Run("a secret the page echoes does not come back", func(t *testing.T) {
		text := servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"label": "Echo"}, "secret": "pw"})
		assert.Check(t, is.Contains(text, `Typed the secret "pw"`))
		for _, args := range []map[string]any{
			{"locator": css("#echo-out")},
			{"locator": map[string]any{"label": "Echo"}},
			{},
			// Role and name, not css("section[aria-label=Echo]"): on a page
			// that shows a typed secret, attribute selectors are refused
			// (no oracle, tools/oracle.go).
			{"html": true, "locator": map[string]any{"role": "region", "name": "Echo"}},
		} {
			got := servertest.CallOK(t, c, "read_text", args)
			assert.Check(t, !strings.Contains(got, ptPagePassword), "read_text %v returned the secret", args)
		}
		echoed := servertest.CallOK(t, c, "read_text", map[string]any{"locator": css("#echo-out")})
		assert.Check(t, echoed != "" && echoed != "(no text)", "the page echoed something: %q", echoed)
		// A script could return the echo transformed past redaction: on
		// a page that shows a typed secret it is refused.
		got := servertest.CallRefused(t, c, "execute_script", map[string]any{"script": "return document.getElementById('echo-out').textContent;"}, "shows a secret you typed")
		assert.Check(t, !strings.Contains(got, ptPagePassword), "execute_script returned the secret")
	})
}

// TestGestureFlowReplays: a flow of hover, click and read_text (with the
// url argument as its first step's way there) is saved and replayed twice,
// each time from another page.
func TestGestureFlowReplays(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{Resources: surface.Off})
	c := servertest.InProcess(t, srv, servertest.Options{})
	servertest.CallOK(t, c, "open_session", nil)
	doc := map[string]any{
		"name":        "billing",
		"description": "Open Billing from the Account hover menu.",
		"parameters":  []any{map[string]any{"name": "base_url", "required": true}},
		"steps": []any{
			step("hover", "menu", map[string]any{"url": "{{base_url}}/hover", "locator": css("#account")}),
			step("click", "billing", map[string]any{"locator": map[string]any{"role": "link", "name": "Billing"}}),
			step("read_text", "said", map[string]any{"locator": css("#said")}),
			step("assert", "check", map[string]any{"text": "billing opened"}),
			step("scroll", "down", map[string]any{"locator": map[string]any{"text": "Walk the dog"}}),
			step("hover", "row", map[string]any{"locator": css("#todo-1")}),
			step("click", "delete", map[string]any{"locator": map[string]any{"role": "button", "name": "Delete", "within": css("#todo-1")}}),
			step("assert", "deleted", map[string]any{"text": "deleted Buy milk"}),
		},
	}
	flowOK(t, c, "save_flow", map[string]any{"document": doc})
	for range 2 {
		res := runFlow(t, c, "billing", map[string]any{"base_url": site}, "")
		assert.Assert(t, !res.IsError, servertest.Text(res))
		rep := reportOf(t, res)
		assert.Check(t, is.DeepEqual(statuses(rep), []string{"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"}))
		assert.Check(t, is.Contains(rep.Steps[0].Result, "Loaded "+site+"/hover first."))
		assert.Check(t, is.Equal(rep.Steps[2].Result, "billing opened"))
		// Elsewhere, so that the next run's url loads the page afresh.
		servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/long"})
	}
}
