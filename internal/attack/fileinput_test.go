package attack_test

import (
	"net/url"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestNoServerFileReachesAFileInput: a caller's own page holds a file
// input whose change handler would print the chosen file. write, press_key
// (focused on it, or with the input focused by the page) and a script all
// try to put a server path in it; each is refused or does nothing, and
// the page never holds the file's text. Only upload_file sets a file, and
// only from the caller's own kept files.
func TestNoServerFileReachesAFileInput(t *testing.T) {
	servertest.NeedBrowser(t)
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{})
	page := `<title>pick</title><input type=file id=f autofocus>
<pre id=out></pre>
<script>f.onchange = () => f.files[0].text().then(t => out.textContent = t)</script>`
	servertest.CallOK(t, c, "open_session", map[string]any{"url": "data:text/html," + url.PathEscape(page)})
	input := map[string]any{"css": "#f"}

	servertest.CallRefused(t, c, "write", map[string]any{"locator": input, "text": "/etc/passwd"}, "upload_file")
	servertest.CallRefused(t, c, "press_key", map[string]any{"locator": input, "key": "Enter"}, "upload_file")
	// The page itself focused the input: keys typed without a locator go
	// to the page, never into the file chooser.
	_ = servertest.Call(t, c, "press_key", map[string]any{"key": "/"})
	// A script cannot set a path on a file input at all.
	_ = servertest.Call(t, c, "execute_script", map[string]any{"script": `document.getElementById("f").value = "/etc/passwd"; return document.getElementById("f").files.length`})
	servertest.CallRefused(t, c, "upload_file", map[string]any{"locator": input, "kept": "../../../../etc/passwd"})

	got := servertest.CallOK(t, c, "read_text", nil)
	for _, leak := range []string{"root:", "/bin/", "daemon"} {
		assert.Check(t, !strings.Contains(got, leak), "the page shows a server file (%q): %s", leak, got)
	}
	n := servertest.CallOK(t, c, "execute_script", map[string]any{"script": `return document.getElementById("f").files.length`})
	assert.Check(t, strings.Contains(n, "0"), "the file input holds a file: %s", n)
}
