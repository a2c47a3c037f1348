package tools_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

func css(sel string) map[string]any { return map[string]any{"css": sel} }

// gtSaid reads the fixture page's status line through read_text.
func gtSaid(t *testing.T, c *servertest.Client, sel string) string {
	t.Helper()
	return servertest.CallOK(t, c, "read_text", map[string]any{"locator": css(sel)})
}

// TestGestureTools drives the pointer tools, click's button and double,
// write's submit, press_key's locator, resize_window, execute_script and
// the url argument through a real MCP client (in process) against real
// Chromium; one session for every subtest.
func TestGestureTools(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{Resources: surface.Off, Secrets: secrets.Sources{File: ptSecretsFile(t, auth.Local)}})
	c := servertest.InProcess(t, srv, servertest.Options{})
	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/hover"})

	t.Run("hover keeps a menu open for the click", func(t *testing.T) {
		billing := map[string]any{"locator": map[string]any{"role": "link", "name": "Billing"}}
		servertest.CallRefused(t, c, "click", billing, "hidden", "reveal it")
		text := servertest.CallOK(t, c, "hover", map[string]any{"locator": css("#account")})
		assert.Check(t, is.Contains(text, "The pointer is over css:#account; call outline"))
		assert.Check(t, is.Contains(text, `The page is now "Hover menu"`))
		servertest.CallOK(t, c, "click", billing)
		assert.Check(t, is.Equal(gtSaid(t, c, "#said"), "billing opened"))
	})

	t.Run("url goes there first, unless the browser is there", func(t *testing.T) {
		text := servertest.CallOK(t, c, "click", map[string]any{"url": site + "/gestures", "locator": map[string]any{"text": "Untitled draft"}, "double": true})
		assert.Check(t, strings.HasPrefix(text, "Loaded "+site+"/gestures first. Double-clicked text:"), text)
		text = servertest.CallOK(t, c, "write", map[string]any{"url": site + "/gestures/#top", "locator": map[string]any{"label": "Title"}, "text": "Q4 report", "submit": true})
		assert.Check(t, strings.HasPrefix(text, `Typed 9 characters into label:"Title", then submitted it. The page is now "Gestures"`), text)
		assert.Check(t, is.Equal(gtSaid(t, c, "#title"), "Q4 report"))
		servertest.CallRefused(t, c, "hover", map[string]any{"url": "example.com/x", "locator": css("h1")}, "not an absolute http or https URL")
		servertest.CallRefused(t, c, "hover", map[string]any{"url": 3, "locator": css("h1")}, `"url" of hover is a number, not a string`)
	})

	t.Run("right-click", func(t *testing.T) {
		text := servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"text": "report.pdf"}, "button": "right"})
		assert.Check(t, is.Contains(text, `Right-clicked text:"report.pdf"`))
		assert.Check(t, is.Equal(gtSaid(t, c, "#said"), "menu opened with button 2"))
		servertest.CallRefused(t, c, "click", map[string]any{"locator": css("h1"), "button": "fourth"}, `"left"`)
	})

	t.Run("drag", func(t *testing.T) {
		text := servertest.CallOK(t, c, "drag", map[string]any{"locator": map[string]any{"text": "Call Ada"}, "to": css("#done")})
		assert.Check(t, is.Contains(text, `Dragged text:"Call Ada" onto css:#done`))
		assert.Check(t, is.Equal(gtSaid(t, c, "#said"), "moved Call Ada to Done"))
		servertest.CallOK(t, c, "drag", map[string]any{"locator": `slider:"Volume"`, "by": map[string]any{"x": 100}})
		assert.Check(t, is.Equal(gtSaid(t, c, "#volume"), "50"))
		servertest.CallRefused(t, c, "drag", map[string]any{"locator": css("#thumb")}, "exactly one of to or by", `{"by": {"x": 100, "y": 0}}`)
		servertest.CallRefused(t, c, "drag", map[string]any{"locator": css("#thumb"), "by": map[string]any{"x": 1.5}}, "whole number")
		servertest.CallRefused(t, c, "drag", map[string]any{"locator": map[string]any{"text": "Write report"}, "to": css("h1")}, "does not accept this drag", "outline")
	})

	t.Run("scroll", func(t *testing.T) {
		text := servertest.CallOK(t, c, "scroll", map[string]any{"by": map[string]any{"y": 300}})
		assert.Check(t, is.Contains(text, "The page's scroll position is now x=0, y=300."))
		text = servertest.CallOK(t, c, "scroll", map[string]any{"locator": css("#scroller"), "by": map[string]any{"y": 120}})
		assert.Check(t, is.Contains(text, "Inside css:#scroller the scroll position is now x=0, y=120."))
		servertest.CallRefused(t, c, "scroll", map[string]any{}, "scroll needs a locator, by, or both")
	})

	t.Run("press_key in an element", func(t *testing.T) {
		servertest.CallOK(t, c, "write", map[string]any{"url": site + "/controls", "locator": map[string]any{"label": "Notes"}, "text": "first draft"})
		servertest.CallOK(t, c, "press_key", map[string]any{"key": "Escape", "locator": map[string]any{"label": "Key catcher"}})
		text := servertest.CallOK(t, c, "press_key", map[string]any{"key": "Control+a", "locator": map[string]any{"label": "Notes"}})
		assert.Check(t, is.Contains(text, `Pressed Control+a in label:"Notes"`))
		servertest.CallOK(t, c, "press_key", map[string]any{"key": "z"})
		assert.Check(t, is.Equal(servertest.CallOK(t, c, "read_text", map[string]any{"locator": map[string]any{"label": "Notes"}}), "z"))
	})

	t.Run("file inputs take no keys", func(t *testing.T) {
		doc := map[string]any{"url": site + "/upload", "locator": css("#doc")}
		servertest.CallRefused(t, c, "write", map[string]any{"url": site + "/upload", "locator": css("#doc"), "text": "/etc/passwd"}, "file input", "Call upload_file")
		servertest.CallRefused(t, c, "press_key", map[string]any{"url": doc["url"], "locator": doc["locator"], "key": "Enter"}, "file input", "Call upload_file")
		n := servertest.CallOK(t, c, "execute_script", map[string]any{"script": "return document.querySelector('#doc').files.length;"})
		assert.Check(t, strings.HasSuffix(n, "It returned:\n0"), n)
	})

	t.Run("resize_window", func(t *testing.T) {
		text := servertest.CallOK(t, c, "resize_window", map[string]any{"window": "390x844"})
		assert.Check(t, is.Contains(text, "The viewport is now 390x844."))
		size := servertest.CallOK(t, c, "execute_script", map[string]any{"script": "return [innerWidth, innerHeight];"})
		assert.Check(t, strings.HasSuffix(size, "It returned:\n[390,844]"), size)
		servertest.CallRefused(t, c, "resize_window", map[string]any{"window": "big"}, "not WIDTHxHEIGHT", "1280x800")
		servertest.CallRefused(t, c, "resize_window", map[string]any{"window": "99999x800"}, "outside 100x100 to 8192x8192")
		servertest.CallOK(t, c, "resize_window", map[string]any{"window": "1280x800"})
	})

	t.Run("execute_script", func(t *testing.T) {
		text := servertest.CallOK(t, c, "execute_script", map[string]any{"script": "return {n: arguments[0] + 1, s: arguments[1]};", "args": []any{41, "ok"}})
		assert.Check(t, strings.HasPrefix(text, "Ran the script. The page is now"), text)
		assert.Check(t, strings.HasSuffix(text, `It returned:`+"\n"+`{"n":42,"s":"ok"}`), text)
		big := servertest.CallOK(t, c, "execute_script", map[string]any{"script": "return 'x'.repeat(30000);"})
		assert.Check(t, is.Contains(big, "[cut: the result is 30002 characters, 20000 shown; return less"))
		assert.Check(t, len(big) < 21000, "%d bytes came back", len(big))
		servertest.CallRefused(t, c, "execute_script", map[string]any{"script": "throw new Error('no order 42');"}, "no order 42", "call execute_script again")
		servertest.CallRefused(t, c, "execute_script", map[string]any{"script": "return 1;", "args": "x"}, `"args" of execute_script is a string, not a JSON array`)
	})
}

// TestNoScripts: with NoScripts the server neither lists nor runs
// execute_script, and a flow cannot hold it; the other tools stay.
func TestNoScripts(t *testing.T) {
	srv := servertest.New(t, server.Config{Resources: surface.Off, NoScripts: true})
	c := servertest.InProcess(t, srv, servertest.Options{})
	names := servertest.ToolNames(t, c)
	assert.Check(t, !slices.Contains(names, "execute_script"), "%v", names)
	assert.Check(t, slices.Contains(names, "read_text"), "%v", names)
	req := mcp.CallToolRequest{}
	req.Params.Name, req.Params.Arguments = "execute_script", map[string]any{"script": "return 1;"}
	_, err := c.CallTool(servertest.Context(t), req)
	assert.Check(t, is.ErrorContains(err, "not found"))
	doc := map[string]any{"name": "scripted", "steps": []any{step("execute_script", "s", map[string]any{"script": "return 1;"})}}
	flowRefused(t, c, "save_flow", map[string]any{"document": doc})
}
