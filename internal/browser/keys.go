package browser

import (
	"encoding/json"
	"fmt"

	"github.com/tebeka/selenium"
)

// ErrFileInput is wrapped by the refusal of Write, Focus and Submit on an
// <input type=file>: typing there would hand the page a path on the
// browser's machine. Only Upload puts files into such an input.
var ErrFileInput = safef("it is a file input, which only upload_file fills (with a kept file from session://files); typing into it is refused")

// focusScript focuses arguments[0], unless it is a file input, and tells
// which: "file", "focused", or "unfocusable" (the page keeps the focus
// where it was, and keys go there).
const focusScript = `const el = arguments[0];
if (el instanceof HTMLInputElement && el.type === 'file') { return 'file'; }
el.focus();
return document.activeElement === el || el.contains(document.activeElement) ? 'focused' : 'unfocusable';`

// Focus moves the keyboard focus to the element loc addresses, for
// PressKey to press keys in it. A file input is refused (ErrFileInput).
func (s *Session) Focus(loc Locator) error {
	op := "focus " + loc.String()
	return s.withElement(op, loc, resolveOpts{}, func(el selenium.WebElement, _ resolved) error {
		v, err := s.execute(focusScript, []any{el})
		if err != nil {
			return s.fail(op, err)
		}
		var state string
		_ = json.Unmarshal(v, &state)
		switch state {
		case "file":
			return fmt.Errorf("%s: %w", op, ErrFileInput)
		case "unfocusable":
			return fmt.Errorf("%s: the element cannot take the keyboard focus; press keys in a field, button or link inside it", op)
		}
		return nil
	})
}

// submitScript submits the form of a textarea or an editable element
// (where Enter would add a line) as its submit button would, and answers
// "submitted"; for anything else it answers "enter": press Enter, which
// submits a form from a text field and is what pages without a form
// listen for.
const submitScript = `const el = arguments[0];
const multiline = el instanceof HTMLTextAreaElement || (el.isContentEditable && !(el instanceof HTMLInputElement));
const form = el.form || el.closest('form');
if (multiline && form) { form.requestSubmit(); return 'submitted'; }
return 'enter';`

// Submit submits what the element loc addresses belongs to: Enter in it,
// or, for a textarea or editable element in a form, the form itself. It
// waits for a navigation that starts, as Click does.
func (s *Session) Submit(loc Locator) error {
	op := "submit " + loc.String()
	submitted, err := func() (bool, error) {
		if err := s.begin(); err != nil {
			return false, fmt.Errorf("%s: %w", op, err)
		}
		defer s.mu.Unlock()
		el, r, err := s.resolveWith(loc, resolveOpts{Mark: true})
		if err != nil {
			return false, s.fail(op, err)
		}
		v, err := s.execute(submitScript, []any{el})
		if err != nil {
			return false, s.fail(op, err)
		}
		if string(v) != `"submitted"` {
			if _, err := s.execute(focusScript, []any{el}); err != nil {
				return false, s.fail(op, err)
			}
			return false, nil
		}
		if r.Marked {
			if err := s.settle(); err != nil {
				return true, fmt.Errorf("%s: %w", op, err)
			}
		}
		return true, nil
	}()
	if err != nil || submitted {
		return err
	}
	return s.PressKey("Enter")
}
