package tools

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// The window, frame and dialog tools: a popup, an iframe or a native
// dialog is where much of a real application's work happens, and every
// page action's result says when one appears (report).

// windowTools returns the window, frame and dialog tools, all of them
// page tools a flow step may call (Page).
func windowTools(p *pageTools) []Tool {
	return []Tool{
		New("list_windows", "List Windows", ReadOnly.OnPage(),
			"List your browser's open windows and tabs: each one's short name (w1, w2, … in the order they opened), title and URL, and which one is current. "+
				"A click that opens a popup or a new tab already says so in its result; use this to look again. "+
				"Act in another window with switch_window and close one with close_window; session://current shows the same list with the frame and any open dialog.",
			p.listWindows,
		),
		New("switch_window", "Switch Window", Create,
			"Make another window or tab the one every page tool acts in: window is its name from list_windows or from the result that said it opened (w2), "+
				"or opener for the window the current one was opened from, previous for the one you were in before, newest for the latest one opened (what a saved flow should use). "+
				"Commands then act in that window's top page; call outline next to see it.",
			p.switchWindow,
			mcp.WithString("window", mcp.Required(), mcp.Description("w1, w2, … or opener, previous, newest")),
		),
		New("close_window", "Close Window", Create.OnPage(),
			"Close a window or tab, by default the current one, for example a popup you have finished with. "+
				"Closing the current window switches back to the window that opened it (or the newest one left), and the result says which window you are in now and its page. "+
				"The last window is not closed: close_session ends the browser. list_windows shows the names.",
			p.closeWindow,
			mcp.WithString("window", mcp.Description("w2, opener, previous or newest; default the current window")),
		),
		New("switch_frame", "Switch Frame", Create,
			"Act inside an iframe, or come back out of one: pass exactly one of locator (the iframe element, e.g. {\"css\": \"iframe[title='Billing']\"}, for a frame outline lists by title; call again for a frame inside it), parent (one level up) or top (back to the page). "+
				"Inside a frame, outline, click, write and the other page tools see only the frame's document; cross-origin frames work too. "+
				"A navigation of the page returns you to the top; session://current shows where you are.",
			p.switchFrame,
			locatorArg("locator", false, "the iframe or frame element to enter"),
			mcp.WithBoolean("parent", mcp.Description("leave the current frame for its parent")),
			mcp.WithBoolean("top", mcp.Description("leave all frames for the top page")),
		),
		New("answer_dialog", "Answer Dialog", Create.OnPage(),
			"Answer the native dialog (alert, confirm or prompt) that an action's result said is open: accept true presses OK, false presses Cancel; text answers a prompt. "+
				"While a dialog is open the page is blocked and other page tools say so, and session://current shows its text. "+
				"The result says where the page is afterwards, with any next dialog; then carry on with outline or click.",
			p.answerDialog,
			mcp.WithBoolean("accept", mcp.Required(), mcp.Description("true for OK, false for Cancel")),
			mcp.WithString("text", mcp.Description("the answer typed into a prompt before accepting")),
		),
	}
}

// report is the result of a page action: what was done, where the page is
// now, and the events the action set off (a window opened or closed, a
// dialog opened, a frame left). actErr is the action's error when it is
// ErrDialog: the action ran and opened a dialog, unless one was open
// before it (known), when it did not run at all.
func (p *pageTools) report(ctx context.Context, s *sessions.Session, what string, known *browser.Dialog, actErr error) (string, error) {
	if errors.Is(actErr, browser.ErrDialog) && known != nil {
		return "", refusal.New(fmt.Sprintf("The page is blocked by a dialog, so this was not done: %s.", what), p.redact(ctx, known.String()))
	}
	ev := s.TakeEvents()
	if ev.Dialog == nil && errors.Is(actErr, browser.ErrDialog) {
		ev.Dialog, _ = s.Dialog()
	}
	var b strings.Builder
	b.WriteString(what + ".")
	if ev.Dialog == nil && ev.Now == nil {
		// Where costs no command after an action whose settle read it.
		at, err := s.Where()
		if errors.Is(err, browser.ErrDialog) {
			ev.Dialog, _ = s.Dialog()
		} else {
			noteURL(ctx, at.URL)
			fmt.Fprintf(&b, " The page is now %q at %s.", at.Title, at.URL)
		}
	}
	if !ev.Empty() {
		b.WriteString(" " + p.redact(ctx, ev.String()))
	}
	if ev.Dialog == nil {
		if path, err := s.FramePath(); err == nil && len(path) > 0 {
			b.WriteString(" " + frameNote(path))
		}
	}
	return b.String(), nil
}

func (p *pageTools) redact(ctx context.Context, text string) string {
	return p.secrets.Redact(auth.Principal(ctx), text)
}

// frameNote says which frame commands act in.
func frameNote(path []browser.Locator) string {
	return fmt.Sprintf(`Commands act inside the frame %s; switch_frame {"top":true} returns to the page.`, framePath(path))
}

func framePath(path []browser.Locator) string {
	parts := make([]string, len(path))
	for i, l := range path {
		parts[i] = l.String()
	}
	return strings.Join(parts, " › ")
}

// outlineNotes finishes the outline tool's result: while a dialog blocks
// the page it says so with the dialog's text instead of failing, and it
// notes the frame commands act in and the other windows open.
func (p *pageTools) outlineNotes(ctx context.Context, s *sessions.Session, text *string, err error) error {
	if errors.Is(err, browser.ErrDialog) {
		if d, derr := s.Dialog(); derr == nil && d != nil {
			*text = "The page is blocked by a dialog, so it cannot be outlined until the dialog is answered. " + p.redact(ctx, d.String())
			return nil
		}
	}
	if err != nil {
		return err
	}
	if path, err := s.FramePath(); err == nil && len(path) > 0 {
		*text += "\n" + frameNote(path)
	}
	if n := s.WindowCount(); n > 1 {
		*text += fmt.Sprintf("\n%d windows are open (you are in %s); list_windows shows them.", n, s.CurrentWindow())
	}
	return nil
}

// frameSecret refuses a secret inside a frame whose document is not on
// the secret's sites: the page's URL (checked by the caller) and the
// frame's must both be.
func (p *pageTools) frameSecret(s *sessions.Session, name string) error {
	path, err := s.FramePath()
	if err != nil || len(path) == 0 {
		return err
	}
	u, err := s.FrameURL()
	if err != nil {
		return err
	}
	if _, err := p.secrets.Value(s.Principal, name, "", u); err != nil {
		return refusal.New(fmt.Sprintf("The secret %q is not typed inside the frame %s: the frame's own document is checked as well as the page, and %v.", name, framePath(path), err),
			`Type it on the page itself after switch_frame {"top":true}, or in a frame of the secret's sites.`)
	}
	return nil
}

func (p *pageTools) listWindows(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	var ws []browser.WindowInfo
	if err := p.do(ctx, func(s *sessions.Session) (err error) { ws, err = s.Windows(); return err }); err != nil {
		return nil, err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s open:\n", len(ws), plural(len(ws), "window is", "windows are"))
	for _, w := range ws {
		fmt.Fprintf(&b, "- %s", w)
		if w.Opener != "" {
			fmt.Fprintf(&b, ", opened from %s", w.Opener)
		}
		if w.Current {
			b.WriteString(" (current)")
		}
		b.WriteString("\n")
	}
	b.WriteString(`switch_window {"window":"w1"} acts in another; close_window closes one.`)
	return mcp.NewToolResultText(p.redact(ctx, b.String())), nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (p *pageTools) switchWindow(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, err := req.RequireString("window")
	if err != nil || strings.TrimSpace(name) == "" {
		return nil, missing("window", `a window name such as "w2" (list_windows shows them), or "opener", "previous" or "newest"`)
	}
	return p.acted(ctx, func(s *sessions.Session) (string, error) {
		now, err := s.SwitchWindow(name)
		if err != nil {
			return "", err
		}
		return "Switched to the window " + now.Name, nil
	})
}

func (p *pageTools) closeWindow(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name := req.GetString("window", "")
	return p.acted(ctx, func(s *sessions.Session) (string, error) {
		closed, now, err := s.CloseWindow(name)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("Closed the window %s; you are now in the window %s", closed, now.Name), nil
	})
}

func (p *pageTools) switchFrame(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	loc, err := locatorFrom(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	parent, top := req.GetBool("parent", false), req.GetBool("top", false)
	n := 0
	for _, set := range []bool{loc != nil, parent, top} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, refusal.New("switch_frame takes exactly one of locator, parent or top.",
			`Pass {"locator": {"css": "iframe#billing"}} to enter a frame (outline lists them), {"parent": true} to go up one level, or {"top": true} to return to the page.`)
	}
	return p.acted(ctx, func(s *sessions.Session) (string, error) {
		if loc != nil {
			if err := s.EnterFrame(*loc); err != nil {
				return "", err
			}
			return "Entered the frame " + loc.String() + "; outline shows its document", nil
		}
		if err := s.ExitFrame(top); err != nil {
			return "", err
		}
		if top {
			return "Left the frames for the top page", nil
		}
		return "Left the frame for its parent", nil
	})
}

func (p *pageTools) answerDialog(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	accept, ok := args["accept"].(bool)
	if !ok {
		return nil, missing("accept", `true to press OK or false for Cancel, e.g. {"accept": true}`)
	}
	var text *string
	if t, ok := args["text"].(string); ok {
		text = &t
	}
	return p.acted(ctx, func(s *sessions.Session) (string, error) {
		d, err := s.AnswerDialog(accept, text)
		if err != nil {
			return "", err
		}
		verb := "Dismissed"
		if accept {
			verb = "Accepted"
		}
		what := fmt.Sprintf("%s the %s %q", verb, d.Type, truncateText(d.Text, 100))
		if text != nil {
			what += fmt.Sprintf(", answering with %d characters", len([]rune(*text)))
		}
		return p.redact(ctx, what), nil
	})
}

// acted runs a call whose sentence depends on its outcome and reports it
// as act does.
func (p *pageTools) acted(ctx context.Context, call func(*sessions.Session) (string, error)) (*mcp.CallToolResult, error) {
	var text string
	err := p.do(ctx, func(s *sessions.Session) error {
		what, err := call(s)
		if err != nil {
			return err
		}
		text, err = p.report(ctx, s, what, nil, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(text), nil
}

func truncateText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
