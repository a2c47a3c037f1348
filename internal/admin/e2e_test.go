package admin_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tebeka/selenium"
	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// page drives the admin page in headless Chromium through the project's
// own WebDriver code (package browser: its chromedriver, process group
// and session), finding elements through the session's client.
type page struct {
	t     *testing.T
	s     *browser.Session
	base  string
	dir   string
	shots map[string]string // name -> sha256 of the PNG
}

// TestE2E: sign in with a token, watch bob's workspace go live when an MCP
// client opens a browser, open his kept screenshot in the lightbox, save
// his flow with a mistake and see the problem in place, end his browser,
// sign out; screenshots in light and dark at 480 and 1400 px.
func TestE2E(t *testing.T) {
	if testing.Short() {
		t.Skip("starts browsers")
	}
	driver := testenv.NeedBrowser(t)
	ctx := servertest.Context(t)

	dataDir := t.TempDir()
	tokens, err := auth.NewTokens(nil)
	assert.NilError(t, err)
	assert.NilError(t, tokens.Add(aliceToken, "alice", auth.Operator))
	assert.NilError(t, tokens.Add(bobToken, "bob"))
	store, err := files.Open(filepath.Join(dataDir, "files"))
	assert.NilError(t, err)
	box, err := store.For("bob")
	assert.NilError(t, err)
	_, err = box.Keep(files.Screenshots, "checkout.png", picture(t))
	assert.NilError(t, err)
	_, err = box.Keep(files.Prints, "receipt.pdf", []byte(minimalPDF))
	assert.NilError(t, err)
	srv := servertest.New(t, server.Config{DataDir: dataDir, Tokens: tokens})
	hs := servertest.ServeHTTP(t, srv)
	f := fixture{srv: srv, base: hs.Base, dataDir: dataDir}
	st, body := f.do(t, bobToken, "PUT", "/admin/api/workspaces/default@bob/flows/login", loginFlow)
	assert.Equal(t, st, http.StatusCreated, body)

	// The site bob's browser visits.
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Shop</title><h1>Shop</h1>")
	}))
	t.Cleanup(site.Close)

	d, err := browser.Start(ctx, browser.WithChromedriver(driver), browser.WithChromium(testenv.Chromium()), browser.WithBrowserArgs(testenv.ClosedNetwork))
	assert.NilError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	s, err := d.NewSession(ctx, browser.SessionOptions{Window: browser.Window{Width: 1400, Height: 900}})
	assert.NilError(t, err)
	t.Cleanup(func() { _ = s.Close() })
	dir := os.Getenv("ADMIN_E2E_SHOTS")
	if dir == "" {
		dir = t.TempDir()
	}
	p := &page{t: t, s: s, base: hs.Base, dir: dir, shots: map[string]string{}}

	// Sign in.
	assert.NilError(t, s.Navigate(hs.Base+"/admin"))
	p.waitCSS("#token")
	p.shotBoth("signin")
	// By keyboard: the token field has focus; Enter submits.
	if p.js(`return document.activeElement.id`) != "token" {
		t.Error("the token field does not have focus")
	}
	if err := p.el("#token").SendKeys(aliceToken + selenium.EnterKey); err != nil {
		t.Fatal(err)
	}
	p.waitCSS(`.ws-row[data-ws="default@bob"][data-state="closed"]`)
	p.waitCSS(`.ws-row[data-ws="default@alice"]`)
	if tok := p.js(`return sessionStorage.getItem("selenium-flow-admin-token")`); tok != aliceToken {
		t.Errorf("token in sessionStorage: %q", tok)
	}
	if strings.Contains(p.js(`return location.href`), aliceToken) || strings.Contains(p.js(`return document.cookie`), aliceToken) {
		t.Error("the token is in the address or a cookie")
	}

	// Live: bob opens a browser through MCP; his row turns live with no
	// reload of the page (the marker survives).
	p.js(`window.__stay = "same page"; return ""`)
	bob := servertest.ConnectHTTP(t, hs.URL, servertest.Options{Headers: map[string]string{"Authorization": "Bearer " + bobToken}})
	servertest.CallOK(t, bob, "open_session", map[string]any{"url": site.URL + "/cart"})
	p.waitCSS(`.ws-row[data-ws="default@bob"][data-state="live"]`)
	p.waitText(`.ws-row[data-ws="default@bob"] .ws-url`, site.URL+"/cart")
	if p.js(`return window.__stay`) != "same page" {
		t.Error("the page reloaded instead of taking the pushed list")
	}
	p.shotBoth("workspaces")

	// A kept screenshot in the lightbox; into bob's workspace by keyboard.
	if err := p.el(`.ws-row[data-ws="default@bob"] .ws-name`).SendKeys(selenium.EnterKey); err != nil {
		t.Fatal(err)
	}
	p.wait("bob's files", func() bool { return p.js(`return location.hash`) == "#/workspaces/default%40bob/files" })
	p.waitCSS(`button.tile[data-uri="session://files/checkout.png"] img`)
	p.click(`button.tile[data-uri="session://files/checkout.png"]`)
	p.waitCSS(`#overlay .lightbox .lb-stage img`)
	if w := p.js(`return String(document.querySelector("#overlay .lb-stage img").naturalWidth)`); w != "320" {
		t.Errorf("lightbox picture is %s px wide, want 320", w)
	}
	p.shotBoth("lightbox")
	p.js(`document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape"})); return ""`)
	p.waitGone("#overlay .lightbox")

	// A kept PDF shows in place too.
	p.click(`button[aria-label="View receipt.pdf"]`)
	p.waitCSS(`#overlay iframe.pdf-frame[src^="blob:"]`)
	p.js(`document.dispatchEvent(new KeyboardEvent("keydown", {key: "Escape"})); return ""`)
	p.waitGone("#overlay .lightbox")
	if p.js(`return document.activeElement.getAttribute("aria-label")`) != "View receipt.pdf" {
		t.Error("closing the PDF did not give focus back to its button")
	}

	// A flow saved with a mistake shows the problem in place.
	p.go_("#/workspaces/default@bob/flows/login")
	p.waitCSS("#flow-doc")
	p.waitText(".flow-name", "login")
	p.js(`document.querySelector("#flow-doc").value = arguments[0]; return ""`, `{"name":"login","steps":[{"tool":"navigate","args":{"url":"{{nope}}"}}]}`)
	p.click("#flow-save")
	p.waitText("#flow-problems", "nope")
	if p.js(`return document.querySelector("#flow-doc").getAttribute("aria-invalid")`) != "true" {
		t.Error("the editor is not marked invalid")
	}
	if !strings.Contains(p.js(`return document.querySelector("#flow-doc").value`), "{{nope}}") {
		t.Error("the mistaken text was lost")
	}
	p.shotBoth("flow-error")

	// End bob's browser: the row goes back to closed, the workspace stays.
	p.go_("#/workspaces")
	p.waitCSS(`.ws-row[data-ws="default@bob"][data-state="live"] .ws-end`)
	p.click(`.ws-row[data-ws="default@bob"] .ws-end`)
	p.waitCSS(`.ws-row[data-ws="default@bob"][data-state="closed"]`)
	for _, s := range srv.Sessions().Inventory() {
		if s.Owner == "bob" {
			t.Errorf("bob's browser is still open: %+v", s)
		}
	}

	// Keyboard: the navigation is reachable with Tab from the page's top.
	p.js(`document.activeElement.blur(); return ""`)
	if got := p.js(`const f = [...document.querySelectorAll("a[href], button")].filter(e => e.tabIndex >= 0); return String(f.length)`); got == "0" {
		t.Error("nothing on the page takes focus")
	}

	// Sign out: back to the form, the token gone.
	p.click("#sign-out")
	p.waitCSS("#token")
	if tok := p.js(`return String(sessionStorage.getItem("selenium-flow-admin-token"))`); tok != "null" {
		t.Errorf("token left after sign-out: %q", tok)
	}

	// Every view looked different in each theme and width.
	seen := map[string]string{}
	for name, sum := range p.shots {
		if other, ok := seen[sum]; ok {
			t.Errorf("screenshots %s and %s are identical", name, other)
		}
		seen[sum] = name
	}
	t.Logf("%d screenshots in %s", len(p.shots), dir)
}

// minimalPDF is a one-page PDF.
const minimalPDF = "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 100]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n"

// picture is a 320×200 PNG with stripes, the kept screenshot.
func picture(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 320, 200))
	for y := range 200 {
		for x := range 320 {
			img.Set(x, y, color.RGBA{uint8(x * 255 / 320), uint8(y * 255 / 200), uint8((x / 40 % 2) * 200), 255})
		}
	}
	var b bytes.Buffer
	assert.NilError(t, png.Encode(&b, img))
	return b.Bytes()
}

func (p *page) wd() selenium.WebDriver { return p.s.WebDriver() }

func (p *page) el(css string) selenium.WebElement {
	p.t.Helper()
	e, err := p.wd().FindElement(selenium.ByCSSSelector, css)
	if err != nil {
		p.t.Fatalf("%s: %v", css, err)
	}
	return e
}

func (p *page) click(css string) {
	p.t.Helper()
	if err := p.el(css).Click(); err != nil {
		p.t.Fatalf("click %s: %v", css, err)
	}
}

func (p *page) js(script string, args ...any) string {
	p.t.Helper()
	if args == nil {
		args = []any{}
	}
	raw, err := p.s.ExecuteScript(script, args)
	if err != nil {
		p.t.Fatalf("script: %v", err)
	}
	var v any
	_ = json.Unmarshal(raw, &v)
	if s, ok := v.(string); ok {
		return s
	}
	return string(raw)
}

func (p *page) go_(hash string) {
	p.t.Helper()
	p.js(`location.hash = arguments[0]; return ""`, hash)
}

// wait polls until ok, failing at the test's deadline with a screenshot.
func (p *page) wait(what string, ok func() bool) {
	p.t.Helper()
	if !testenv.Poll(testenv.Deadline(p.t, time.Minute), ok) {
		p.shot("timeout")
		p.t.Fatalf("timed out waiting for %s; page text: %s", what, p.js(`return document.body.innerText.slice(0, 600)`))
	}
}

func (p *page) count(css string) int {
	els, err := p.wd().FindElements(selenium.ByCSSSelector, css)
	if err != nil {
		return 0
	}
	return len(els)
}

func (p *page) waitCSS(css string) {
	p.t.Helper()
	p.wait(css, func() bool { return p.count(css) > 0 })
}

func (p *page) waitGone(css string) {
	p.t.Helper()
	p.wait("no "+css, func() bool { return p.count(css) == 0 })
}

func (p *page) waitText(css, want string) {
	p.t.Helper()
	p.wait(css+" saying "+want, func() bool {
		els, _ := p.wd().FindElements(selenium.ByCSSSelector, css)
		for _, e := range els {
			if s, _ := e.Text(); strings.Contains(s, want) {
				return true
			}
		}
		return false
	})
}

// shotBoth saves the view in light and dark at 1400 and 480 px and
// leaves the page light and wide.
func (p *page) shotBoth(view string) {
	p.t.Helper()
	for _, theme := range []string{"light", "dark"} {
		p.setTheme(theme)
		for _, w := range []int{1400, 480} {
			if err := p.s.Resize(browser.Window{Width: w, Height: 900}); err != nil {
				p.t.Fatal(err)
			}
			p.wait("the "+theme+" theme", func() bool {
				return p.js(`return document.documentElement.dataset.theme`) == theme
			})
			if view == "flow-error" && p.count("#flow-problems") == 0 {
				p.t.Errorf("the flow's problems went away in the %s theme", theme)
			}
			p.shot(fmt.Sprintf("%s-%s-%d", view, theme, w))
		}
	}
	p.setTheme("light")
	if err := p.s.Resize(browser.Window{Width: 1400, Height: 900}); err != nil {
		p.t.Fatal(err)
	}
}

// setTheme switches the theme as a person does, with the page's own
// button (the sign-in form, which has none, takes the stored choice).
func (p *page) setTheme(theme string) {
	p.t.Helper()
	if p.js(`return document.documentElement.dataset.theme`) == theme {
		return
	}
	if p.count("#theme-toggle") > 0 {
		// Clicked by script: the lightbox covers the bar, as it should.
		p.js(`document.querySelector("#theme-toggle").click(); return ""`)
		return
	}
	p.js(`localStorage.setItem("selenium-flow-admin-theme", arguments[0]); document.documentElement.dataset.theme = arguments[0]; return ""`, theme)
}

// shot saves a screenshot, checks it is a PNG of the viewport that is not
// blank (many colours), and records its digest.
func (p *page) shot(name string) {
	p.t.Helper()
	b, err := p.s.Screenshot(nil, false)
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		p.t.Fatalf("screenshot %s is not a PNG: %v", name, err)
	}
	colours := map[color.Color]bool{}
	r := img.Bounds()
	for y := r.Min.Y; y < r.Max.Y && len(colours) < 64; y += 7 {
		for x := r.Min.X; x < r.Max.X; x += 7 {
			colours[img.At(x, y)] = true
		}
	}
	if len(colours) < 8 {
		p.t.Errorf("screenshot %s is blank (%d colours)", name, len(colours))
	}
	if err := os.WriteFile(filepath.Join(p.dir, name+".png"), b, 0o644); err != nil {
		p.t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if name != "timeout" {
		p.shots[name] = fmt.Sprintf("%x", sum)
	}
}
