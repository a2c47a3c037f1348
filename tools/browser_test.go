package tools_test

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/png"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// The page tools are driven here through mcp-go's clients against the
// server value in process (internal/servertest), in process and over
// Streamable HTTP, with real Chromium on the fixture site; the binary's
// transports have their smoke tests in internal/server. A Chromium session
// costs about 0.3 s and 150 MiB (far more on a loaded machine), so each
// transport shares one server and one session across its sequential
// subtests.

// The secret typed into the login form, bound to the fixture's host, and
// one bound to another site.
const (
	ptPagePassword = "Tr1cky-Pa55word!"
	ptOtherSecret  = "elsewhere-value-42"
)

// ptPageRig is one in-process server with the mirror on (Resources off),
// a client, the fixture site, and the HTTP base ("" in process).
type ptPageRig struct {
	c    *servertest.Client
	site string
	base string
}

// ptSecretsFile writes a FLOW_SECRETS file for principal.
func ptSecretsFile(t *testing.T, principal string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "secrets")
	body := principal + " pw 127.0.0.1 " + ptPagePassword + "\n" + principal + " elsewhere example.com " + ptOtherSecret + "\n"
	assert.NilError(t, os.WriteFile(f, []byte(body), 0o600))
	return f
}

func ptStartRig(t *testing.T, tr servertest.Transport, site string) *ptPageRig {
	t.Helper()
	srv := servertest.New(t, server.Config{Resources: surface.Off, Secrets: secrets.Sources{File: ptSecretsFile(t, auth.Local)}})
	if tr == servertest.HTTP {
		hs := servertest.ServeHTTP(t, srv)
		return &ptPageRig{c: servertest.ConnectHTTP(t, hs.URL, servertest.Options{}), site: site, base: hs.Base}
	}
	return &ptPageRig{c: servertest.Local(t, srv, tr, servertest.Options{}), site: site}
}

// ptHTTPGet fetches url with an optional bearer token.
func ptHTTPGet(t *testing.T, url, token string) (int, http.Header, []byte) {
	t.Helper()
	h := http.Header{}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	return servertest.Get(t, url, h)
}

var ptKeptRE = regexp.MustCompile(`Kept as session://files/(\S+) \(([^,]+), (\d+) bytes\)`)

// ptKept reads the kept file's name, type and size out of a tool's text.
func ptKept(t *testing.T, text string) (name, mime string, size int) {
	t.Helper()
	m := ptKeptRE.FindStringSubmatch(text)
	assert.Assert(t, m != nil, "no kept file in %q", text)
	size, _ = strconv.Atoi(m[3])
	return m[1], m[2], size
}

// ptOutlineLocator is a locator as outline prints it: key:value pairs from
// the first locator key on a line, and a within:(…) nested up to twice
// (the element's kind word before it, and its name and state words after
// it, are not part of it).
var ptOutlineLocator = regexp.MustCompile(`(?:^|\s)((?:(?:(?:css|xpath|text|label|role|name|nth):(?:"(?:[^"\\]|\\.)*"|[^\s"()]+)|[a-z]+:"(?:[^"\\]|\\.)*"|within:\((?:[^()"]|"(?:[^"\\]|\\.)*"|\((?:[^()"]|"(?:[^"\\]|\\.)*")*\))*\))(?:\s|$))+)`)

// ptLocatorFor returns the locator outline printed on the one line that
// contains marker.
func ptLocatorFor(t *testing.T, outline, marker string) string {
	t.Helper()
	var found []string
	for _, line := range strings.Split(outline, "\n") {
		if strings.Contains(line, marker) {
			found = append(found, line)
		}
	}
	assert.Assert(t, is.Len(found, 1), "lines with %q in:\n%s", marker, outline)
	m := ptOutlineLocator.FindStringSubmatch(found[0])
	assert.Assert(t, m != nil, "no locator on %q", found[0])
	return strings.TrimSpace(m[1])
}

// ptPngSize decodes a PNG's dimensions.
func ptPngSize(t *testing.T, data []byte) (int, int) {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	assert.NilError(t, err)
	return cfg.Width, cfg.Height
}

func ptImageOf(t *testing.T, r *mcp.CallToolResult) []byte {
	t.Helper()
	for _, c := range r.Content {
		if im, isImage := c.(mcp.ImageContent); isImage {
			assert.Equal(t, im.MIMEType, "image/png")
			data, err := base64.StdEncoding.DecodeString(im.Data)
			assert.NilError(t, err)
			return data
		}
	}
	t.Fatalf("no image content in %+v", r.Content)
	return nil
}

// ptLongBase64 finds a run of base64 long enough to be file content.
var ptLongBase64 = regexp.MustCompile(`[A-Za-z0-9+/]{80,}={0,2}`)

// TestPageTools: every page tool's success and refusal, on an in-process
// server over Streamable HTTP (where kept files are also fetched over GET
// /files/{name}), on one session. The tools' logic does not depend on the
// transport, and a Chromium session is the costliest thing a test makes:
// the in-process client drives pages in the driver-killed and flow tests,
// and the binary's transports are internal/server's TestSmoke.
func TestPageTools(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	for _, tr := range []servertest.Transport{servertest.HTTP} {
		t.Run(string(tr), func(t *testing.T) {
			rig := ptStartRig(t, tr, site)
			c := rig.c
			var pdfName string
			var pdfSize int

			t.Run("before open_session", func(t *testing.T) {
				var cur sessions.Current
				servertest.MirrorJSON(t, c, "session://current", &cur)
				assert.Check(t, is.Equal(cur.State, "closed"))
				assert.Check(t, is.Contains(cur.Next, "open_session"))
				for tool, args := range map[string]map[string]any{
					"navigate":    {"url": site + "/login"},
					"outline":     {},
					"click":       {"locator": map[string]any{"text": "Sign in"}},
					"write":       {"locator": map[string]any{"label": "Email"}, "text": "x"},
					"press_key":   {"key": "Enter"},
					"select":      {"locator": map[string]any{"label": "Size"}, "option": "Large"},
					"wait_for":    {"text": "x", "timeout": 1},
					"assert":      {"text": "x"},
					"screenshot":  {},
					"print":       {"format": "pdf"},
					"upload_file": {"locator": map[string]any{"label": "Document"}, "kept": "x.pdf"},
				} {
					servertest.CallRefused(t, c, tool, args, "No browser session is open", "Call open_session")
				}
				assert.Check(t, is.Contains(servertest.CallOK(t, c, "close_session", nil), "nothing to close"))
			})

			t.Run("open_session", func(t *testing.T) {
				for _, bad := range []map[string]any{
					{"window": "big"},
					{"window": "390x"},
					{"window": "99999x800"},
				} {
					servertest.CallRefused(t, c, "open_session", bad, "window", "Pass e.g. 1280x800")
				}
				servertest.CallRefused(t, c, "open_session", map[string]any{"browser": "netscape"}, `"chrome"`)
				servertest.CallRefused(t, c, "open_session", map[string]any{"url": "example.com/login"}, "not an absolute http or https URL", "scheme included")

				text := servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login", "window": "390x844"})
				assert.Check(t, is.Contains(text, "Opened a new browser session"))
				assert.Check(t, is.Contains(text, `"Sign in · Acme" at `+site+"/login"))
				var cur sessions.Current
				servertest.MirrorJSON(t, c, "session://current", &cur)
				assert.Check(t, is.Equal(cur.State, "live"))
				assert.Check(t, is.Equal(cur.URL, site+"/login"))
				assert.Check(t, is.Equal(cur.Title, "Sign in · Acme"))
				assert.Check(t, is.Equal(cur.Endpoint, "local chromedriver"))
				assert.Assert(t, cur.Window != nil)
				assert.Check(t, is.Equal(cur.Window.Width, 390))
				assert.Check(t, is.Equal(cur.Window.Height, 844))

				// The viewport really is 390x844.
				w, h := ptPngSize(t, ptImageOf(t, servertest.Call(t, c, "screenshot", map[string]any{"filename": "phone.png"})))
				assert.Check(t, is.Equal(w, 390))
				assert.Check(t, is.Equal(h, 844))

				again := servertest.CallOK(t, c, "open_session", map[string]any{"window": "1280x800"})
				assert.Check(t, is.Contains(again, "already open and is kept as it was"))
				assert.Check(t, is.Contains(again, "close_session"))
			})

			t.Run("navigate", func(t *testing.T) {
				servertest.CallRefused(t, c, "navigate", map[string]any{"url": site + "/article", "back": true}, "exactly one of url, back, forward or refresh", `{"back": true}`)
				servertest.CallRefused(t, c, "navigate", map[string]any{}, "exactly one of")
				servertest.CallRefused(t, c, "navigate", map[string]any{"url": "example.com"}, "not an absolute http or https URL")

				assert.Check(t, is.Contains(servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/article"}), "at "+site+"/article"))
				assert.Check(t, is.Contains(servertest.CallOK(t, c, "navigate", map[string]any{"back": true}), "Went back. The page is now \"Sign in · Acme\" at "+site+"/login"))
				assert.Check(t, is.Contains(servertest.CallOK(t, c, "navigate", map[string]any{"forward": true}), "Went forward. The page is now"))
				assert.Check(t, is.Contains(servertest.CallOK(t, c, "navigate", map[string]any{"refresh": true}), "Reloaded. The page is now"))
				assert.Check(t, is.Contains(servertest.CallOK(t, c, "navigate", map[string]any{"refresh": true}), site+"/article"))
			})

			t.Run("outline and write", func(t *testing.T) {
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/login"})
				out := servertest.CallOK(t, c, "outline", nil)
				assert.Check(t, is.Contains(out, `page "Sign in · Acme"`))
				email := ptLocatorFor(t, out, `"Email"`)
				password := ptLocatorFor(t, out, `"Password"`)
				remember := ptLocatorFor(t, out, `Remember me`)
				signIn := ptLocatorFor(t, out, `button:"Sign in"`)
				// A stable id comes before the label; the name follows it.
				assert.Check(t, is.Equal(email, `css:#email`))

				servertest.CallRefused(t, c, "write", map[string]any{"locator": password}, "exactly one of text or secret", "secret://secrets")
				servertest.CallRefused(t, c, "write", map[string]any{"locator": password, "secret": "nope"},
					`no secret named "nope"`, "elsewhere, pw", "secret://secrets")
				servertest.CallRefused(t, c, "write", map[string]any{"locator": password, "secret": "elsewhere"},
					`"elsewhere"`, "may only be typed on example.com", "Navigate to that site first")
				servertest.CallRefused(t, c, "write", map[string]any{"locator": `label:"Pasword"`, "text": "x"}, "no element matches", `nearest on the page: label:"Password"`, "outline")

				servertest.CallOK(t, c, "write", map[string]any{"locator": email, "text": "alice@example.com"})
				// A password typed as text is not shown either.
				servertest.CallOK(t, c, "write", map[string]any{"locator": password, "text": "plain-typed-pw-77"})
				assert.Check(t, !strings.Contains(servertest.CallOK(t, c, "outline", nil), "plain-typed-pw-77"))
				typed := servertest.CallOK(t, c, "write", map[string]any{"locator": password, "secret": "pw"})
				assert.Check(t, is.Contains(typed, `Typed the secret "pw"`))
				assert.Check(t, !strings.Contains(typed, ptPagePassword))
				after := servertest.CallOK(t, c, "outline", nil)
				assert.Check(t, !strings.Contains(after, ptPagePassword))
				assert.Check(t, is.Contains(after, `password css:#password "Password" filled`))
				html := servertest.CallOK(t, c, "print", map[string]any{"format": "html", "filename": "login-filled"})
				name, mime, _ := ptKept(t, html)
				assert.Check(t, is.Equal(mime, "text/html"))
				saved := servertest.MirrorRead(t, c, sessions.FileURI(name))
				assert.Assert(t, !saved.IsError, servertest.Text(saved))
				assert.Check(t, is.Contains(servertest.Text(saved), `<form id="login"`))
				assert.Check(t, !strings.Contains(servertest.Text(saved), ptPagePassword))

				servertest.CallOK(t, c, "click", map[string]any{"locator": remember})
				servertest.CallOK(t, c, "click", map[string]any{"locator": signIn})
				servertest.CallOK(t, c, "wait_for", map[string]any{"text": "Welcome alice@example.com", "timeout": 10})
				servertest.CallOK(t, c, "assert", map[string]any{"title": "^Welcome$"})
				// A failed check shows the caller's own page URL as it is:
				// only the server's addresses are hidden.
				servertest.CallRefused(t, c, "assert", map[string]any{"url": "/nowhere$"}, rig.site+"/login")
				for _, arg := range []string{"url", "title"} {
					text := servertest.CallRefused(t, c, "assert", map[string]any{arg: "Order (3"}, "assert's "+arg+" is not a valid regular expression", "Escape the special characters")
					assert.Check(t, !strings.Contains(text, "_matches"), "the refusal names an argument assert has not: %s", text)
				}
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Password digest: " + fixtures.PasswordDigest(ptPagePassword)})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Remember me: 1"})
			})

			t.Run("click", func(t *testing.T) {
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/controls"})
				out := servertest.CallOK(t, c, "outline", nil)
				servertest.CallOK(t, c, "click", map[string]any{"locator": ptLocatorFor(t, out, `button:"Save" within:(css:#draft-2)`)})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "saved second"})
				servertest.CallOK(t, c, "click", map[string]any{"locator": ptLocatorFor(t, out, `Clickable card`)})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "card clicked"})
				servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Save", "within": map[string]any{"css": "#draft-1"}}})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "saved first"})

				servertest.CallRefused(t, c, "click", map[string]any{"locator": map[string]any{"text": "No such thing"}},
					`no element matches text:"No such thing"`, "call outline")
				servertest.CallRefused(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Save"}},
					"2 elements match", "add nth (1..2) or within")
				servertest.CallRefused(t, c, "click", map[string]any{}, "locator")
				servertest.CallRefused(t, c, "click", map[string]any{"locator": "nonsense"}, "not a locator", "outline")

				// The admin table is summarised, yet a row's controls are
				// addressable as the outline says.
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/admin"})
				admin := servertest.CallOK(t, c, "outline", nil)
				assert.Check(t, is.Contains(admin, "rows:120"))
				edit := ptLocatorFor(t, admin, `button:"Edit" nth:`)
				assert.Check(t, is.Equal(edit, `button:"Edit" nth:1..120`))
				servertest.CallOK(t, c, "click", map[string]any{"locator": strings.Replace(edit, "nth:1..120", "nth:77", 1)})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Editing "})
				servertest.CallOK(t, c, "click", map[string]any{"locator": `button:"Delete" within:(row:"Barbara Liskov 3")`})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Deleted Barbara Liskov 3"})
				servertest.CallOK(t, c, "click", map[string]any{"locator": ptLocatorFor(t, admin, `"Add user"`)})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "New user form opened"})
				servertest.CallOK(t, c, "assert", map[string]any{"locator": map[string]any{"css": "#users tbody tr"}, "count": 119})
			})

			t.Run("press_key", func(t *testing.T) {
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/controls"})
				servertest.CallOK(t, c, "write", map[string]any{"locator": map[string]any{"label": "Key catcher"}, "text": "abc"})
				servertest.CallOK(t, c, "press_key", map[string]any{"key": "Enter"})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Last key: Enter"})
				servertest.CallOK(t, c, "press_key", map[string]any{"key": "Control+a"})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Last key: Control+a"})
				servertest.CallRefused(t, c, "press_key", map[string]any{"key": "Hyper"}, `unknown key "Hyper"`, "Enter, Tab, Escape", `"Control+a"`)
				servertest.CallRefused(t, c, "press_key", map[string]any{}, "key")
			})

			t.Run("select", func(t *testing.T) {
				out := servertest.CallOK(t, c, "outline", nil)
				size := ptLocatorFor(t, out, `options:"Small|Medium|Large`)
				assert.Check(t, is.Contains(servertest.CallOK(t, c, "select", map[string]any{"locator": size, "option": "Large"}), `Selected "Large"`))
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Chosen size: l"})
				servertest.CallOK(t, c, "select", map[string]any{"locator": size, "option": "s"})
				servertest.CallOK(t, c, "assert", map[string]any{"text": "Chosen size: s"})
				servertest.CallRefused(t, c, "select", map[string]any{"locator": size, "option": "Huge"},
					"no such option", `"Small", "Medium", "Large", "Extra large"`)
				servertest.CallRefused(t, c, "select", map[string]any{"locator": map[string]any{"label": "Key catcher"}, "option": "x"}, `label:"Key catcher"`)
			})

			t.Run("wait_for", func(t *testing.T) {
				servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Start"}})
				servertest.CallOK(t, c, "wait_for", map[string]any{"locator": map[string]any{"role": "button", "name": "Continue"}, "url": "#ready", "timeout": 5})
				text := servertest.CallRefused(t, c, "wait_for", map[string]any{"text": "Never shown", "timeout": 1}, `waited 1s for the text "Never shown"`, "not on the page")
				// It shows where the page is: the caller's own page, not the driver.
				assert.Check(t, is.Contains(text, `the page is "Controls" at `+site+"/controls#ready"))
				servertest.CallRefused(t, c, "wait_for", map[string]any{"locator": map[string]any{"css": "#nope"}, "timeout": 0.5}, "css:#nope")
				servertest.CallRefused(t, c, "wait_for", map[string]any{}, "needs something to wait for", `{"text": "Welcome"}`)
				servertest.CallRefused(t, c, "wait_for", map[string]any{"text": "x", "timeout": 1000}, "outside 0–120 seconds", "Pass e.g. 10")
			})

			t.Run("assert", func(t *testing.T) {
				servertest.CallOK(t, c, "assert", map[string]any{
					"title": "^Controls$", "url": "/controls", "text": "Chosen size",
					"locator": map[string]any{"role": "button", "name": "Start"},
				})
				servertest.CallOK(t, c, "assert", map[string]any{"locator": map[string]any{"role": "button", "name": "Save"}, "count": 2})
				servertest.CallRefused(t, c, "assert", map[string]any{"title": "^Nope$", "text": "Absent words"},
					`the title "Controls" does not match "^Nope$"`, `the text "Absent words" is not on the page`)
				servertest.CallRefused(t, c, "assert", map[string]any{"locator": map[string]any{"role": "button", "name": "Save"}, "count": 3}, "3", "2")
				servertest.CallRefused(t, c, "assert", map[string]any{"locator": map[string]any{"role": "button", "name": "Secret action"}}, "hidden")
				servertest.CallRefused(t, c, "assert", map[string]any{}, "needs something to check", `{"text": "Order placed"}`)
				servertest.CallRefused(t, c, "assert", map[string]any{"count": 1}, "count needs a locator")
			})

			t.Run("screenshot", func(t *testing.T) {
				r := servertest.Call(t, c, "screenshot", map[string]any{"filename": "controls"})
				assert.Assert(t, !r.IsError, servertest.Text(r))
				img := ptImageOf(t, r)
				name, mime, size := ptKept(t, servertest.Text(r))
				assert.Check(t, is.Equal(name, "controls.png"))
				assert.Check(t, is.Equal(mime, "image/png"))
				assert.Check(t, is.Equal(size, len(img)))

				// Through the mirror a kept PNG comes back as an image.
				m := servertest.MirrorRead(t, c, sessions.FileURI(name))
				assert.Assert(t, !m.IsError, servertest.Text(m))
				assert.Check(t, bytes.Equal(ptImageOf(t, m), img))
				var shots sessions.Folder
				servertest.MirrorJSON(t, c, "session://files/screenshots", &shots)
				var names []string
				for _, f := range shots.Files {
					names = append(names, f.Name)
				}
				assert.Check(t, is.Contains(names, "controls.png"))

				el := servertest.Call(t, c, "screenshot", map[string]any{"locator": map[string]any{"css": "#drafts"}})
				assert.Assert(t, !el.IsError, servertest.Text(el))
				ew, _ := ptPngSize(t, ptImageOf(t, el))
				assert.Check(t, ew < 390)
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/article"})
				full := servertest.Call(t, c, "screenshot", map[string]any{"full_page": true})
				assert.Assert(t, !full.IsError, servertest.Text(full))
				_, fh := ptPngSize(t, ptImageOf(t, full))
				assert.Check(t, fh > 844, "full page height %d", fh)

				servertest.CallRefused(t, c, "screenshot", map[string]any{"filename": "../escape.png"}, "name")
				servertest.CallRefused(t, c, "screenshot", map[string]any{"locator": map[string]any{"css": "#nope"}}, "no element matches", "outline")
			})

			t.Run("print", func(t *testing.T) {
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/controls"})
				text := servertest.CallOK(t, c, "print", map[string]any{"format": "pdf", "filename": "controls", "background": true})
				var mime string
				pdfName, mime, pdfSize = ptKept(t, text)
				assert.Check(t, is.Equal(pdfName, "controls.pdf"))
				assert.Check(t, is.Equal(mime, "application/pdf"))
				// A link only where something answers it: over HTTP a
				// signed one, in process (as over stdio) the URI alone.
				if rig.base != "" {
					assert.Check(t, is.Contains(text, "/files/controls.pdf?"))
				} else {
					assert.Check(t, !strings.Contains(text, "/files/"), text)
				}

				// The PDF itself: natively on both transports, and over
				// GET /files/{name} on HTTP.
				data := servertest.ReadBlob(t, c, sessions.FileURI(pdfName))
				assert.Check(t, bytes.HasPrefix(data, []byte("%PDF")))
				assert.Check(t, is.Equal(len(data), pdfSize))
				if rig.base != "" {
					code, hdr, body := ptHTTPGet(t, rig.base+sessions.FileLink(pdfName), "")
					assert.Check(t, is.Equal(code, http.StatusOK))
					assert.Check(t, is.Equal(hdr.Get("Content-Type"), "application/pdf"))
					assert.Check(t, bytes.HasPrefix(body, []byte("%PDF")), "%q", body[:min(len(body), 20)])
					assert.Check(t, is.Equal(len(body), pdfSize))
				}

				// Through the mirror a PDF is described, never base64.
				m := servertest.MirrorRead(t, c, sessions.FileURI(pdfName))
				assert.Assert(t, !m.IsError, servertest.Text(m))
				assert.Check(t, is.Len(m.Content, 1))
				desc := servertest.Text(m)
				assert.Check(t, is.Contains(desc, "application/pdf"))
				assert.Check(t, is.Contains(desc, strconv.Itoa(pdfSize)+" bytes"))
				if rig.base != "" {
					assert.Check(t, is.Contains(desc, "/files/controls.pdf?"))
				}
				assert.Check(t, !ptLongBase64.MatchString(desc), "base64 in %q", desc)
				assert.Check(t, !strings.Contains(desc, "JVBER"), "the PDF's base64 in %q", desc)

				htmlText := servertest.CallOK(t, c, "print", map[string]any{"format": "html"})
				name, mime, _ := ptKept(t, htmlText)
				assert.Check(t, is.Equal(mime, "text/html"))
				page := servertest.MirrorRead(t, c, sessions.FileURI(name))
				assert.Check(t, is.Contains(servertest.Text(page), "<title>Controls</title>"))
				assert.Check(t, is.Contains(servertest.Text(page), `id="chosen"`))

				servertest.CallRefused(t, c, "print", map[string]any{"format": "png"}, `"pdf" or "html"`)
			})

			t.Run("upload_file", func(t *testing.T) {
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/upload"})
				doc := ptLocatorFor(t, servertest.CallOK(t, c, "outline", nil), `file css:#doc "Document"`)
				servertest.CallRefused(t, c, "upload_file", map[string]any{"locator": doc, "kept": "missing.pdf"},
					`no file named "missing.pdf"`, `"controls.pdf"`, "session://files")
				put := servertest.CallOK(t, c, "upload_file", map[string]any{"locator": doc, "kept": "prints/" + pdfName})
				assert.Check(t, is.Contains(put, "submit the form"))
				assert.Check(t, !strings.Contains(put, "/tmp"))
				// A click that submits a form may return before the next page
				// has loaded: wait_for is the documented way to be sure.
				servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "button", "name": "Upload"}})
				servertest.CallOK(t, c, "wait_for", map[string]any{"text": "Uploaded doc: " + pdfName + " (" + strconv.Itoa(pdfSize) + " bytes)", "timeout": 10})
			})

			t.Run("downloads", func(t *testing.T) {
				servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/download"})
				link := ptLocatorFor(t, servertest.CallOK(t, c, "outline", nil), "Download report")
				servertest.CallOK(t, c, "click", map[string]any{"locator": link})
				var dl sessions.Folder
				servertest.MirrorJSON(t, c, "session://files/downloads", &dl)
				assert.Assert(t, is.Len(dl.Files, 1), "%+v", dl)
				assert.Check(t, is.Equal(dl.Files[0].Name, "report.csv"))
				assert.Check(t, is.Equal(dl.Files[0].Size, int64(len(fixtures.ReportCSV))))
				csv := servertest.MirrorRead(t, c, dl.Files[0].URI)
				assert.Check(t, is.Equal(servertest.Text(csv), fixtures.ReportCSV))
				if rig.base != "" {
					code, _, body := ptHTTPGet(t, rig.base+dl.Files[0].Link, "")
					assert.Check(t, is.Equal(code, http.StatusOK))
					assert.Check(t, is.Equal(string(body), fixtures.ReportCSV))
				}
			})

			t.Run("close_session", func(t *testing.T) {
				assert.Check(t, is.Contains(servertest.CallOK(t, c, "close_session", nil), "Closed your workspace's browser"))
				var cur sessions.Current
				servertest.MirrorJSON(t, c, "session://current", &cur)
				assert.Check(t, is.Equal(cur.State, "closed"))
				servertest.CallRefused(t, c, "outline", nil, "Call open_session")
				var all sessions.FileList
				servertest.MirrorJSON(t, c, "session://files", &all)
				assert.Check(t, len(all.Files) >= 5, "kept files: %+v", all.Files)
			})
		})
	}
}

// TestPageToolsIsolation: over HTTP, two principals share one server but
// never a browser or a file.
func TestPageToolsIsolation(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	const aliceToken, bobToken = "alice-token-0123456789abcdef", "bob-token-0123456789abcdef"
	tokens := filepath.Join(t.TempDir(), "tokens")
	assert.NilError(t, os.WriteFile(tokens, []byte(aliceToken+" alice\n"+bobToken+" bob\n"), 0o600))
	toks, err := auth.LoadTokens(tokens)
	assert.NilError(t, err)
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{Resources: surface.Off, Tokens: toks}))
	as := func(token string) *servertest.Client {
		return servertest.ConnectHTTP(t, srv.URL, servertest.Options{Headers: map[string]string{"Authorization": "Bearer " + token}})
	}
	alice, bob := as(aliceToken), as(bobToken)

	servertest.CallOK(t, alice, "open_session", map[string]any{"url": site + "/login"})
	shot := servertest.Call(t, alice, "screenshot", map[string]any{"filename": "alice-login"})
	assert.Assert(t, !shot.IsError, servertest.Text(shot))
	name, _, _ := ptKept(t, servertest.Text(shot))
	uri := sessions.FileURI(name)

	var cur sessions.Current
	servertest.MirrorJSON(t, bob, "session://current", &cur)
	assert.Check(t, is.Equal(cur.Principal, "bob"))
	assert.Check(t, is.Equal(cur.State, "closed"))
	assert.Check(t, is.Equal(cur.URL, ""))
	var files sessions.FileList
	servertest.MirrorJSON(t, bob, "session://files", &files)
	assert.Check(t, is.Len(files.Files, 0))
	var shots sessions.Folder
	servertest.MirrorJSON(t, bob, "session://files/screenshots", &shots)
	assert.Check(t, is.Len(shots.Files, 0))

	miss := servertest.MirrorRead(t, bob, uri)
	assert.Check(t, miss.IsError)
	assert.Check(t, is.Contains(servertest.Text(miss), "no files are kept yet"))
	assert.Check(t, is.Contains(servertest.Text(miss), "session://files"))
	_, err = servertest.Read(t, bob, uri)
	assert.Check(t, err != nil, "bob read alice's file natively")

	code, _, body := ptHTTPGet(t, srv.Base+sessions.FileLink(name), bobToken)
	assert.Check(t, is.Equal(code, http.StatusNotFound))
	assert.Check(t, !bytes.HasPrefix(body, []byte("\x89PNG")))
	code, _, body = ptHTTPGet(t, srv.Base+sessions.FileLink(name), "")
	assert.Check(t, is.Equal(code, http.StatusUnauthorized))
	assert.Check(t, is.Contains(string(body), "Authorization: Bearer <token>"))
	code, _, body = ptHTTPGet(t, srv.Base+sessions.FileLink(name), aliceToken)
	assert.Check(t, is.Equal(code, http.StatusOK))
	assert.Check(t, bytes.HasPrefix(body, []byte("\x89PNG")))

	for _, tool := range []string{"outline", "screenshot"} {
		servertest.CallRefused(t, bob, tool, nil, "No browser session is open", "open_session")
	}
	servertest.CallRefused(t, bob, "click", map[string]any{"locator": map[string]any{"text": "Sign in"}}, "open_session")
	assert.Check(t, is.Contains(servertest.CallOK(t, bob, "close_session", nil), "nothing to close"))
	// bob's close_session did not close alice's browser.
	assert.Check(t, is.Contains(servertest.CallOK(t, alice, "outline", nil), `form "login"`))
}

// TestPageToolsDriverKilled: when the server's chromedriver dies, the
// next page tool opens the browser again on a fresh chromedriver, at the
// page it was on, and says so in one line that leaks nothing of the
// endpoint. The server runs in process, so its chromedriver is a child of
// the test process.
func TestPageToolsDriverKilled(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)
	c := servertest.InProcess(t, servertest.New(t, server.Config{}), servertest.Options{})
	before := ptChromedrivers()
	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login"})

	pid, port := ptNewChromedriver(t, before)
	assert.NilError(t, syscall.Kill(-pid, syscall.SIGKILL))
	servertest.Eventually(t, fmt.Sprintf("chromedriver %d to go", pid), func() bool { return !ptChromedrivers()[pid] })

	res := servertest.Call(t, c, "outline", nil)
	assert.Assert(t, !res.IsError, servertest.Text(res))
	note := res.Content[0].(mcp.TextContent).Text
	assert.Check(t, is.Contains(note, "reopened"))
	absPath := regexp.MustCompile(`(?:^|[\s"'(=:])/[A-Za-z]`)
	for _, leak := range []string{"127.0.0.1", ":" + port, "/tmp", "http://", "localhost", "session/"} {
		assert.Check(t, !strings.Contains(note, leak), "%q contains %q", note, leak)
	}
	assert.Check(t, !absPath.MatchString(note), "%q has an absolute path", note)
	assert.Check(t, is.Contains(servertest.Text(res), `form "login"`), "back at its last page")

	servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/controls"})
	assert.Check(t, is.Contains(servertest.CallOK(t, c, "outline", nil), `page "Controls"`))
	fresh, _ := ptNewChromedriver(t, before)
	assert.Check(t, fresh != pid)
	servertest.CallOK(t, c, "close_session", nil)
}

// ptChromedrivers are the live chromedriver children of the test process.
func ptChromedrivers() map[int]bool {
	out := map[int]bool{}
	for _, p := range testenv.Children() {
		if p.Name == "chromedriver" {
			out[p.PID] = true
		}
	}
	return out
}

// ptNewChromedriver finds the one chromedriver started since before and
// the port it listens on.
func ptNewChromedriver(t *testing.T, before map[int]bool) (pid int, port string) {
	t.Helper()
	var fresh []int
	for p := range ptChromedrivers() {
		if !before[p] {
			fresh = append(fresh, p)
		}
	}
	assert.Assert(t, is.Len(fresh, 1), "new chromedriver children: %v", fresh)
	pid = fresh[0]
	cmdline, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	assert.NilError(t, err)
	for _, arg := range strings.Split(string(cmdline), "\x00") {
		if p, found := strings.CutPrefix(arg, "--port="); found {
			port = p
		}
	}
	assert.Assert(t, port != "", "no --port in %q", cmdline)
	return pid, port
}

// TestPageToolsGrid drives a session on the Selenium Grid 4 named by
// SELENIUM_URL through the server: .ci/run starts one with managed
// downloads. The Grid's browsers must reach the fixture site on 127.0.0.1.
func TestPageToolsGrid(t *testing.T) {
	grid := os.Getenv("SELENIUM_URL")
	if grid == "" {
		t.Skip("SELENIUM_URL is not set")
	}
	site := fixtures.Serve(t)
	srv := servertest.ServeHTTP(t, servertest.New(t, server.Config{Resources: surface.Off, SeleniumURL: grid}))
	c := servertest.ConnectHTTP(t, srv.URL, servertest.Options{})

	var cur sessions.Current
	servertest.MirrorJSON(t, c, "session://current", &cur)
	assert.Check(t, is.Equal(cur.State, "closed"))
	assert.Check(t, is.Equal(cur.Endpoint, "Selenium Grid"), "before the first session")
	text := servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login"})
	assert.Check(t, is.Contains(text, "Opened a new browser session"))
	t.Cleanup(func() { servertest.Call(t, c, "close_session", nil) })
	servertest.MirrorJSON(t, c, "session://current", &cur)
	assert.Check(t, is.Equal(cur.Endpoint, "Selenium Grid"))
	assert.Check(t, is.Equal(cur.State, "live"))

	servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/article"})
	servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/login"})
	out := servertest.CallOK(t, c, "outline", nil)
	assert.Check(t, is.Contains(out, `form "login"`))
	servertest.CallOK(t, c, "write", map[string]any{"locator": ptLocatorFor(t, out, `"Email"`), "text": "grid@example.com"})
	servertest.CallOK(t, c, "click", map[string]any{"locator": ptLocatorFor(t, out, `button:"Sign in"`)})
	servertest.CallOK(t, c, "wait_for", map[string]any{"text": "Welcome grid@example.com", "timeout": 10})
	miss := servertest.CallRefused(t, c, "click", map[string]any{"locator": map[string]any{"text": "Nothing here"}}, "no element matches", "outline")
	for _, leak := range []string{"4444", "/tmp", "session/"} {
		assert.Check(t, !strings.Contains(miss, leak), "%q contains %q", miss, leak)
	}

	shot := servertest.Call(t, c, "screenshot", nil)
	assert.Assert(t, !shot.IsError, servertest.Text(shot))
	w, h := ptPngSize(t, ptImageOf(t, shot))
	assert.Check(t, is.Equal(w, 1280))
	assert.Check(t, is.Equal(h, 800))

	pdf := servertest.CallOK(t, c, "print", map[string]any{"format": "pdf", "filename": "grid"})
	name, _, size := ptKept(t, pdf)
	code, _, body := ptHTTPGet(t, srv.Base+sessions.FileLink(name), "")
	assert.Check(t, is.Equal(code, http.StatusOK))
	assert.Check(t, bytes.HasPrefix(body, []byte("%PDF")))
	assert.Check(t, is.Equal(len(body), size))

	servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/download"})
	servertest.CallOK(t, c, "click", map[string]any{"locator": map[string]any{"role": "link", "name": "Download report (CSV)"}})
	var dl sessions.Folder
	testenv.Poll(servertest.Deadline(t, time.Minute), func() bool {
		servertest.MirrorJSON(t, c, "session://files/downloads", &dl)
		return len(dl.Files) > 0
	})
	assert.Assert(t, is.Len(dl.Files, 1), "%+v", dl)
	assert.Check(t, is.Equal(dl.Files[0].Name, "report.csv"))
	assert.Check(t, is.Equal(servertest.Text(servertest.MirrorRead(t, c, dl.Files[0].URI)), fixtures.ReportCSV))

	// An upload ships the kept file to the Grid node; the page sees its
	// name and size as the person's pick.
	servertest.CallOK(t, c, "navigate", map[string]any{"url": site + "/upload"})
	servertest.CallOK(t, c, "upload_file", map[string]any{"locator": map[string]any{"label": "Document"}, "kept": name})
	got := servertest.CallOK(t, c, "execute_script", map[string]any{"script": "const f = document.getElementById('doc').files[0]; return f.name + ' ' + f.size"})
	assert.Check(t, is.Contains(got, fmt.Sprintf("%s %d", name, size)), got)
}
