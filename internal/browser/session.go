package browser

import (
	"bytes"
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tebeka/selenium"
	"github.com/tebeka/selenium/chrome"

	"github.com/selenium-flow/selenium-flow/internal/egress"
)

// SessionOptions configures NewSession.
type SessionOptions struct {
	// Browser is "chrome" (the default) or its alias "chromium".
	Browser string
	// Insecure makes the browser accept self-signed and otherwise
	// untrusted TLS certificates (acceptInsecureCerts). It changes nothing
	// else.
	Insecure bool
	// Window is the window size; 1280x800 when zero.
	Window Window
	// DownloadDir is where a local browser saves downloads. When empty, a
	// temporary directory is used and removed with the session. Ignored on
	// a remote endpoint, which keeps downloads itself.
	DownloadDir string
	// PageLoadTimeout bounds how long a navigation waits for the page to
	// load; DefaultPageLoadTimeout when zero, at most MaxTimeout.
	PageLoadTimeout time.Duration
	// ScriptTimeout bounds a script the session runs in the page;
	// DefaultScriptTimeout when zero, at most MaxTimeout.
	ScriptTimeout time.Duration
}

// The WebDriver timeouts of a session: a page that never finishes loading,
// or a script that never returns, fails the command after this long
// instead of holding the session.
const (
	DefaultPageLoadTimeout = 30 * time.Second
	DefaultScriptTimeout   = 30 * time.Second
	MaxTimeout             = 300 * time.Second
)

// timeoutOr checks a session timeout and fills in its default.
func timeoutOr(what string, d, def time.Duration) (time.Duration, error) {
	switch {
	case d == 0:
		return def, nil
	case d < time.Second || d > MaxTimeout:
		return 0, fmt.Errorf("browser: the %s timeout must be between 1 and %d seconds", what, int(MaxTimeout.Seconds()))
	}
	return d, nil
}

// Window is the size of a session's page viewport in CSS pixels (the
// browser window is made larger by its own frame, if it has one).
type Window struct {
	Width  int `json:"width"`  // in CSS pixels
	Height int `json:"height"` // in CSS pixels
}

// DefaultWindow is the window size of a session unless one is given.
var DefaultWindow = Window{Width: 1280, Height: 800}

// chromiumFlags are given to every Chromium. Host names resolve as the
// machine resolves them: a closed network's resolver rules belong to the
// Driver's WithBrowserArgs, not here. Background networking is off, so
// Chromium makes few requests of its own.
var chromiumFlags = []string{
	"--headless=new",
	"--no-sandbox",
	"--disable-gpu",
	"--disable-dev-shm-usage",
	"--no-first-run",
	"--no-default-browser-check",
	"--disable-background-networking",
	"--disable-component-update",
	"--disable-sync",
	"--disable-quic",
}

// Session is one browser with its own fresh profile. Its methods are safe
// for concurrent use; WebDriver commands are sent one at a time.
type Session struct {
	d       *Driver
	wd      selenium.WebDriver
	id      string
	browser string
	window  Window

	tmpDir      string        // local: removed on Close
	egress      *egress.Proxy // local: what the browser connects through
	downloadDir string        // local: where downloads land

	winMu  sync.Mutex // guards window, which Resize changes
	mu     sync.Mutex
	gone   atomic.Bool
	closed bool
	// lastURL is the page URL CurrentURL last read (LastURL).
	lastURL atomic.Value
	// version is the browser's version, read once when it opened.
	version string
	// newDoc says the page is likely a document the page script has not
	// been installed in (after a navigation): script sends it at once
	// instead of trying the stub first. It only saves a round trip; a
	// wrong guess either way is harmless. Guarded by mu.
	newDoc bool
	// win is what the session knows of its windows, frames and dialogs
	// (windows.go). Guarded by mu.
	win windowState
	// oracle is what the session knows of secrets typed in it (exposure.go).
	oracle oracleState
	// place is where the page was when settle's last probe answered
	// (where.go), for the report that follows the action; nil when no
	// probe ran since, or it ran inside a frame. Guarded by mu.
	place *Place
}

// NewSession opens a browser session on the Driver.
func (d *Driver) NewSession(ctx context.Context, o SessionOptions) (*Session, error) {
	browser := strings.ToLower(strings.TrimSpace(o.Browser))
	switch browser {
	case "", "chrome", "chromium":
		browser = "chrome"
	default:
		return nil, fmt.Errorf("browser: unsupported browser %q; use chrome (alias chromium)", o.Browser)
	}
	win := o.Window
	if win.Width <= 0 || win.Height <= 0 {
		win = DefaultWindow
	}
	if win.Width > 8192 || win.Height > 8192 {
		return nil, errors.New("browser: the window can be at most 8192x8192")
	}
	pageLoad, err := timeoutOr("page load", o.PageLoadTimeout, DefaultPageLoadTimeout)
	if err != nil {
		return nil, err
	}
	scriptT, err := timeoutOr("script", o.ScriptTimeout, DefaultScriptTimeout)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	closed := d.closed
	d.mu.Unlock()
	if closed {
		return nil, errors.New("browser: the driver is closed")
	}

	s := &Session{d: d, browser: browser, window: win, newDoc: true}
	args := append([]string(nil), chromiumFlags...)
	args = append(args, fmt.Sprintf("--window-size=%d,%d", win.Width, win.Height))
	args = append(args, d.args...)
	caps := selenium.Capabilities{
		"browserName": "chrome",
		"timeouts":    map[string]int64{"implicit": 0, "pageLoad": pageLoad.Milliseconds(), "script": scriptT.Milliseconds()},
		// A dialog stays open, so that the action that opened it can
		// report it and answer_dialog can answer it; meanwhile commands
		// fail at once with "unexpected alert open" instead of waiting.
		"unhandledPromptBehavior": "ignore",
	}
	if o.Insecure {
		caps["acceptInsecureCerts"] = true
	}
	cc := chrome.Capabilities{W3C: true}
	if d.remote {
		caps["se:downloadsEnabled"] = true
	} else {
		tmp, err := os.MkdirTemp("", sessionDirPattern())
		if err != nil {
			return nil, errors.New("browser: cannot create the session's temporary directory")
		}
		s.tmpDir = tmp
		profile := filepath.Join(tmp, "profile")
		s.downloadDir = o.DownloadDir
		if s.downloadDir == "" {
			s.downloadDir = filepath.Join(tmp, "downloads")
		}
		for _, dir := range []string{profile, s.downloadDir} {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				s.removeTemp()
				return nil, errors.New("browser: cannot create the session's profile or download directory")
			}
		}
		args = append(args, "--user-data-dir="+profile)
		// Each browser has its own proxy, so a failure it records is
		// this session's and no other caller's.
		proxy, err := egress.Listen(d.egress)
		if err != nil {
			s.removeTemp()
			return nil, fmt.Errorf("browser: %w", err)
		}
		s.egress = proxy
		args = append(args, proxy.ChromiumArgs()...)
		cc.Path = d.chrome
		cc.Prefs = map[string]interface{}{
			"download.default_directory":   s.downloadDir,
			"download.prompt_for_download": false,
			"download.directory_upgrade":   true,
			"safebrowsing.enabled":         false,
		}
	}
	cc.Args = args
	caps.AddChrome(cc)

	type result struct {
		wd  selenium.WebDriver
		err error
	}
	ch := make(chan result, 1)
	go func() {
		wd, err := selenium.NewRemote(caps, d.base)
		ch <- result{wd, err}
	}()
	var r result
	select {
	case r = <-ch:
	case <-ctx.Done():
		go func() { // quit the session if it arrives after all
			if r := <-ch; r.err == nil && r.wd != nil {
				r.wd.Quit()
			}
		}()
		s.removeTemp()
		return nil, fmt.Errorf("browser: open session: %w", ctx.Err())
	}
	if r.err != nil {
		s.removeTemp()
		return nil, fmt.Errorf("browser: open session: %w", sessionErr(r.err))
	}
	if r.wd == nil || r.wd.SessionID() == "" {
		// A Grid can answer "session not created" with no error at all.
		s.removeTemp()
		return nil, errors.New("browser: open session: the browser could not be started (session not created)")
	}
	s.wd, s.id = r.wd, r.wd.SessionID()
	// A command of this session may wait for a page load or a script as
	// long as its timeouts allow: the HTTP request must outlast them.
	if need := max(pageLoad, scriptT) + 15*time.Second; need > d.timeout {
		setTimeout(s.base(), need)
	}
	if err := d.add(s); err != nil {
		s.wd.Quit()
		s.removeTemp()
		return nil, err
	}
	if err := s.fitViewport(ctx); err != nil {
		s.Close()
		return nil, fmt.Errorf("browser: open session: %w", s.fail("", err))
	}
	if err := s.initWindows(); err != nil {
		s.Close()
		return nil, fmt.Errorf("browser: open session: %w", s.fail("", err))
	}
	s.readVersion()
	return s, nil
}

// readVersion learns the browser's version from its user agent; a page
// that hides it leaves it unknown.
func (s *Session) readVersion() {
	v, err := s.execute(`const m = navigator.userAgent.match(/(?:Chrome|Chromium)\/([0-9.]+)/); return m ? m[1] : "";`, nil)
	if err == nil {
		_ = json.Unmarshal(v, &s.version)
	}
}

// Version is the browser's version (e.g. 143.0.7499.40), "" when unknown.
func (s *Session) Version() string { return s.version }

// fitViewport grows the window so that the page viewport has the size
// asked for: the window size includes the browser's own frame.
func (s *Session) fitViewport(ctx context.Context) error {
	var size struct{ IW, IH float64 }
	if err := s.script("pageSize", nil, nil, &size); err != nil {
		return err
	}
	dw, dh := float64(s.window.Width)-size.IW, float64(s.window.Height)-size.IH
	if dw == 0 && dh == 0 {
		return nil
	}
	v, err := s.raw(ctx, "GET", "/window/rect", nil)
	if err != nil {
		return err
	}
	var r rect
	if err := json.Unmarshal(v, &r); err != nil {
		return errors.New("unexpected window rect")
	}
	_, err = s.raw(ctx, "POST", "/window/rect", map[string]float64{"width": r.Width + dw, "height": r.Height + dh})
	return err
}

// sessionErr cleans an error of session creation.
func sessionErr(err error) error {
	var se *selenium.Error
	if errors.As(err, &se) {
		if se.Err == "session not created" || strings.Contains(strings.ToLower(se.Message), "could not start a new session") {
			return sessionNotCreated(strings.ToLower(se.Message))
		}
	}
	if c := clean(err); errors.Is(c, ErrSessionGone) {
		return errors.New("the WebDriver endpoint did not answer")
	} else {
		return c
	}
}

// ID returns the WebDriver session id.
func (s *Session) ID() string { return s.id }

// Browser returns the browser name, "chrome".
func (s *Session) Browser() string { return s.browser }

// Window returns the viewport size the session was opened with, or last
// resized to.
func (s *Session) Window() Window {
	s.winMu.Lock()
	defer s.winMu.Unlock()
	return s.window
}

// Remote reports whether the session runs on a remote endpoint (a Grid).
func (s *Session) Remote() bool { return s.d.remote }

// WebDriver returns the underlying client, for benchmarks that compare a raw
// call with the wrapped one. Errors it returns are not cleaned.
func (s *Session) WebDriver() selenium.WebDriver { return s.wd }

// Close ends the session and removes its temporary profile and downloads.
// Closing a session whose driver has gone is not an error.
func (s *Session) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	if !s.gone.Load() {
		s.wd.Quit()
	}
	s.gone.Store(true)
	s.removeTemp()
	forgetTimeout(s.base())
	s.d.remove(s)
	return nil
}

// base is the endpoint URL of the session's commands.
func (s *Session) base() string { return s.d.base + "/session/" + s.id }

// removeTemp releases what a local session holds on this machine: its
// folder and its proxy.
func (s *Session) removeTemp() {
	if s.tmpDir != "" {
		os.RemoveAll(s.tmpDir)
	}
	if s.egress != nil {
		s.egress.Close()
	}
}

// begin takes the session lock for one operation and reports an ended
// session at once. The caller must call s.mu.Unlock.
func (s *Session) begin() error {
	if err := s.beginKeepPlace(); err != nil {
		return err
	}
	s.place = nil // any command may change the page: where it was is stale
	return nil
}

// beginKeepPlace is begin for TakeEvents and Where, which run between an
// action and its report and leave what the action's settle saw.
func (s *Session) beginKeepPlace() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return errors.New("the browser session is closed; open a new session with open_session")
	}
	if s.gone.Load() {
		s.mu.Unlock()
		return ErrSessionGone
	}
	return nil
}

// fail cleans err and wraps it with the operation's name. It marks the
// session as gone when the driver has gone.
func (s *Session) fail(op string, err error) error {
	c := clean(err)
	if errors.Is(c, ErrSessionGone) {
		s.gone.Store(true)
	}
	if errors.Is(c, ErrDialog) {
		s.win.dialog.Store(true) // the next TakeEvents reads it
	}
	if op == "" {
		return c
	}
	return fmt.Errorf("%s: %w", op, c)
}

// ---- injected script -------------------------------------------------------

//go:embed page.js
var pageJS string

// The page script is sent once per document, not with every call. The
// install script runs page.js and leaves a runner in the document,
// window.__seleniumFlow, stamped with a hash of page.js; later calls send
// only the stub, which calls the runner. A document without the runner
// (a new one after a navigation or reload, or one whose own script took
// the name or replaced the runner, or holds one of another version) makes
// the stub answer scriptMissing instead, and the install script is sent
// with the same arguments. Each call still runs a fresh copy of page.js,
// so nothing it computes outlives the call. The runner is not enumerable;
// a page that made the name its own (not configurable) is not touched and
// gets the full script every time.
var (
	scriptVersion = func() string {
		sum := sha256.Sum256([]byte(pageJS))
		return hex.EncodeToString(sum[:8])
	}()
	scriptMissing = "selenium-flow:no-script:" + scriptVersion
	installScript = "const version = '" + scriptVersion + "';\n" +
		"function fresh() {\n" + pageJS + "\nreturn run;\n}\n" +
		`const runner = {v: version, run: function (a) { return fresh()(a[0], a[1], a[2], a[3]); }};
try {
  Object.freeze(runner);
  Object.defineProperty(window, '__seleniumFlow', {value: runner, configurable: true, writable: true, enumerable: false});
} catch (e) { /* the name is the page's own for good: run without caching */ }
return runner.run(arguments);`
	stubScript = `let f = null;
try { f = window.__seleniumFlow; if (!f || f.v !== '` + scriptVersion + `' || typeof f.run !== 'function') { f = null; } } catch (e) { f = null; }
return f ? f.run(arguments) : '` + scriptMissing + `';`
	scriptMissingJSON = `"` + scriptMissing + `"`
)

// script runs an operation of page.js and decodes its JSON result into out.
// el, when not nil, is passed as the third argument. The caller holds the
// lock.
func (s *Session) script(op string, args any, el selenium.WebElement, out any) error {
	a := []interface{}{op, args}
	if el != nil {
		a = append(a, el)
	}
	a = s.oracle.withOptions(a)
	var value json.RawMessage
	if !s.newDoc {
		v, err := s.execute(stubScript, a)
		if err != nil {
			return err
		}
		value = v
	}
	if s.newDoc || string(value) == scriptMissingJSON {
		v, err := s.execute(installScript, a)
		if err != nil {
			return err
		}
		value = v
		s.newDoc = false
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(value, out); err != nil {
		return errors.New("unexpected script reply")
	}
	return nil
}

// execute runs a script and returns the "value" of the reply.
func (s *Session) execute(script string, args []interface{}) (json.RawMessage, error) {
	raw, err := s.wd.ExecuteScriptRaw(script, args)
	if err != nil {
		return nil, err
	}
	var reply struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(raw, &reply); err != nil {
		return nil, errors.New("unexpected script reply")
	}
	return reply.Value, nil
}

// element decodes a web element reference returned inside a script result.
func (s *Session) element(ref json.RawMessage) (selenium.WebElement, error) {
	if len(ref) == 0 || string(ref) == "null" {
		return nil, errors.New("unexpected script reply")
	}
	return s.wd.DecodeElement([]byte(`{"value":` + string(ref) + `}`))
}

type locFailure struct {
	OK     bool            `json:"ok"`
	El     json.RawMessage `json:"el"`
	Depth  int             `json:"depth"`
	N      int             `json:"n"`
	Nth    int             `json:"nth"`
	Hidden bool            `json:"hidden"`
	Msg    string          `json:"msg"`
	Sugg   []string        `json:"sugg"`
}

func (f locFailure) err(l Locator) error {
	e := &LocatorError{
		Locator:     locatorAt(l, f.Depth),
		Matched:     f.N,
		Nth:         f.Nth,
		Hidden:      f.Hidden,
		Within:      f.Depth > 0,
		Invalid:     f.Msg,
		Suggestions: f.Sugg,
	}
	return e
}

// resolveOpts asks resolve for more work in the same script call.
type resolveOpts struct {
	AllowHidden bool `json:"allowHidden"`
	// Clear asks whether WebDriver's Element Clear would leave the element
	// as it is (resolved.ClearNoop).
	Clear bool `json:"clear,omitempty"`
	// Mark prepares settle, as mark does, once the element is found.
	Mark bool `json:"mark,omitempty"`
	// Kind asks whether the element is a file input (resolved.FileInput),
	// which write refuses, in the lookup rather than a command of its own.
	Kind bool `json:"kind,omitempty"`
	// Option picks the option of that text or value when the element is
	// a <select> (resolved.Option), for Select, in the same call.
	Option *string `json:"option,omitempty"`
}

// resolved is what resolve learned besides the element.
type resolved struct {
	ClearNoop bool `json:"clearNoop"`
	Marked    bool `json:"marked"`
	FileInput bool `json:"fileInput"`
	// Option is what resolveOpts.Option found.
	Option *optionPick `json:"option"`
}

// optionPick is the option a Select asked for, or why there is none.
type optionPick struct {
	OK        bool            `json:"ok"`
	NotSelect bool            `json:"notSelect"`
	Kind      string          `json:"kind"`
	Options   []string        `json:"options"`
	N         int             `json:"n"`
	Disabled  bool            `json:"disabled"`
	Multiple  bool            `json:"multiple"`
	Selected  bool            `json:"selected"`
	El        json.RawMessage `json:"el"`
}

// resolve finds the one element l addresses. The caller holds the lock.
func (s *Session) resolve(l Locator, allowHidden bool) (selenium.WebElement, error) {
	el, _, err := s.resolveWith(l, resolveOpts{AllowHidden: allowHidden})
	return el, err
}

// resolveWith is resolve doing what o asks as well. The caller holds the
// lock.
func (s *Session) resolveWith(l Locator, o resolveOpts) (selenium.WebElement, resolved, error) {
	if err := l.Validate(); err != nil {
		return nil, resolved{}, &safeError{err}
	}
	var r struct {
		locFailure
		resolved
	}
	err := s.script("resolve", struct {
		Loc Locator `json:"loc"`
		resolveOpts
	}{l, o}, nil, &r)
	if err != nil {
		return nil, resolved{}, err
	}
	if !r.OK {
		return nil, resolved{}, r.err(l)
	}
	el, err := s.element(r.El)
	if err != nil {
		return nil, resolved{}, err
	}
	return el, r.resolved, nil
}

// ---- raw endpoint calls ----------------------------------------------------

// raw sends a command the WebDriver client lacks and returns the "value"
// of the reply.
func (s *Session) raw(ctx context.Context, method, path string, body any) (json.RawMessage, error) {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, s.base()+path, rd)
	if err != nil {
		return nil, errors.New("cannot build the request")
	}
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json; charset=utf-8")
	}
	resp, err := selenium.HTTPClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 512<<20))
	if err != nil {
		return nil, err
	}
	var reply struct {
		Value json.RawMessage `json:"value"`
	}
	if err := json.Unmarshal(data, &reply); err != nil {
		if resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusMethodNotAllowed {
			return nil, &selenium.Error{Err: "unknown command", HTTPCode: resp.StatusCode}
		}
		return nil, errors.New("HTTP " + strconv.Itoa(resp.StatusCode))
	}
	var werr selenium.Error
	if json.Unmarshal(reply.Value, &werr) == nil && werr.Err != "" {
		werr.HTTPCode = resp.StatusCode
		return nil, &werr
	}
	if resp.StatusCode >= 400 {
		return nil, &selenium.Error{Err: "unknown error", HTTPCode: resp.StatusCode}
	}
	return reply.Value, nil
}

// withElement runs fn on the element loc addresses, with the session
// locked for the whole action: the one way an action on an element
// begins. A session already ended, or a lookup that fails, is an error
// naming op; fn names op in its own (s.fail).
func (s *Session) withElement(op string, loc Locator, o resolveOpts, fn func(el selenium.WebElement, r resolved) error) error {
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	el, r, err := s.resolveWith(loc, o)
	if err != nil {
		return s.fail(op, err)
	}
	return fn(el, r)
}

// Detach lets go of the session without ending it: the browser keeps
// running on its endpoint (a Grid), where another client, or this server
// after a restart, attaches to it again (Driver.Attach). Its local
// resources are released as Close does.
func (s *Session) Detach() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil
	}
	s.closed = true
	s.gone.Store(true)
	s.removeTemp()
	forgetTimeout(s.base())
	s.d.remove(s)
	return nil
}
