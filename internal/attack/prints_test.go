package attack_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestPrintsOfAPageShowingASecret: the caller's page echoes a typed
// secret into its text. A PDF print, whose text and links no redaction
// reaches, is refused with the way out; the HTML print is kept with the
// value gone in every form a reader could decode.
func TestPrintsOfAPageShowingASecret(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	const value = "Sp3c!al+P@ss w0rd"
	file := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(file, []byte(auth.Local+" echo 127.0.0.1 "+value+"\n"), 0o600))
	c := servertest.InProcess(t, servertest.New(t, server.Config{Secrets: secrets.Sources{File: file}}), servertest.Options{})

	// A search page that echoes its query into its text, title, URL and
	// markup.
	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/echo"})
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"css": "#q"}, "secret": "echo", "submit": true})
	servertest.CallOK(t, c, "wait_for", map[string]any{"locator": map[string]any{"role": "heading", "name": "Search"}})

	servertest.CallRefused(t, c, "print", map[string]any{"format": "pdf"}, "a PDF cannot be redacted safely", `"format": "html"`)
	out := servertest.CallOK(t, c, "print", map[string]any{"format": "html", "filename": "echo.html"})
	assert.Check(t, is.Contains(out, "session://files/echo.html"))
	kept := servertest.ReadText(t, c, "session://files/echo.html")
	assert.Check(t, is.Contains(kept, "Results for [secret echo]"))
	for _, form := range []string{value, url.QueryEscape(value), url.PathEscape(value), url.QueryEscape(url.QueryEscape(value)), strings.ReplaceAll(value, "@", "&#64;")} {
		assert.Check(t, !strings.Contains(kept, form), "the kept print holds the secret as %q", form)
	}
}
