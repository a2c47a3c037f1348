package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/tebeka/selenium"
)

// Native dialogs. Sessions are opened with unhandledPromptBehavior
// "ignore": a dialog stays open until answered, and meanwhile every
// command fails at once with "unexpected alert open" (ErrDialog) instead
// of waiting. The action that opened a dialog reports it; AnswerDialog
// accepts, dismisses or answers it.
//
// WebDriver tells a dialog's text but not its type. So that a caller
// knows whether a dialog takes text, each window's documents get, before
// their own scripts run, a wrapper of alert, confirm and prompt that puts
// an invisible tag with the type before the message (dialogTagScript);
// Dialog reads the tag and takes it off. The page sees the same return
// values as before. A dialog without a tag (from a cross-origin frame, or
// from a popup's first page, which loads before the session finds the
// window) has type "dialog".

// Dialog is a native JavaScript dialog open on the page.
type Dialog struct {
	// Type is alert, confirm or prompt, or "dialog" when it is not known.
	Type string `json:"type"`
	// Text is the message the dialog shows.
	Text string `json:"text"`
}

// dialogTag marks the type in a dialog's message: tag + type + tag.
const dialogTag = "\u2063sf:"

// dialogTagScript wraps the dialog functions of every new document of a
// window. It runs once per document.
const dialogTagScript = `(function () {
  if (window.__sfDialogTag) { return; }
  try { Object.defineProperty(window, '__sfDialogTag', {value: true}); } catch (e) { return; }
  for (const type of ['alert', 'confirm', 'prompt']) {
    const native = window[type];
    if (typeof native !== 'function') { continue; }
    const wrapped = {[type](...args) {
      args[0] = '\u2063sf:' + type + '\u2063sf:' + (args.length && args[0] !== undefined ? String(args[0]) : '');
      return native.apply(this, args);
    }}[type];
    try { Object.defineProperty(window, type, {value: wrapped, writable: true, configurable: true, enumerable: true}); } catch (e) {}
  }
})();`

// tagDialogs installs dialogTagScript in the current window, for its
// document now and every later one. It is best effort: an endpoint
// without Chrome's DevTools command leaves dialogs untyped. The caller
// holds the lock.
func (s *Session) tagDialogs() {
	s.win.tagged[s.win.current] = true
	add := func(params map[string]any) error {
		_, err := s.raw(context.Background(), "POST", "/goog/cdp/execute", map[string]any{"cmd": "Page.addScriptToEvaluateOnNewDocument", "params": params})
		return err
	}
	// runImmediately (Chrome 105 and later) covers the document already
	// loaded; an older browser refuses it and tags the next documents only.
	if err := add(map[string]any{"source": dialogTagScript, "runImmediately": true}); err != nil && !errors.Is(clean(err), ErrUnsupported) {
		_ = add(map[string]any{"source": dialogTagScript})
	}
}

// parseDialog reads the type tag off a dialog's text.
func parseDialog(text string) *Dialog {
	if rest, ok := strings.CutPrefix(text, dialogTag); ok {
		if typ, msg, ok := strings.Cut(rest, dialogTag); ok {
			return &Dialog{Type: typ, Text: msg}
		}
	}
	return &Dialog{Type: "dialog", Text: text}
}

// String says which dialog is open and how to answer it.
func (d Dialog) String() string {
	text := strconv.Quote(truncate(d.Text, 300))
	switch d.Type {
	case "alert":
		return fmt.Sprintf(`An alert is open: %s. The page waits until answer_dialog {"accept":true} closes it.`, text)
	case "confirm":
		return fmt.Sprintf(`A confirm dialog is open: %s. answer_dialog {"accept":true} presses OK, {"accept":false} Cancel; the page waits until you answer.`, text)
	case "prompt":
		return fmt.Sprintf(`A prompt is open: %s. answer_dialog {"accept":true,"text":"…"} answers it, {"accept":false} cancels it; the page waits until you answer.`, text)
	}
	return fmt.Sprintf(`A dialog is open: %s. answer_dialog {"accept":true} accepts it (add "text" to answer a prompt), {"accept":false} dismisses it; the page waits until you answer.`, text)
}

// dialog reads the open dialog, nil when there is none. The caller holds
// the lock.
func (s *Session) dialog() (*Dialog, error) {
	text, err := s.wd.AlertText()
	if err != nil {
		var se *selenium.Error
		if errors.As(err, &se) && se.Err == "no such alert" {
			if s.win.openIn == s.win.current {
				s.win.open = nil
			}
			return nil, nil
		}
		return nil, err
	}
	d := parseDialog(text)
	s.win.open, s.win.openIn = d, s.win.current
	return d, nil
}

// KnownDialog returns the dialog last seen open in the current window and
// not answered since, without asking the browser; nil when there is none.
func (s *Session) KnownDialog() *Dialog {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.win.open == nil || s.win.openIn != s.win.current {
		return nil
	}
	d := *s.win.open
	return &d
}

// Dialog returns the dialog open on the page, or nil when there is none.
func (s *Session) Dialog() (*Dialog, error) {
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("read dialog: %w", err)
	}
	defer s.mu.Unlock()
	d, err := s.dialog()
	if err != nil {
		return nil, s.fail("read dialog", err)
	}
	return d, nil
}

// ErrNoDialog is returned by AnswerDialog when no dialog is open.
var ErrNoDialog = errors.New("no dialog is open, so there is nothing to answer; an action whose result says a dialog opened is the time to call answer_dialog")

// AnswerDialog answers the open dialog: accept presses OK, otherwise
// Cancel. text, when not nil, is typed into a prompt first; a dialog of
// another type refuses it. It returns the dialog that was answered.
func (s *Session) AnswerDialog(accept bool, text *string) (Dialog, error) {
	op := "answer dialog"
	if err := s.begin(); err != nil {
		return Dialog{}, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	d, err := s.dialog()
	if err != nil {
		return Dialog{}, s.fail(op, err)
	}
	if d == nil {
		s.win.open = nil
		return Dialog{}, fmt.Errorf("%s: %w", op, ErrNoDialog)
	}
	notPrompt := safef(`%s: the open dialog is a%s %s, which takes no text; answer it with answer_dialog {"accept":true} or {"accept":false}`, op, article(d.Type), d.Type)
	if text != nil {
		if d.Type == "alert" || d.Type == "confirm" {
			return Dialog{}, notPrompt
		}
		// tebeka's SetAlertText sends the text base64-encoded: send it raw.
		if _, err := s.raw(context.Background(), "POST", "/alert/text", map[string]string{"text": *text}); err != nil {
			var se *selenium.Error
			if errors.As(err, &se) && se.Err == "element not interactable" {
				return Dialog{}, notPrompt
			}
			return Dialog{}, s.fail(op, err)
		}
	}
	answer := s.wd.DismissAlert
	if accept {
		answer = s.wd.AcceptAlert
	}
	if err := answer(); err != nil {
		return Dialog{}, s.fail(op, err)
	}
	s.win.dialog.Store(false)
	s.win.open = nil
	s.newDoc = true // answering may let the page navigate
	return *d, nil
}

func article(word string) string {
	if word != "" && strings.ContainsRune("aeiou", rune(word[0])) {
		return "n"
	}
	return ""
}
