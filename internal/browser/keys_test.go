package browser

import (
	"errors"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestKeysInAnElement: Focus then PressKey presses a chord in that field;
// Control+a selects what was typed, so the next key replaces it.
func TestKeysInAnElement(t *testing.T) {
	s := open(t, "/controls")
	assert.NilError(t, s.Write(Locator{Label: "Notes"}, "first draft", true))
	assert.NilError(t, s.Focus(Locator{Label: "Key catcher"}))
	assert.NilError(t, s.PressKey("x"))
	assert.NilError(t, s.Focus(Locator{Label: "Notes"}))
	assert.NilError(t, s.PressKey("Control+a"))
	assert.NilError(t, s.PressKey("z"))
	notes, err := s.Read(&Locator{Label: "Notes"}, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(notes.Text, "z"))
	keys, err := s.Read(&Locator{Label: "Key catcher"}, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(keys.Text, "x"))
	assert.NilError(t, s.PressKey("Shift+Tab"))
}

// TestFileInputsTakeNoKeys: Write and Focus refuse a file input, naming
// upload_file; the path is never typed.
func TestFileInputsTakeNoKeys(t *testing.T) {
	s := open(t, "/upload")
	err := s.Write(Locator{CSS: "#doc"}, "/etc/passwd", false)
	assert.Assert(t, errors.Is(err, ErrFileInput), "%v", err)
	assert.Check(t, is.Contains(err.Error(), "upload_file"))
	assert.Check(t, !is.Contains(err.Error(), "/etc/passwd")().Success())
	err = s.Focus(Locator{CSS: "#doc"})
	assert.Check(t, errors.Is(err, ErrFileInput), "%v", err)
	n, err := s.ExecuteScript("return document.querySelector('input[type=file]').files.length;", nil)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(string(n), "0"))
}

// TestSubmit: Enter in a text field submits its form.
func TestSubmit(t *testing.T) {
	s := open(t, "/login")
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "ada@example.com", true))
	assert.NilError(t, s.Submit(Locator{Label: "Email"}))
	title, err := s.Title()
	assert.NilError(t, err)
	assert.Check(t, is.Equal(title, "Welcome"))
}

// TestSubmitTextarea: a textarea's form is submitted as its button would,
// where Enter would add a line.
func TestSubmitTextarea(t *testing.T) {
	s := open(t, "/long")
	assert.NilError(t, s.Write(Locator{Label: "Comment"}, "line one", true))
	assert.NilError(t, s.Submit(Locator{Label: "Comment"}))
	out, err := s.Read(&Locator{CSS: "#comment-out"}, ReadOptions{})
	assert.NilError(t, err)
	assert.Check(t, is.Equal(out.Text, "sent: line one"), "submitted once, without a new line")
}
