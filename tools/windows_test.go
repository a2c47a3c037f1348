package tools_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// wtCurrent is session://current with what the window tools add.
type wtCurrent struct {
	State   string               `json:"state"`
	URL     string               `json:"url"`
	Next    string               `json:"next"`
	Windows []browser.WindowInfo `json:"windows"`
	Frame   []string             `json:"frame"`
	Dialog  *browser.Dialog      `json:"dialog"`
}

func wtRead(t *testing.T, c *servertest.Client) wtCurrent {
	t.Helper()
	var cur wtCurrent
	servertest.MirrorJSON(t, c, "session://current", &cur)
	return cur
}

func button(name string) map[string]any { return map[string]any{"role": "button", "name": name} }

// TestWindowTools: popups, dialogs and frames through MCP on one in-process
// server and session: the action that opens a window or a dialog says so
// with the call that follows; list_windows, switch_window, close_window,
// answer_dialog and switch_frame do what they say and refuse with the
// next step; session://current and outline show windows, the frame and an
// open dialog; a secret is typed in a frame only when the frame's document
// is on the secret's sites too; a flow clicks a popup link, switches,
// acts, closes and goes back.
func TestWindowTools(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	srv := servertest.New(t, server.Config{Resources: surface.Off, Secrets: secrets.Sources{File: ptSecretsFile(t, auth.Local)}})
	c := servertest.Local(t, srv, servertest.InProc, servertest.Options{})

	t.Run("open_session timeouts", func(t *testing.T) {
		for _, bad := range []map[string]any{
			{"page_load_timeout": 0},
			{"page_load_timeout": 301},
			{"script_timeout": -1},
		} {
			servertest.CallRefused(t, c, "open_session", bad, "is not a number of seconds from 1 to 300", "or leave it out for 30")
		}
		text := servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/popup", "page_load_timeout": 20, "script_timeout": 10})
		assert.Check(t, is.Contains(text, `Opened a new browser session. The page is now "Authors · Acme" at `+site+"/popup."))
	})

	t.Run("windows", func(t *testing.T) {
		text := servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "link", "name": "Add author"}})
		assert.Check(t, is.Equal(text, `Clicked link:"Add author". The page is now "Authors · Acme" at `+site+`/popup. `+
			`A new window opened: w2 "Add author · Acme" at `+site+`/popup/add — switch_window {"window":"w2"} acts in it.`))
		list := servertest.CallOK(t, c, "list_windows", nil)
		assert.Check(t, is.Equal(list, "2 windows are open:\n"+
			`- w1 "Authors · Acme" at `+site+"/popup (current)\n"+
			`- w2 "Add author · Acme" at `+site+"/popup/add, opened from w1\n"+
			`switch_window {"window":"w1"} acts in another; close_window closes one.`))
		out := servertest.CallOK(t, c, "outline", nil)
		assert.Check(t, strings.HasSuffix(out, "\n2 windows are open (you are in w1); list_windows shows them."), out)
		cur := wtRead(t, c)
		assert.Assert(t, is.Len(cur.Windows, 2))
		assert.Check(t, cur.Windows[0].Current && cur.Windows[0].Name == "w1")
		assert.Check(t, is.Equal(cur.Windows[1].Title, "Add author · Acme"))

		text = servertest.CallOK(t, c, "switch_window", map[string]any{"window": "w2"})
		assert.Check(t, is.Equal(text, `Switched to the window w2. The page is now "Add author · Acme" at `+site+"/popup/add."))
		servertest.CallOK(t, c, "write", map[string]any{"locator": label("Name"), "text": "Ada"})
		servertest.CallOK(t, c, "click", map[string]any{"locator": button("Save")})
		text = servertest.CallOK(t, c, "switch_window", map[string]any{"window": "opener"})
		assert.Check(t, is.Contains(text, "Switched to the window w1."))
		servertest.CallOK(t, c, "assert", map[string]any{"text": "Chosen: Ada"})

		servertest.CallRefused(t, c, "switch_window", map[string]any{"window": "w9"}, `there is no window "w9"; the windows are w1, w2`)
		servertest.CallRefused(t, c, "switch_window", map[string]any{}, `"window" is required`)
		text = servertest.CallOK(t, c, "close_window", map[string]any{"window": "w2"})
		assert.Check(t, is.Equal(text, `Closed the window w2; you are now in the window w1. The page is now "Authors · Acme" at `+site+"/popup."))
		servertest.CallRefused(t, c, "close_window", nil, "w1 is the only window", "close_session")
		out = servertest.CallOK(t, c, "outline", nil)
		assert.Check(t, !strings.Contains(out, "windows are open"), out)

		// A popup that closes itself while current: the click says so and
		// where the commands act now.
		servertest.CallOK(t, c, "click", map[string]any{"locator": button("Open helper")})
		servertest.CallOK(t, c, "switch_window", map[string]any{"window": "newest"})
		servertest.CallOK(t, c, "write", map[string]any{"locator": label("Name"), "text": "Grace"})
		text = servertest.CallOK(t, c, "click", map[string]any{"locator": button("Save and close")})
		assert.Check(t, is.Contains(text, `The window w3 was closed. You are now in w1 "Authors · Acme" at `+site+"/popup."), text)
		servertest.CallOK(t, c, "assert", map[string]any{"text": "Chosen: Grace"})
	})

	t.Run("dialogs", func(t *testing.T) {
		servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/dialogs"})
		servertest.CallRefused(t, c, "answer_dialog", map[string]any{"accept": true}, "no dialog is open")
		text := servertest.CallOK(t, c, "click", map[string]any{"locator": button("Delete")})
		assert.Check(t, is.Equal(text, `Clicked button:"Delete". A confirm dialog is open: "Delete the order?". `+
			`answer_dialog {"accept":true} presses OK, {"accept":false} Cancel; the page waits until you answer.`))
		cur := wtRead(t, c)
		assert.Check(t, is.DeepEqual(cur.Dialog, &browser.Dialog{Type: "confirm", Text: "Delete the order?"}))
		assert.Check(t, is.Contains(cur.Next, `answer_dialog {"accept":true} presses OK`))
		out := servertest.CallOK(t, c, "outline", nil)
		assert.Check(t, is.Contains(out, `The page is blocked by a dialog, so it cannot be outlined until the dialog is answered. A confirm dialog is open: "Delete the order?".`))
		servertest.CallRefused(t, c, "click", map[string]any{"locator": button("Alert")},
			`The page is blocked by a dialog, so this was not done: Clicked button:"Alert". A confirm dialog is open`)
		servertest.CallRefused(t, c, "answer_dialog", map[string]any{"accept": true, "text": "x"}, "the open dialog is a confirm, which takes no text")
		servertest.CallRefused(t, c, "answer_dialog", map[string]any{}, `"accept" is required`)
		text = servertest.CallOK(t, c, "answer_dialog", map[string]any{"accept": true})
		assert.Check(t, is.Equal(text, `Accepted the confirm "Delete the order?". The page is now "Dialogs · Acme" at `+site+"/dialogs."))
		servertest.CallOK(t, c, "assert", map[string]any{"text": "deleted"})

		text = servertest.CallOK(t, c, "click", map[string]any{"locator": button("Name")})
		assert.Check(t, is.Contains(text, `A prompt is open: "Your name?". answer_dialog {"accept":true,"text":"…"} answers it`))
		text = servertest.CallOK(t, c, "answer_dialog", map[string]any{"accept": true, "text": "Ann"})
		assert.Check(t, is.Contains(text, `Accepted the prompt "Your name?", answering with 3 characters.`))
		servertest.CallOK(t, c, "assert", map[string]any{"text": "hello Ann"})

		// Answering one alert reports the next.
		servertest.CallOK(t, c, "click", map[string]any{"locator": button("Two alerts")})
		text = servertest.CallOK(t, c, "answer_dialog", map[string]any{"accept": true})
		assert.Check(t, is.Equal(text, `Accepted the alert "First". An alert is open: "Second". The page waits until answer_dialog {"accept":true} closes it.`))
		servertest.CallOK(t, c, "answer_dialog", map[string]any{"accept": true})
		assert.Check(t, wtRead(t, c).Dialog == nil)

		// A page that alerts while it loads: navigate reports the alert.
		text = servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/dialogs/greet"})
		assert.Check(t, is.Equal(text, `Loaded `+site+`/dialogs/greet. An alert is open: "Welcome back". The page waits until answer_dialog {"accept":true} closes it.`))
		text = servertest.CallOK(t, c, "answer_dialog", map[string]any{"accept": true})
		assert.Check(t, is.Equal(text, `Accepted the alert "Welcome back". The page is now "Greeting · Acme" at `+site+"/dialogs/greet."))
	})

	t.Run("frames", func(t *testing.T) {
		servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/frames"})
		for _, bad := range []map[string]any{{}, {"top": true, "parent": true}, {"locator": map[string]any{"css": "iframe"}, "top": true}} {
			servertest.CallRefused(t, c, "switch_frame", bad, "switch_frame takes exactly one of locator, parent or top.")
		}
		servertest.CallRefused(t, c, "switch_frame", map[string]any{"top": true}, "you are not inside a frame")
		servertest.CallRefused(t, c, "switch_frame", map[string]any{"locator": label("Coupon")}, `label:"Coupon" is not an iframe or frame`)

		text := servertest.CallOK(t, c, "switch_frame", map[string]any{"locator": map[string]any{"css": "iframe#billing"}})
		assert.Check(t, is.Equal(text, `Entered the frame css:iframe#billing; outline shows its document. The page is now "Frames · Acme" at `+site+`/frames. `+
			`Commands act inside the frame css:iframe#billing; switch_frame {"top":true} returns to the page.`))
		out := servertest.CallOK(t, c, "outline", nil)
		assert.Check(t, is.Contains(out, "Card holder"))
		assert.Check(t, is.Contains(out, `Commands act inside the frame css:iframe#billing;`))
		cur := wtRead(t, c)
		assert.Check(t, is.DeepEqual(cur.Frame, []string{"css:iframe#billing"}))
		assert.Check(t, is.Contains(cur.Next, "Commands act inside the frame css:iframe#billing"))

		// The page and this frame are on the secret's site, 127.0.0.1.
		text = servertest.CallOK(t, c, "switch_frame", map[string]any{"locator": map[string]any{"css": `iframe[title="Card"]`}})
		assert.Check(t, is.Contains(text, `Commands act inside the frame css:iframe#billing › css:"iframe[title=\"Card\"]"`), text)
		servertest.CallOK(t, c, "write", map[string]any{"locator": label("Card number"), "secret": "pw"})
		servertest.CallOK(t, c, "click", map[string]any{"locator": button("Check card")})
		servertest.CallOK(t, c, "assert", map[string]any{"text": fmt.Sprintf("Card length %d", len(ptPagePassword))})
		text = servertest.CallOK(t, c, "switch_frame", map[string]any{"parent": true})
		assert.Check(t, is.Contains(text, "Left the frame for its parent."))

		// The partner frame is on localhost: the secret stays out.
		servertest.CallOK(t, c, "switch_frame", map[string]any{"top": true})
		servertest.CallOK(t, c, "switch_frame", map[string]any{"locator": map[string]any{"css": "iframe#partner"}})
		refused := servertest.CallRefused(t, c, "write", map[string]any{"locator": label("Partner code"), "secret": "pw"},
			`The secret "pw" is not typed inside the frame css:iframe#partner: the frame's own document is checked as well as the page`,
			`switch_frame {"top":true}`)
		assert.Check(t, !strings.Contains(refused, ptPagePassword))
		servertest.CallOK(t, c, "write", map[string]any{"locator": label("Partner code"), "text": "XYZ"})
		servertest.CallOK(t, c, "click", map[string]any{"locator": button("Apply code")})
		servertest.CallOK(t, c, "assert", map[string]any{"text": "Code length 3"})

		text = servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/login"})
		assert.Check(t, is.Contains(text, "so commands act in the top page again"), text)
		assert.Check(t, wtRead(t, c).Frame == nil)
	})

	t.Run("flow", func(t *testing.T) {
		doc := map[string]any{
			"name":        "add-author",
			"description": "Add an author through the popup and check the page got it.",
			"parameters": []any{
				map[string]any{"name": "base_url", "required": true},
				map[string]any{"name": "author", "required": true},
			},
			"steps": []any{
				step("navigate", "open", map[string]any{"url": "{{base_url}}/popup"}),
				step("click", "add", map[string]any{"locator": map[string]any{"role": "link", "name": "Add author"}}),
				step("switch_window", "popup", map[string]any{"window": "newest"}),
				step("write", "name", map[string]any{"locator": label("Name"), "text": "{{author}}"}),
				step("click", "save", map[string]any{"locator": button("Save")}),
				step("close_window", "close", nil),
				step("list_windows", "windows", nil),
				step("assert", "chosen", map[string]any{"text": "Chosen: {{author}}"}),
			},
		}
		flowOK(t, c, "save_flow", map[string]any{"document": doc})
		for _, author := range []string{"Barbara", "Ken"} {
			res := runFlow(t, c, "add-author", map[string]any{"base_url": site, "author": author}, "")
			assert.Assert(t, !res.IsError, servertest.Text(res))
			rep := reportOf(t, res)
			assert.Check(t, is.DeepEqual(statuses(rep), []string{"ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"}))
			assert.Check(t, is.Contains(rep.Steps[1].Result, "A new window opened: w"))
			assert.Check(t, is.Contains(rep.Steps[5].Result, "you are now in the window w1"))
			assert.Check(t, is.Contains(rep.Steps[6].Result, "1 window is open"))
		}
		b, _ := json.Marshal(doc)
		assert.Check(t, !strings.Contains(string(b), `"w2"`), "the flow names no window number")
	})
}
