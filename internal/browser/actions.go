package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Navigate loads url in the session's window and waits for the page to load.
func (s *Session) Navigate(rawURL string) error {
	u, err := url.Parse(strings.TrimSpace(rawURL))
	if err != nil || u.Scheme == "" {
		return fmt.Errorf("navigate: %q is not an absolute URL (such as https://example.com/)", truncate(rawURL, 200))
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https", "about", "data":
	default:
		return fmt.Errorf("navigate: the %s: scheme is not allowed; use http or https", u.Scheme)
	}
	if err := s.begin(); err != nil {
		return fmt.Errorf("navigate: %w", err)
	}
	defer s.mu.Unlock()
	s.newDoc = true
	start := time.Now()
	err = s.wd.Get(u.String())
	if blocked := s.notConnected(u, start); blocked != nil {
		return blocked
	}
	if err != nil {
		return s.fail("navigate", err)
	}
	return nil
}

// Back goes one step back in the window's history.
func (s *Session) Back() error { return s.simple("back", func() error { return s.wd.Back() }) }

// Forward goes one step forward in the window's history.
func (s *Session) Forward() error { return s.simple("forward", func() error { return s.wd.Forward() }) }

// Refresh reloads the page.
func (s *Session) Refresh() error { return s.simple("refresh", func() error { return s.wd.Refresh() }) }

func (s *Session) simple(op string, f func() error) error {
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	s.newDoc = true // all of them load a document (or restore one)
	if err := f(); err != nil {
		return s.fail(op, err)
	}
	return nil
}

// CurrentURL returns the URL of the page.
func (s *Session) CurrentURL() (string, error) { return s.read("current URL", s.wd.CurrentURL) }

// Title returns the title of the page.
func (s *Session) Title() (string, error) { return s.read("title", s.wd.Title) }

// PageHTML returns the serialised DOM of the page.
func (s *Session) PageHTML() (string, error) { return s.read("page HTML", s.wd.PageSource) }

// read runs one WebDriver command that answers a string.
func (s *Session) read(op string, f func() (string, error)) (string, error) {
	if err := s.begin(); err != nil {
		return "", fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	v, err := f()
	if err != nil {
		return "", s.fail(op, err)
	}
	return v, nil
}

// Click clicks the element loc addresses.
func (s *Session) Click(loc Locator) error {
	op := "click " + loc.String()
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	// The lookup also prepares settle (as mark does), saving a round trip.
	el, r, err := s.resolveWith(loc, resolveOpts{Mark: true})
	if err != nil {
		return s.fail(op, err)
	}
	if err := el.Click(); err != nil {
		return s.fail(op, err)
	}
	if r.Marked {
		if err := s.settle(); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	return nil
}

// Write types text into the element loc addresses, first clearing it when
// clear is true. The text never appears in errors.
func (s *Session) Write(loc Locator, text string, clear bool) error {
	op := "write into " + loc.String()
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	// The lookup also tells whether WebDriver's Clear would change nothing
	// (an empty text field in view), which then is not sent. The text is
	// typed by WebDriver's Element Send Keys, key event by key event.
	el, r, err := s.resolveWith(loc, resolveOpts{Clear: clear})
	if err != nil {
		return s.fail(op, err)
	}
	// Typing into a file input would hand the page a path (keys.go).
	if err := s.notFileInput(el); err != nil {
		return s.fail(op, err)
	}
	if clear && !r.ClearNoop {
		if err := el.Clear(); err != nil {
			return s.fail(op, err)
		}
	}
	if text == "" {
		return nil
	}
	if err := el.SendKeys(text); err != nil {
		return s.fail(op, err)
	}
	return nil
}

// PressKey presses a key, with optional modifiers, in the focused element
// (or the page): a name from KeyNames, a single character, or a
// combination such as "Control+a" or "Shift+Tab".
func (s *Session) PressKey(key string) error {
	mods, code, err := parseKey(key)
	if err != nil {
		return fmt.Errorf("press key: %w", err)
	}
	op := "press key " + strconv.Quote(key)
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	type action struct {
		Type  string `json:"type"`
		Value string `json:"value"`
	}
	var acts []action
	for _, m := range mods {
		acts = append(acts, action{"keyDown", m})
	}
	acts = append(acts, action{"keyDown", code}, action{"keyUp", code})
	for i := len(mods) - 1; i >= 0; i-- {
		acts = append(acts, action{"keyUp", mods[i]})
	}
	body := map[string]any{"actions": []any{map[string]any{"type": "key", "id": "keyboard", "actions": acts}}}
	marked := s.mark()
	if _, err := s.raw(context.Background(), "POST", "/actions", body); err != nil {
		return s.fail(op, err)
	}
	if marked {
		if err := s.settle(); err != nil {
			return fmt.Errorf("%s: %w", op, err)
		}
	}
	return nil
}

// Select chooses an option of the <select> loc addresses, by its visible
// text or its value. When no option (or more than one) fits, the error
// lists the options there are.
func (s *Session) Select(loc Locator, option string) error {
	op := "select " + strconv.Quote(truncate(option, 100)) + " in " + loc.String()
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	el, err := s.resolve(loc, false)
	if err != nil {
		return s.fail(op, err)
	}
	var r struct {
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
	if err := s.script("option", map[string]any{"option": option}, el, &r); err != nil {
		return s.fail(op, err)
	}
	switch {
	case r.NotSelect:
		return fmt.Errorf("%s: it is a %s, not a <select>; click it to open it, then click the option (for example role:option name:\"…\")", op, r.Kind)
	case !r.OK && r.N > 1:
		return fmt.Errorf("%s: %d options fit; use the full text or value of one of: %s", op, r.N, quoteList(r.Options, 30))
	case !r.OK:
		return fmt.Errorf("%s: there is no such option; the options are: %s", op, quoteList(r.Options, 30))
	case r.Disabled:
		return fmt.Errorf("%s: that option is disabled", op)
	case r.Selected && !r.Multiple:
		return nil
	}
	opt, err := s.element(r.El)
	if err != nil {
		return s.fail(op, err)
	}
	if err := opt.Click(); err != nil {
		// Some selects cannot be clicked (covered, styled away): set the
		// option from a script and fire the events a user's choice fires.
		if ferr := s.script("selectFallback", nil, opt, nil); ferr != nil {
			return s.fail(op, err)
		}
	}
	return nil
}

// Count returns how many visible elements loc matches (nth ignored).
func (s *Session) Count(loc Locator) (int, error) {
	op := "count " + loc.String()
	if err := loc.Validate(); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	if err := s.begin(); err != nil {
		return 0, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	r, err := s.check(checkArgs{Locs: []Locator{loc}})
	if err != nil {
		return 0, s.fail(op, err)
	}
	if c := r.Counts[0]; c.Msg != "" {
		return 0, fmt.Errorf("%s: %s", op, c.Msg)
	}
	return r.Counts[0].N, nil
}

// Outline returns a compact text outline of the page (or of the part
// within addresses): title and URL, landmarks, headings, short text, and
// every visible control with a locator that the other methods accept.
// Values of password and one-time-code fields are never shown.
func (s *Session) Outline(within *Locator) (string, error) {
	op := "outline"
	args := map[string]any{}
	if within != nil {
		if err := within.Validate(); err != nil {
			return "", fmt.Errorf("outline: within: %w", err)
		}
		args["within"] = within
		args["withinStr"] = within.String()
	}
	if err := s.begin(); err != nil {
		return "", fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	var r struct {
		locFailure
		Text string `json:"text"`
	}
	if err := s.script("outline", args, nil, &r); err != nil {
		return "", s.fail(op, err)
	}
	if !r.OK {
		return "", fmt.Errorf("%s: %w", op, r.err(*within))
	}
	return r.Text, nil
}

// ---- waiting and assertions ------------------------------------------------

// Condition is what WaitFor waits for; every field that is set must hold.
type Condition struct {
	// Locator must match at least one visible element (the nth, if given).
	Locator *Locator `json:"locator,omitempty"`
	// URLContains must be part of the page URL.
	URLContains string `json:"url_contains,omitempty"`
	// Text must be part of the page's visible text (case-insensitive).
	Text string `json:"text,omitempty"`
}

func (c Condition) describe() string {
	var parts []string
	if c.Locator != nil {
		parts = append(parts, c.Locator.String()+" to be visible")
	}
	if c.URLContains != "" {
		parts = append(parts, "the URL to contain "+strconv.Quote(c.URLContains))
	}
	if c.Text != "" {
		parts = append(parts, "the text "+strconv.Quote(truncate(c.Text, 100))+" to appear")
	}
	return strings.Join(parts, " and ")
}

// DefaultWaitTimeout is used by WaitFor when no timeout is given.
const DefaultWaitTimeout = 10 * time.Second

const pollInterval = 200 * time.Millisecond

// WaitFor polls the page until the condition holds, the timeout passes
// (the error then wraps ErrTimeout and says what was seen last) or ctx ends.
func (s *Session) WaitFor(ctx context.Context, c Condition, timeout time.Duration) error {
	if c.Locator == nil && c.URLContains == "" && c.Text == "" {
		return errors.New("wait for: give a locator, url_contains or text to wait for")
	}
	if c.Locator != nil {
		if err := c.Locator.Validate(); err != nil {
			return fmt.Errorf("wait for: %w", err)
		}
	}
	if timeout <= 0 {
		timeout = DefaultWaitTimeout
	}
	args := checkArgs{Text: c.Text}
	if c.Locator != nil {
		args.Locs = []Locator{*c.Locator}
	}
	deadline := time.Now().Add(timeout)
	var last checkResult
	for {
		r, err := s.checkLocked(args)
		if err != nil {
			return fmt.Errorf("wait for %s: %w", c.describe(), err)
		}
		last = r
		ok := true
		if c.Locator != nil {
			cnt := r.Counts[0]
			if cnt.Msg != "" {
				return fmt.Errorf("wait for %s: %s", c.describe(), cnt.Msg)
			}
			need := 1
			if c.Locator.Nth > 0 {
				need = c.Locator.Nth
			}
			ok = cnt.N >= need
		}
		if c.URLContains != "" && !strings.Contains(r.URL, c.URLContains) {
			ok = false
		}
		if c.Text != "" && !r.TextFound {
			ok = false
		}
		if ok {
			return nil
		}
		if time.Now().After(deadline) {
			break
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for %s: %w", c.describe(), ctx.Err())
		case <-time.After(pollInterval):
		}
	}
	var seen []string
	if c.Locator != nil {
		cnt := last.Counts[0]
		switch {
		case cnt.Hidden > 0:
			seen = append(seen, fmt.Sprintf("%s matches only hidden elements (%d)", c.Locator, cnt.Hidden))
		default:
			seen = append(seen, fmt.Sprintf("%s matches %s", c.Locator, elements(cnt.N)))
		}
	}
	if c.URLContains != "" {
		seen = append(seen, "the URL is "+last.URL)
	}
	if c.Text != "" {
		seen = append(seen, "the text is not on the page")
	}
	return fmt.Errorf("waited %s for %s: %w; at the end %s", timeout, c.describe(), ErrTimeout, strings.Join(seen, "; "))
}

// Assertion is what Assert checks; every field that is set must hold.
type Assertion struct {
	// TextPresent must be part of the page's visible text (case-insensitive).
	TextPresent string `json:"text_present,omitempty"`
	// URLMatches is a regular expression the page URL must match.
	URLMatches string `json:"url_matches,omitempty"`
	// TitleMatches is a regular expression the page title must match.
	TitleMatches string `json:"title_matches,omitempty"`
	// Visible must match at least one visible element (the nth, if given).
	Visible *Locator `json:"visible,omitempty"`
	// Count must match exactly Equals visible elements.
	Count *Locator `json:"count,omitempty"`
	// Equals is the number of elements Count must match.
	Equals int `json:"equals,omitempty"`
}

// AssertionError reports the checks of an Assertion that failed, each with
// the value actually found.
type AssertionError struct {
	// Failures has one sentence per failed check.
	Failures []string
}

// Error joins the failures into one message.
func (e *AssertionError) Error() string {
	return "assertion failed: " + strings.Join(e.Failures, "; ")
}

// Assert checks the page once. It returns nil when every check holds, an
// *AssertionError listing the failed checks, or another error when the
// assertion is malformed or the page cannot be checked.
func (s *Session) Assert(a Assertion) error {
	if a.TextPresent == "" && a.URLMatches == "" && a.TitleMatches == "" && a.Visible == nil && a.Count == nil {
		return errors.New("assert: give at least one of text_present, url_matches, title_matches, visible or count")
	}
	var urlRE, titleRE *regexp.Regexp
	var err error
	if a.URLMatches != "" {
		if urlRE, err = regexp.Compile(a.URLMatches); err != nil {
			return fmt.Errorf("assert: url_matches is not a valid regular expression: %v", err)
		}
	}
	if a.TitleMatches != "" {
		if titleRE, err = regexp.Compile(a.TitleMatches); err != nil {
			return fmt.Errorf("assert: title_matches is not a valid regular expression: %v", err)
		}
	}
	if a.Equals < 0 {
		return errors.New("assert: equals cannot be negative")
	}
	args := checkArgs{Text: a.TextPresent}
	for _, l := range []*Locator{a.Visible, a.Count} {
		if l != nil {
			if err := l.Validate(); err != nil {
				return fmt.Errorf("assert: %w", err)
			}
			args.Locs = append(args.Locs, *l)
		}
	}
	r, err := s.checkLocked(args)
	if err != nil {
		return fmt.Errorf("assert: %w", err)
	}
	var fails []string
	if a.TextPresent != "" && !r.TextFound {
		fails = append(fails, fmt.Sprintf("the text %q is not on the page", truncate(a.TextPresent, 100)))
	}
	if urlRE != nil && !urlRE.MatchString(r.URL) {
		fails = append(fails, fmt.Sprintf("the URL %s does not match %q", r.URL, a.URLMatches))
	}
	if titleRE != nil && !titleRE.MatchString(r.Title) {
		fails = append(fails, fmt.Sprintf("the title %q does not match %q", r.Title, a.TitleMatches))
	}
	i := 0
	if a.Visible != nil {
		c := r.Counts[i]
		i++
		need := max(1, a.Visible.Nth)
		switch {
		case c.Msg != "":
			return fmt.Errorf("assert: %s: %s", a.Visible, c.Msg)
		case c.N >= need:
		case c.Hidden > 0:
			fails = append(fails, fmt.Sprintf("%s is not visible: it matches only hidden elements (%d)", a.Visible, c.Hidden))
		case c.N == 0:
			fails = append(fails, fmt.Sprintf("%s is not visible: no element matches it", a.Visible))
		default:
			fails = append(fails, fmt.Sprintf("%s is not visible: only %s match", a.Visible, elements(c.N)))
		}
	}
	if a.Count != nil {
		c := r.Counts[i]
		if c.Msg != "" {
			return fmt.Errorf("assert: %s: %s", a.Count, c.Msg)
		}
		if c.N != a.Equals {
			fails = append(fails, fmt.Sprintf("expected %s to match %s, found %d", a.Count, elements(a.Equals), c.N))
		}
	}
	if len(fails) > 0 {
		return &AssertionError{Failures: fails}
	}
	return nil
}

type checkArgs struct {
	Text string    `json:"text,omitempty"`
	Locs []Locator `json:"locs"`
}

type checkResult struct {
	URL       string `json:"url"`
	Title     string `json:"title"`
	TextFound bool   `json:"textFound"`
	Counts    []struct {
		N      int    `json:"n"`
		Hidden int    `json:"hidden"`
		Msg    string `json:"msg"`
	} `json:"counts"`
}

func (s *Session) check(a checkArgs) (checkResult, error) {
	if a.Locs == nil {
		a.Locs = []Locator{}
	}
	var r checkResult
	if err := s.script("check", a, nil, &r); err != nil {
		return r, err
	}
	if len(r.Counts) != len(a.Locs) {
		return r, errors.New("unexpected script reply")
	}
	return r, nil
}

// checkLocked runs check under the session lock with cleaned errors.
func (s *Session) checkLocked(a checkArgs) (checkResult, error) {
	if err := s.begin(); err != nil {
		return checkResult{}, err
	}
	defer s.mu.Unlock()
	r, err := s.check(a)
	if err != nil {
		return r, s.fail("", err)
	}
	return r, nil
}

func quoteList(items []string, max int) string {
	var b strings.Builder
	for i, it := range items {
		if i == max {
			fmt.Fprintf(&b, " and %d more", len(items)-max)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Quote(truncate(it, 60)))
	}
	if len(items) == 0 {
		return "(none)"
	}
	return b.String()
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
