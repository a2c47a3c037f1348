package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// Page names the tools a flow step may call: the page tools, which act on
// the caller's open session.
var Page = []string{"navigate", "outline", "click", "write", "press_key", "select", "wait_for", "assert", "screenshot", "print", "upload_file",
	"hover", "drag", "scroll", "read_text", "execute_script", "resize_window",
	"list_windows", "switch_window", "close_window", "switch_frame", "answer_dialog", "save_site_data"}

// pageTools holds what the browser family needs.
type pageTools struct {
	sessions *sessions.Manager
	secrets  *secrets.Store
}

// Browser returns the session and page tools.
func Browser(m *sessions.Manager, sec *secrets.Store) []Tool {
	p := &pageTools{sessions: m, secrets: sec}
	onPage := Upsert.OnPage()
	list := []Tool{
		New("open_session", "Open Browser Session", onPage,
			"Open the browser of your workspace: headless Chromium, optionally going straight to url. "+
				"Each workspace (?workspace=NAME on the MCP URL, else default) has one browser that all your connections share; it outlives idle closes and server restarts, coming back at its last page (session://current shows its state). "+
				"If one is open it is kept as it is; call close_session first for a fresh browser. "+
				"A new browser gets the site data save_site_data kept unless restore_site_data is false. "+
				"insecure only accepts self-signed certificates. window is WIDTHxHEIGHT, e.g. 1280x800. "+
				"page_load_timeout and script_timeout (seconds, default 30) bound page loads and scripts.",
			p.open,
			mcp.WithString("url", mcp.Description("page to load once the browser is open")),
			mcp.WithString("browser", mcp.Description("chrome (default) or chromium"), mcp.Enum("chrome", "chromium")),
			mcp.WithBoolean("insecure", mcp.Description("accept self-signed TLS certificates")),
			mcp.WithString("window", mcp.Description("window size WIDTHxHEIGHT, default 1280x800")),
			mcp.WithNumber("page_load_timeout", mcp.Description("seconds a page may take to load, default 30, at most 300")),
			mcp.WithNumber("script_timeout", mcp.Description("seconds a script in the page may run, default 30, at most 300")),
			mcp.WithBoolean("restore_site_data", mcp.Description("give a new browser the workspace's saved site data (save_site_data); default true")),
		),
		New("close_session", "Close Browser Session", Upsert,
			"Close your workspace's browser and its profile for good: unlike an idle close or a restart, nothing reopens it. "+
				"Files the browser downloaded are kept first (session://files/downloads); kept files outlive it, and site data kept by save_site_data stays until the workspace expires. "+
				"Use it to start over with a fresh browser; the next open_session starts clean but restores saved site data unless restore_site_data is false. "+
				"Closing when no session is open does nothing and says so.",
			p.close,
		),
		// back and forward are not idempotent, so navigate is not.
		New("navigate", "Navigate", Create.OnPage(),
			"Load a URL in your session, or go back, forward or refresh: pass exactly one of url, back, forward, refresh. "+
				"It returns once the page has loaded, with its title and final URL (after redirects); call outline next to see its controls. "+
				"For a page that keeps loading content after the load event, follow with wait_for. "+
				"A URL without a scheme is refused rather than guessed.",
			p.navigate,
			mcp.WithString("url", mcp.Description("absolute http(s) URL to load")),
			mcp.WithBoolean("back", mcp.Description("go back one page in history")),
			mcp.WithBoolean("forward", mcp.Description("go forward one page in history")),
			mcp.WithBoolean("refresh", mcp.Description("reload the current page")),
		),
		New("outline", "Outline Page", ReadOnly.OnPage(),
			"A compact text outline of the current page: title and URL, headings, landmarks, forms and every visible interactive element, each with a locator that works as-is in click, write, select, wait_for and assert. "+
				"Use it before acting and after anything changes the page; it costs a fraction of the HTML and, unlike a screenshot, gives locators. "+
				"within scopes it to one region. Password and secret values never appear; long tables are summarised but every control in them stays addressable.",
			p.outline,
			locatorArg("within", false, "limit the outline to inside this element"),
		),
		New("click", "Click", Create.OnPage(),
			"Click the one element a locator matches: a button, link, checkbox, tab or any clickable element; double for a double-click (to edit in place), button right for a context menu. "+
				"Copy the locator from outline. A locator matching several elements is refused with the count: add nth or within. "+
				"It returns the page's title and URL afterwards, so a navigation shows up. "+
				"A click that starts a download lands the file in session://files/downloads. Clicking is not idempotent: a second click submits twice.",
			p.click,
			locatorArg("locator", true, "the element to click"),
			mcp.WithString("button", mcp.Enum("left", "right", "middle"), mcp.Description("mouse button, default left; right opens a context menu")),
			mcp.WithBoolean("double", mcp.Description("double-click")),
		),
		// append types again on every call, so write is not idempotent.
		New("write", "Write Into Field", Create.OnPage(),
			"Type into a text field, textarea or contenteditable: text for ordinary values, or secret with the name of a secret (secret://secrets) for passwords and tokens. "+
				"A secret's value is typed by the server and never appears in results, outlines, flows or logs; it is only typed on the site it is bound to. "+
				"The field is cleared first unless append is true; submit presses Enter after typing (or submits the form of a textarea). Never put a password in text: use secret. "+
				"File inputs are refused: use upload_file.",
			p.write,
			locatorArg("locator", true, "the field to type into"),
			mcp.WithString("text", mcp.Description("the text to type; not for passwords")),
			mcp.WithString("secret", mcp.Description("name of a secret from secret://secrets to type instead of text; name/key picks one key of a secret with several (e.g. github/username)")),
			mcp.WithBoolean("append", mcp.Description("keep the field's current value and type after it")),
			mcp.WithBoolean("submit", mcp.Description("submit after typing: Enter in the field, or the form of a textarea")),
		),
		New("press_key", "Press Key", Create.OnPage(),
			"Press one key, or a chord such as Control+a or Shift+Tab, in the focused element of the page, or in the element locator matches (focused first): Enter to submit a form, Tab to move focus, Escape to close a dialog, arrows to move in lists. "+
				"A key name outside the server's list is refused with the valid names. "+
				"To type text use write, which is faster and clears the field.",
			p.pressKey,
			mcp.WithString("key", mcp.Required(), mcp.Description("key name such as Enter, Tab, Escape, ArrowDown, or a chord like Control+a")),
			locatorArg("locator", false, "the element to focus before pressing; the focused element when left out"),
		),
		New("select", "Select Option", onPage,
			"Choose an option of a <select> element by its visible text or its value. "+
				"Use it instead of click for native drop-downs, which clicks cannot open in a headless browser. "+
				"An option that does not exist is refused with the options there are. "+
				"For custom drop-downs built from divs, click the trigger and then the option.",
			p.selectOption,
			locatorArg("locator", true, "the <select> element"),
			mcp.WithString("option", mcp.Required(), mcp.Description("the option's visible text or value")),
		),
		New("wait_for", "Wait For", ReadOnly.OnPage(),
			"Wait until the page shows something: an element matching locator, a URL containing url, or text anywhere visible; when several are given, all must hold. "+
				"Use it after an action that loads content late, instead of sleeping. "+
				"timeout is in seconds (default 10, at most 120). On timeout it says what was waited for and what the page showed at the end.",
			p.waitFor,
			locatorArg("locator", false, "an element that must become visible"),
			mcp.WithString("url", mcp.Description("text the page URL must contain")),
			mcp.WithString("text", mcp.Description("text that must appear on the page")),
			mcp.WithNumber("timeout", mcp.Description("seconds to wait, default 10")),
		),
		New("assert", "Assert Page", ReadOnly.OnPage(),
			"Check the page right now and fail with the actual values when it does not match: text present, url or title matching a regular expression, an element visible (locator), or exactly count elements matching locator. "+
				"It is the check saved flows use to prove a step worked. "+
				"It does not wait; use wait_for first for content that loads late. Every check given must hold.",
			p.assert,
			mcp.WithString("text", mcp.Description("text that must be on the page")),
			mcp.WithString("url", mcp.Description("regular expression the URL must match")),
			mcp.WithString("title", mcp.Description("regular expression the title must match")),
			locatorArg("locator", false, "an element that must be visible, or be counted with count"),
			mcp.WithNumber("count", mcp.Description("exactly this many visible elements must match locator")),
		),
		New("screenshot", "Take Screenshot", Create.ReadingPage(),
			"Take a PNG screenshot of the viewport, the full page (full_page) or one element (locator). "+
				"You see the image, and it is kept as a file in session://files/screenshots under filename (a free name is picked when taken). "+
				"Prefer outline for finding controls: a screenshot shows layout but gives no locators and costs far more tokens. "+
				"Typed passwords show as dots, but other typed text is visible.",
			p.screenshot,
			locatorArg("locator", false, "capture only this element"),
			mcp.WithBoolean("full_page", mcp.Description("capture the whole scrollable page")),
			mcp.WithString("filename", mcp.Description("name for the kept file, e.g. checkout.png")),
		),
		New("print", "Print Page", Create.ReadingPage(),
			"Keep the current page as a file: format pdf prints it to a real PDF (landscape and background options), format html saves its current HTML, after scripts ran. "+
				"The file lands in session://files under a free name and the result gives its session://files/{name} URI and size; the content itself is not returned. "+
				"Use screenshot to see the page; use print for a document to keep or hand on. "+
				"Your secrets are redacted from an HTML print; a page that shows one is refused as PDF, which cannot be redacted.",
			p.print,
			mcp.WithString("format", mcp.Required(), mcp.Enum("pdf", "html"), mcp.Description("pdf or html")),
			mcp.WithBoolean("landscape", mcp.Description("PDF in landscape orientation")),
			mcp.WithBoolean("background", mcp.Description("PDF with background colours and images")),
			mcp.WithString("filename", mcp.Description("name for the kept file")),
		),
		New("upload_file", "Upload Kept File", onPage,
			"Put one of your kept files into an <input type=file> on the page, as if the person had picked it: kept is its name in session://files (a screenshot, print or download). "+
				"The file never passes through the conversation. Submit the form afterwards with click. "+
				"Works on a local browser and on a Selenium Grid, where the file is shipped to the browser's node first. A missing name is refused with the files you have.",
			p.upload,
			locatorArg("locator", true, "the <input type=file>"),
			mcp.WithString("kept", mcp.Required(), mcp.Description("name of a kept file, e.g. report.pdf or downloads/report.pdf")),
		),
	}
	list = append(list, p.gestures()...)
	list = append(list, p.readTool(), p.scriptTool(), p.resizeTool())
	list = append(list, windowTools(p)...)
	list = append(list, p.siteDataTool())
	return withNotes(p.recorded(p.withURL(p.noOracle(list))))
}

var locatorProps = map[string]any{
	"css":    map[string]any{"type": "string", "description": "CSS selector"},
	"xpath":  map[string]any{"type": "string", "description": "XPath expression"},
	"text":   map[string]any{"type": "string", "description": "visible text the element contains"},
	"label":  map[string]any{"type": "string", "description": "a form control's label, aria-label or placeholder"},
	"role":   map[string]any{"type": "string", "description": "ARIA role such as button, link, textbox, checkbox"},
	"name":   map[string]any{"type": "string", "description": "accessible name, with role"},
	"nth":    map[string]any{"type": "integer", "minimum": 1, "description": "pick the nth match (1-based)"},
	"within": map[string]any{"type": "object", "description": "a locator the element must be inside"},
}

// locatorArg declares a locator argument: an object with exactly one of
// css, xpath, text, label, role, or the locator text outline prints.
func locatorArg(name string, required bool, desc string) mcp.ToolOption {
	return func(t *mcp.Tool) {
		property(t, name, map[string]any{
			"description": desc + ": exactly one of css, xpath, text, label, role (+ name), with optional within and nth; or the locator text exactly as outline prints it",
			"anyOf": []any{
				map[string]any{"type": "object", "properties": locatorProps, "additionalProperties": false},
				map[string]any{"type": "string"},
			},
		})
		if required {
			t.InputSchema.Required = append(t.InputSchema.Required, name)
		}
	}
}

// locatorFrom reads a locator argument: an object, or outline's text form.
func locatorFrom(args map[string]any, name string) (*browser.Locator, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return nil, nil
	}
	var loc browser.Locator
	switch x := v.(type) {
	case string:
		l, err := browser.ParseLocator(x)
		if err != nil {
			return nil, refusal.New(fmt.Sprintf("The %s %q is not a locator: %v.", name, x, err), `Pass an object such as {"label": "Email"} or {"role": "button", "name": "Sign in"}, or copy a locator from outline.`)
		}
		loc = l
	default:
		b, _ := json.Marshal(v)
		if err := json.Unmarshal(b, &loc); err != nil {
			return nil, refusal.New(fmt.Sprintf("The %s is not a locator object.", name), `Pass an object with exactly one of css, xpath, text, label, role, e.g. {"label": "Email"}.`)
		}
	}
	if err := loc.Validate(); err != nil {
		return nil, err
	}
	return &loc, nil
}

func requireLocator(args map[string]any, name string) (browser.Locator, error) {
	loc, err := locatorFrom(args, name)
	if err != nil {
		return browser.Locator{}, err
	}
	if loc == nil {
		return browser.Locator{}, missing(name, `a locator such as {"label": "Email"} or {"role": "button", "name": "Sign in"}; outline lists them`)
	}
	return *loc, nil
}

// do runs fn on the caller's session (see sessions.Manager.Do: no session
// is a refusal, a dead browser is dropped).
func (p *pageTools) do(ctx context.Context, fn func(*sessions.Session) error) error {
	return p.sessions.Do(ctx, sessions.OwnerOf(ctx), func(s *sessions.Session) error {
		note(ctx, s.TakeNote())
		return fn(s)
	})
}

// act runs an action and reports it with where the page is now and what
// else happened (see report): a navigation, a window that opened or
// closed, a dialog the action opened.
func (p *pageTools) act(ctx context.Context, what string, action func(*sessions.Session) error) (*mcp.CallToolResult, error) {
	var text string
	err := p.do(ctx, func(s *sessions.Session) error {
		known := s.KnownDialog()
		err := action(s)
		if err != nil && !errors.Is(err, browser.ErrDialog) {
			return err
		}
		text, err = p.report(ctx, s, what, known, err)
		return err
	})
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(text), nil
}

var windowRE = regexp.MustCompile(`^(\d{3,5})x(\d{3,5})$`)

// maxWindow is the largest window side a browser is opened with.
const maxWindow = 8192

// checkURL refuses a URL the browser would not load, before a browser is
// asked: one without a scheme is not guessed.
func checkURL(raw string) error {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err == nil {
		switch strings.ToLower(u.Scheme) {
		case "http", "https", "about", "data":
			return nil
		}
	}
	return refusal.New(fmt.Sprintf("url %q is not an absolute http or https URL.", raw), "Pass the full address, scheme included (http or https); a URL without one is not guessed.")
}

func (p *pageTools) open(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	opts := browser.SessionOptions{Browser: req.GetString("browser", ""), Insecure: req.GetBool("insecure", false)}
	switch opts.Browser {
	case "", "chrome", "chromium":
	default:
		return nil, refusal.New(fmt.Sprintf("browser %q is not one this server opens.", opts.Browser), `Pass "chrome" (the default) or "chromium".`)
	}
	if w := req.GetString("window", ""); w != "" {
		m := windowRE.FindStringSubmatch(w)
		if m == nil {
			return nil, refusal.New(fmt.Sprintf("window %q is not WIDTHxHEIGHT.", w), "Pass e.g. 1280x800 or 390x844.")
		}
		opts.Window.Width, _ = strconv.Atoi(m[1])
		opts.Window.Height, _ = strconv.Atoi(m[2])
		if opts.Window.Width > maxWindow || opts.Window.Height > maxWindow {
			return nil, refusal.New(fmt.Sprintf("window %q is larger than %dx%d.", w, maxWindow, maxWindow), "Pass e.g. 1280x800 or 390x844.")
		}
	}
	for _, t := range []struct {
		arg string
		to  *time.Duration
		def time.Duration
	}{{"page_load_timeout", &opts.PageLoadTimeout, browser.DefaultPageLoadTimeout}, {"script_timeout", &opts.ScriptTimeout, browser.DefaultScriptTimeout}} {
		d, err := seconds(req.GetArguments()[t.arg], t.def, browser.MaxTimeout)
		if err != nil || d < time.Second {
			return nil, refusal.New(fmt.Sprintf("%s is not a number of seconds from 1 to %d.", t.arg, int(browser.MaxTimeout.Seconds())), fmt.Sprintf("Pass e.g. {%q: 60}, or leave it out for %d.", t.arg, int(t.def.Seconds())))
		}
		*t.to = d
	}
	if u := req.GetString("url", ""); u != "" {
		if err := checkURL(u); err != nil {
			return nil, err
		}
	}
	s, how, err := p.sessions.Open(ctx, sessions.OwnerOf(ctx), opts, req.GetBool("restore_site_data", true))
	if err != nil {
		return nil, err
	}
	note(ctx, s.TakeNote())
	what := "Opened a new browser session"
	switch {
	case how.Kept:
		what = "Your browser session was already open and is kept as it was (call close_session first for a fresh one)"
	case how.Restored > 0:
		what = fmt.Sprintf("Opened a new browser session with the saved site data of %d sites restored (session://sites)", how.Restored)
	case how.SkippedSiteData:
		what = "Opened a new browser session without the saved site data (restore_site_data false); the data stays saved in session://sites"
	}
	return p.act(ctx, what, func(s *sessions.Session) error {
		if u := req.GetString("url", ""); u != "" {
			return s.Navigate(u)
		}
		return nil
	})
}

func (p *pageTools) close(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	closed, err := p.sessions.Close(ctx, sessions.OwnerOf(ctx))
	if err != nil {
		return nil, err
	}
	if !closed {
		return mcp.NewToolResultText("No browser session was open in this workspace; nothing to close."), nil
	}
	return mcp.NewToolResultText("Closed your workspace's browser for good. Kept files stay in session://files and saved site data in session://sites; open_session starts a fresh browser."), nil
}

func (p *pageTools) navigate(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	u := req.GetString("url", "")
	back, fwd, refresh := req.GetBool("back", false), req.GetBool("forward", false), req.GetBool("refresh", false)
	n := 0
	for _, set := range []bool{u != "", back, fwd, refresh} {
		if set {
			n++
		}
	}
	if n != 1 {
		// No URL in the example: refusals are scrubbed of URLs.
		return nil, refusal.New("navigate takes exactly one of url, back, forward or refresh.", `Pass one of them, e.g. {"back": true}, or url with a full http or https address.`)
	}
	if u != "" {
		if err := checkURL(u); err != nil {
			return nil, err
		}
	}
	switch {
	case back:
		return p.act(ctx, "Went back", (*sessions.Session).Back)
	case fwd:
		return p.act(ctx, "Went forward", (*sessions.Session).Forward)
	case refresh:
		return p.act(ctx, "Reloaded", (*sessions.Session).Refresh)
	}
	return p.act(ctx, "Loaded "+u, func(s *sessions.Session) error { return s.Navigate(u) })
}

func (p *pageTools) outline(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	within, err := locatorFrom(req.GetArguments(), "within")
	if err != nil {
		return nil, err
	}
	var text string
	if err := p.do(ctx, func(s *sessions.Session) (err error) {
		text, err = s.Outline(within)
		return p.outlineNotes(ctx, s, &text, err)
	}); err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(text), nil
}

func (p *pageTools) click(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	loc, err := requireLocator(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	o := browser.ClickOptions{Button: req.GetString("button", "left"), Double: req.GetBool("double", false)}
	what := "Clicked "
	switch {
	case o.Button != "left" && o.Button != "right" && o.Button != "middle":
		return nil, refusal.New(fmt.Sprintf("button %q is not a mouse button click presses.", o.Button), `Pass "left" (the default), "right" or "middle".`)
	case o.Double && o.Button != "left":
		what = strings.ToUpper(o.Button[:1]) + o.Button[1:] + "-double-clicked "
	case o.Double:
		what = "Double-clicked "
	case o.Button != "left":
		what = strings.ToUpper(o.Button[:1]) + o.Button[1:] + "-clicked "
	}
	return p.act(ctx, what+loc.String(), func(s *sessions.Session) error { return s.ClickWith(loc, o) })
}

func (p *pageTools) write(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	loc, err := requireLocator(args, "locator")
	if err != nil {
		return nil, err
	}
	text, hasText := args["text"].(string)
	name, hasSecret := args["secret"].(string)
	if hasText == hasSecret {
		// Say which: "exactly one" read as wrong when text was given.
		got := "neither"
		if hasText {
			got = "both"
		}
		return nil, refusal.New(fmt.Sprintf("write takes exactly one of text or secret, and got %s.", got), `Pass {"text": "..."} for ordinary values or {"secret": "name"} for a password; secret://secrets lists your secret names.`)
	}
	clear, submit := !req.GetBool("append", false), req.GetBool("submit", false)
	done := fmt.Sprintf("Typed %d characters into %s", len([]rune(text)), loc.String())
	if hasSecret {
		done = fmt.Sprintf("Typed the secret %q into %s; its value is not shown", name, loc.String())
	}
	if submit {
		done += ", then submitted it"
	}
	return p.act(ctx, done, func(s *sessions.Session) error {
		value := text
		if hasSecret {
			u, _ := s.CurrentURL()
			v, err := p.secrets.Value(s.Principal, name, "", u)
			if err == nil {
				err = p.frameSecret(s, name)
			}
			if err != nil {
				return err
			}
			value = v
		}
		write := s.Write
		if hasSecret {
			write = s.WriteSecret
		}
		if err := write(loc, value, clear); err != nil {
			return fileInputNext(err)
		}
		if submit {
			return s.Submit(loc)
		}
		return nil
	})
}

// fileInputNext turns the refusal to type into a file input into one
// that names the call that fills it.
func fileInputNext(err error) error {
	if errors.Is(err, browser.ErrFileInput) {
		return refusal.New("That is a file input, and typing a path into it is refused.", `Call upload_file with its locator and the name of a kept file from session://files, e.g. {"kept": "report.pdf"}.`)
	}
	return err
}

func (p *pageTools) pressKey(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	key, err := req.RequireString("key")
	if err != nil {
		return nil, missing("key", "a key name such as Enter, Tab or Escape")
	}
	loc, err := locatorFrom(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	what := "Pressed " + key
	if loc != nil {
		what += " in " + loc.String()
	}
	return p.act(ctx, what, func(s *sessions.Session) error {
		if loc != nil {
			if err := s.Focus(*loc); err != nil {
				return fileInputNext(err)
			}
		}
		return s.PressKey(key)
	})
}

func (p *pageTools) selectOption(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	loc, err := requireLocator(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	opt, err := req.RequireString("option")
	if err != nil {
		return nil, missing("option", "the option's visible text or value")
	}
	// Through act like every action: a change handler may open a window
	// or a dialog, or navigate.
	return p.act(ctx, fmt.Sprintf("Selected %q in %s", opt, loc.String()), func(s *sessions.Session) error { return s.Select(loc, opt) })
}

// MaxWait bounds wait_for's timeout.
const MaxWait = 120 * time.Second

func (p *pageTools) waitFor(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	loc, err := locatorFrom(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	c := browser.Condition{Locator: loc, URLContains: req.GetString("url", ""), Text: req.GetString("text", "")}
	if c.Locator == nil && c.URLContains == "" && c.Text == "" {
		return nil, refusal.New("wait_for needs something to wait for.", `Pass locator, url or text, e.g. {"text": "Welcome"}.`)
	}
	timeout, err := seconds(req.GetArguments()["timeout"], 10*time.Second, MaxWait)
	if err != nil {
		return nil, err
	}
	if err := p.do(ctx, func(s *sessions.Session) error { return s.WaitFor(ctx, c, timeout) }); err != nil {
		return nil, err
	}
	return mcp.NewToolResultText("The page shows what was waited for."), nil
}

// seconds reads a timeout in seconds (a number, or a numeric string as a
// flow parameter may give).
func seconds(v any, def, most time.Duration) (time.Duration, error) {
	var f float64
	switch x := v.(type) {
	case nil:
		return def, nil
	case float64:
		f = x
	case string:
		var err error
		if f, err = strconv.ParseFloat(x, 64); err != nil {
			return 0, refusal.New(fmt.Sprintf("timeout %q is not a number of seconds.", x), "Pass e.g. 10.")
		}
	default:
		return 0, refusal.New("timeout is not a number of seconds.", "Pass e.g. 10.")
	}
	d := time.Duration(f * float64(time.Second))
	if d <= 0 || d > most {
		return 0, refusal.New(fmt.Sprintf("timeout %v is outside 0–%d seconds.", f, int(most.Seconds())), "Pass e.g. 10.")
	}
	return d, nil
}

func (p *pageTools) assert(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	loc, err := locatorFrom(args, "locator")
	if err != nil {
		return nil, err
	}
	a := browser.Assertion{TextPresent: req.GetString("text", ""), URLMatches: req.GetString("url", ""), TitleMatches: req.GetString("title", "")}
	if cnt, ok := args["count"]; ok {
		if loc == nil {
			return nil, refusal.New("count needs a locator to count.", `Pass e.g. {"locator": {"css": "tr.order"}, "count": 3}.`)
		}
		n, ok := cnt.(float64)
		if !ok || n < 0 || n != float64(int(n)) {
			return nil, refusal.New("count is not a whole number.", "Pass e.g. 3.")
		}
		a.Count, a.Equals = loc, int(n)
	} else if loc != nil {
		a.Visible = loc
	}
	if a == (browser.Assertion{}) {
		return nil, refusal.New("assert needs something to check.", `Pass text, url, title, locator, or locator with count, e.g. {"text": "Order placed"}.`)
	}
	// The browser package names its own fields; the caller knows url and
	// title.
	for arg, re := range map[string]string{"url": a.URLMatches, "title": a.TitleMatches} {
		if _, err := regexp.Compile(re); err != nil {
			return nil, refusal.New(fmt.Sprintf("assert's %s is not a valid regular expression (%v).", arg, err),
				fmt.Sprintf(`Escape the special characters, e.g. {"%s": "Order \\(3\\)"} for "Order (3)", or match a plain part of it.`, arg))
		}
	}
	if err := p.do(ctx, func(s *sessions.Session) error { return s.Assert(a) }); err != nil {
		return nil, err
	}
	return mcp.NewToolResultText("Every check holds."), nil
}

// keepName picks the kept file name: the caller's, with the extension the
// format needs, or a timestamped one.
func keepName(given, prefix, ext string) string {
	if given == "" {
		return prefix + "-" + time.Now().UTC().Format("20060102-150405") + ext
	}
	if !strings.EqualFold(path.Ext(given), ext) {
		given += ext
	}
	return given
}

func (p *pageTools) keep(principal, folder, name string, data []byte) (files.File, error) {
	box, err := p.sessions.Files(principal)
	if err != nil {
		return files.File{}, err
	}
	return box.Keep(folder, name, data)
}

func keptText(f files.File) string {
	return fmt.Sprintf("Kept as %s (%s, %d bytes).", sessions.FileURI(f.Name), f.MimeType, f.Size)
}

func (p *pageTools) screenshot(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	loc, err := locatorFrom(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	name := keepName(req.GetString("filename", ""), "screenshot", ".png")
	if err := files.CheckName(name); err != nil {
		return nil, err
	}
	var png []byte
	err = p.do(ctx, func(s *sessions.Session) (err error) {
		png, err = s.Screenshot(loc, req.GetBool("full_page", false))
		return err
	})
	if err != nil {
		return nil, err
	}
	f, err := p.keep(auth.Principal(ctx), files.Screenshots, name, png)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{
		mcp.NewImageContent(encode(png), "image/png"),
		mcp.NewTextContent(keptText(f)),
		keptLink(f),
	}}, nil
}

func (p *pageTools) print(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	format := req.GetString("format", "")
	if format != "pdf" && format != "html" {
		return nil, refusal.New(fmt.Sprintf("format %q is not one print makes.", format), `Pass "pdf" or "html".`)
	}
	name := keepName(req.GetString("filename", ""), "page", "."+format)
	if err := files.CheckName(name); err != nil {
		return nil, err
	}
	principal := auth.Principal(ctx)
	var data []byte
	err := p.do(ctx, func(s *sessions.Session) error {
		if format == "pdf" {
			if err := p.pdfSafe(s); err != nil {
				return err
			}
			var err error
			data, err = s.PrintPDF(browser.PrintOptions{Landscape: req.GetBool("landscape", false), Background: req.GetBool("background", false)})
			return err
		}
		html, err := s.PageHTML()
		// A kept file is read later by other routes (GET /files): the
		// caller's secrets leave the page before it is kept.
		data = []byte(p.secrets.Redact(principal, html))
		return err
	})
	if err != nil {
		return nil, err
	}
	f, err := p.keep(principal, files.Prints, name, data)
	if err != nil {
		return nil, err
	}
	text := keptText(f) + " Read it with that URI."
	if link := p.sessions.Link(principal, f.Name); link != "" {
		text = keptText(f) + " Read it with that URI or fetch it at " + link + "."
	}
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(text), keptLink(f)}}, nil
}

// keptLink names the kept file as a resource link, which a client can
// read, and the HTTP surface turns into a signed link.
func keptLink(f files.File) mcp.ResourceLink {
	return mcp.NewResourceLink(sessions.FileURI(f.Name), f.Name, "The kept file, in session://files.", f.MimeType)
}

// pdfSafe refuses a PDF of a page that shows one of the caller's
// secrets: its text is drawn and its links embedded, compressed, where no
// redaction reaches, so it is not made at all. An HTML print is redacted.
// A caller without secrets pays nothing.
func (p *pageTools) pdfSafe(s *sessions.Session) error {
	if len(p.secrets.List(s.Principal)) == 0 {
		return nil
	}
	// The same one-call look at the page the no-oracle check takes
	// (markup, URL, title, field values); a page too big to look at
	// whole counts as showing one.
	e, err := s.Exposure()
	if err != nil {
		return err
	}
	if e.Cut || p.secrets.Contains(s.Principal, e.Text) {
		return refusal.New("This page shows one of your secrets (in its text, a link, a field's value or its address), and a PDF cannot be redacted safely, so it was not printed.",
			`Print it with {"format": "html"}, which is kept with every secret redacted, or navigate to a page that does not show the secret first.`)
	}
	return nil
}

func (p *pageTools) upload(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	loc, err := requireLocator(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	kept, err := req.RequireString("kept")
	if err != nil {
		return nil, missing("kept", "the name of a kept file from session://files")
	}
	if folder, name, ok := strings.Cut(kept, "/"); ok && slices.Contains(files.Folders, folder) {
		kept = name
	}
	err = p.do(ctx, func(s *sessions.Session) error {
		box, err := p.sessions.Files(s.Principal)
		if err != nil {
			return err
		}
		local, err := box.Path(kept)
		if err != nil {
			return err
		}
		return s.Upload(loc, local)
	})
	if err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(fmt.Sprintf("Put %s into %s; submit the form to send it.", kept, loc.String())), nil
}
