package browser

import (
	"errors"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// answerAny leaves the shared session without a dialog, whatever a failed
// test left open.
func answerAny(t *testing.T, s *Session) {
	t.Cleanup(func() { _, _ = s.AnswerDialog(false, nil) })
}

func said(t *testing.T, s *Session, want string) {
	t.Helper()
	assert.Check(t, s.Assert(Assertion{Visible: &Locator{CSS: "#said"}, TextPresent: want}))
}

// TestDialogs: alert, confirm (accepted and dismissed) and prompt (with
// text and cancelled) stay open after the click that opened them, block
// other commands with ErrDialog instead of waiting, are reported with
// their type and text, and answer as asked.
func TestDialogs(t *testing.T) {
	s := open(t, "/dialogs")
	answerAny(t, s)
	text := func(v string) *string { return &v }
	tests := []struct {
		button string
		want   Dialog
		accept bool
		text   *string
		said   string
	}{
		{"Alert", Dialog{"alert", "Saved!"}, true, nil, "alert closed"},
		{"Delete", Dialog{"confirm", "Delete the order?"}, true, nil, "deleted"},
		{"Delete", Dialog{"confirm", "Delete the order?"}, false, nil, "kept"},
		{"Name", Dialog{"prompt", "Your name?"}, true, text("Ann"), "hello Ann"},
		{"Name", Dialog{"prompt", "Your name?"}, true, nil, "hello Bob"},
		{"Name", Dialog{"prompt", "Your name?"}, false, text("Ann"), "no name"},
	}
	for _, tc := range tests {
		err := s.Click(Locator{Role: "button", Name: tc.button})
		assert.Assert(t, err == nil || errors.Is(err, ErrDialog), "%v", err)
		_, err = s.Title()
		assert.Check(t, errors.Is(err, ErrDialog), "a command meets the dialog at once: %v", err)
		assert.Check(t, is.ErrorContains(err, "is open and blocks the page; session://current shows its text, and answer_dialog answers it"))
		ev := s.TakeEvents()
		assert.Assert(t, ev.Dialog != nil, "the dialog is reported")
		assert.Check(t, is.DeepEqual(*ev.Dialog, tc.want))
		assert.Check(t, is.DeepEqual(s.KnownDialog(), &tc.want))
		got, err := s.AnswerDialog(tc.accept, tc.text)
		assert.NilError(t, err)
		assert.Check(t, is.DeepEqual(got, tc.want))
		assert.Check(t, s.KnownDialog() == nil)
		said(t, s, tc.said)
	}

	// Text is for prompts only; nothing to answer is said so.
	assert.NilError(t, ignoreDialog(s.Click(Locator{Role: "button", Name: "Delete"})))
	_, err := s.AnswerDialog(true, text("x"))
	assert.Check(t, is.ErrorContains(err, `the open dialog is a confirm, which takes no text; answer it with answer_dialog {"accept":true} or {"accept":false}`))
	_, err = s.AnswerDialog(false, nil)
	assert.NilError(t, err)
	_, err = s.AnswerDialog(true, nil)
	assert.Check(t, errors.Is(err, ErrNoDialog))

	// Two alerts in a row: answering the first opens the second.
	assert.NilError(t, ignoreDialog(s.Click(Locator{Role: "button", Name: "Two alerts"})))
	d, err := s.Dialog()
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(d, &Dialog{"alert", "First"}))
	_, err = s.AnswerDialog(true, nil)
	assert.NilError(t, err)
	d, err = s.Dialog()
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(d, &Dialog{"alert", "Second"}))
	_, err = s.AnswerDialog(true, nil)
	assert.NilError(t, err)
	said(t, s, "both seen")
	d, err = s.Dialog()
	assert.NilError(t, err)
	assert.Check(t, d == nil)
}

// TestDialogOnLoad: a page that opens an alert while it loads does not
// hold the navigation; the alert is reported and, once answered, the page
// finishes loading.
func TestDialogOnLoad(t *testing.T) {
	s := open(t, "/dialogs")
	answerAny(t, s)
	assert.NilError(t, ignoreDialog(s.Navigate(page("/dialogs/greet"))))
	// On a loaded machine the navigation can be answered a moment before
	// the alert is up.
	var d *Dialog
	testenv.Eventually(t, "the page's alert", func() bool {
		d, _ = s.Dialog()
		return d != nil
	})
	assert.Check(t, is.DeepEqual(d, &Dialog{"alert", "Welcome back"}))
	_, err := s.AnswerDialog(true, nil)
	assert.NilError(t, err)
	title, err := s.Title()
	assert.NilError(t, err)
	assert.Check(t, is.Equal(title, "Greeting · Acme"))
}

func ignoreDialog(err error) error {
	if errors.Is(err, ErrDialog) {
		return nil
	}
	return err
}

// TestBeforeUnload: leaving a page whose beforeunload handler asks to stay
// never waits on the question. Headless Chromium (148) does not raise the
// beforeunload prompt under WebDriver: the page is left, by a link and by
// navigate alike, and no dialog is reported. Were a prompt raised, it
// would be reported and answered as any other dialog (TestDialogs).
func TestBeforeUnload(t *testing.T) {
	s := open(t, "/dialogs")
	answerAny(t, s)
	for _, leave := range []struct {
		name string
		do   func() error
	}{
		{"link", func() error { return s.Click(Locator{Role: "link", Name: "Leave"}) }},
		{"navigate", func() error { return s.Navigate(page("/article")) }},
	} {
		t.Run(leave.name, func(t *testing.T) {
			assert.NilError(t, s.Navigate(page("/dialogs")))
			assert.NilError(t, s.Click(Locator{Role: "button", Name: "Keep me here"}))
			said(t, s, "armed")
			err := leave.do()
			if errors.Is(err, ErrDialog) {
				d, derr := s.Dialog()
				assert.NilError(t, derr)
				assert.Assert(t, d != nil)
				_, err = s.AnswerDialog(true, nil)
			}
			assert.NilError(t, err)
			u, err := s.CurrentURL()
			assert.NilError(t, err)
			assert.Check(t, is.Equal(u, page("/article")))
		})
	}
}
