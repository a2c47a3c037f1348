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

// TestSecretFragmentsStayHidden: the caller's page cuts a typed secret to
// its first six characters (maxlength) in a text field. The six
// characters are no longer the whole value, so redaction of the value
// alone would not hide them: the outline and read_text say the field is
// filled, never with what.
func TestSecretFragmentsStayHidden(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	const value = "Zq9rTx42pW-long-enough"
	file := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(file, []byte(auth.Local+" invite 127.0.0.1 "+value+"\n"), 0o600))
	c := servertest.InProcess(t, servertest.New(t, server.Config{Secrets: secrets.Sources{File: file}}), servertest.Options{})

	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login"})
	// The verification code field: type text, maxlength 6.
	servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"css": "#code"}, "secret": "invite"})

	out := servertest.CallOK(t, c, "outline", nil)
	assert.Check(t, is.Contains(out, `filled (6 characters)`))
	read := servertest.CallOK(t, c, "read_text", map[string]any{"locator": map[string]any{"css": "#code"}})
	assert.Check(t, is.Contains(read, "a secret was typed here"))
	for _, text := range []string{out, read} {
		assert.Check(t, !strings.Contains(text, value[:6]), "the fragment %q shows: %s", value[:6], text)
	}
}
