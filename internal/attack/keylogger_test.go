package attack_test

import (
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

// TestNoKeyloggerBeforeASecret: a model under prompt injection first runs
// a script that records every key the page receives (into window.name,
// which outlives the page), then asks for a secret to be typed. The
// secret is not typed into a page a caller's script ran in; once the
// session loads the page again the listener is gone, the secret is typed,
// and what the script kept holds none of it.
func TestNoKeyloggerBeforeASecret(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	const value = "Kl9-v4lue-typed-by-the-server"
	file := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(file, []byte(auth.Local+" pw 127.0.0.1 "+value+"\n"), 0o600))
	c := servertest.InProcess(t, servertest.New(t, server.Config{Secrets: secrets.Sources{File: file}}), servertest.Options{})

	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login"})
	servertest.CallOK(t, c, "execute_script", map[string]any{"script": `window.name = "keys:"; document.addEventListener("keydown", e => { window.name += e.key.split("").reverse().join("") + "|"; }, true); return true`})
	password := map[string]any{"css": "#password"}
	servertest.CallRefused(t, c, "write", map[string]any{"locator": password, "secret": "pw"}, "a script ran in this page", "navigate")

	servertest.CallOK(t, c, "navigate", map[string]any{"refresh": true})
	out := servertest.CallOK(t, c, "write", map[string]any{"locator": password, "secret": "pw"})
	assert.Check(t, is.Contains(out, `Typed the secret "pw"`))
	// The recording is read back the only way left once the secret is
	// in the field: by sending the form, whose next page has no field.
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"css": "#email"}, "text": "ada@example.com"})
	servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Sign in"}})
	servertest.CallOK(t, c, "wait_for", map[string]any{"locator": map[string]any{"role": "heading", "name": "Dashboard"}})
	kept := servertest.CallOK(t, c, "execute_script", map[string]any{"script": `return window.name`})
	assert.Check(t, is.Contains(kept, "keys:"), "the recording outlived the reload: %s", kept)
	assert.Check(t, !strings.Contains(kept, "|"), "the listener heard keys after the reload: %s", kept)
}
