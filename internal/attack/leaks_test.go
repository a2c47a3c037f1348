package attack_test

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
)

// TestNoLeakOverHTTP: a search page echoes a typed secret into its text,
// title, URL and markup. Over Streamable HTTP, everything a caller can
// then read — the tool results, the HTML print fetched through the read
// API (/files/…), session://current, and the server's log — is searched
// for the value in every form a reader could decode.
func TestNoLeakOverHTTP(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	const value = "L3ak Me!+@home/é"
	file := filepath.Join(t.TempDir(), "secrets")
	assert.NilError(t, os.WriteFile(file, []byte(auth.Local+" echo 127.0.0.1 "+value+"\n"), 0o600))
	hs := servertest.ServeHTTP(t, servertest.New(t, server.Config{Secrets: secrets.Sources{File: file}}))
	c := servertest.ConnectHTTP(t, hs.URL, servertest.Options{})

	var seen []string
	keep := func(s string) string { seen = append(seen, s); return s }
	keep(servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/echo"}))
	keep(servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"css": "#q"}, "secret": "echo", "submit": true}))
	keep(servertest.CallOK(t, c, "outline", nil))
	keep(servertest.CallOK(t, c, "read_text", nil))
	keep(servertest.CallOK(t, c, "print", map[string]any{"format": "html", "filename": "leak.html"}))
	keep(servertest.ReadText(t, c, "session://current"))
	status, _, body := servertest.Get(t, hs.Base+"/files/leak.html", nil)
	assert.Equal(t, status, 200)
	keep(string(body))
	keep(c.Stderr())

	jsonForm, _ := json.Marshal(value)
	forms := []string{
		value,
		url.QueryEscape(value),
		url.PathEscape(value),
		strings.ReplaceAll(url.QueryEscape(value), "+", "%20"),
		url.QueryEscape(url.QueryEscape(value)),
		strings.Trim(string(jsonForm), `"`),
		base64.StdEncoding.EncodeToString([]byte(value)),
		base64.URLEncoding.EncodeToString([]byte(value)),
		strings.NewReplacer("&", "&amp;", "+", "&#43;", "@", "&#64;", "!", "&#33;").Replace(value),
	}
	for _, text := range seen {
		for _, f := range forms {
			assert.Check(t, !strings.Contains(text, f), "%q shows in: %.300s", f, text)
		}
	}
}
