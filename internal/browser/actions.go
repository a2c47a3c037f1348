package browser

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tebeka/selenium"
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
	s.oracle.scripted.Store(false) // a document the session loaded itself
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
	s.oracle.scripted.Store(false) // a document the session loaded itself
	return nil
}

// CurrentURL returns the URL of the page.
func (s *Session) CurrentURL() (string, error) {
	u, err := s.read("current URL", s.wd.CurrentURL)
	if err == nil {
		s.lastURL.Store(u)
	}
	return u, err
}

// LastURL is the URL CurrentURL last read, without asking the browser:
// what a workspace records after each call costs no round trip.
func (s *Session) LastURL() string {
	u, _ := s.lastURL.Load().(string)
	return u
}

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
	// The lookup also prepares settle (as mark does), saving a round trip.
	return s.withElement(op, loc, resolveOpts{Mark: true}, func(el selenium.WebElement, r resolved) error {
		if err := el.Click(); err != nil {
			return s.fail(op, err)
		}
		if r.Marked {
			if err := s.settle(); err != nil {
				return fmt.Errorf("%s: %w", op, err)
			}
		}
		return nil
	})
}

// Write types text into the element loc addresses, first clearing it when
// clear is true. The text never appears in errors.
func (s *Session) Write(loc Locator, text string, clear bool) error {
	return s.write(loc, text, clear, false)
}

// WriteSecret is Write for a secret's value: the field is then marked in
// the page, so that outlines and reads of it say it is filled and how
// full, never what it holds (nor the part of it a maxlength kept).
func (s *Session) WriteSecret(loc Locator, value string, clear bool) error {
	return s.write(loc, value, clear, true)
}

func (s *Session) write(loc Locator, text string, clear, secret bool) error {
	op := "write into " + loc.String()
	if secret && s.oracle.scripted.Load() {
		return fmt.Errorf("%s: %w", op, ErrScriptedPage)
	}
	// The lookup also tells whether WebDriver's Clear would change nothing
	// (an empty text field in view), which then is not sent. The text is
	// typed by WebDriver's Element Send Keys, key event by key event.
	return s.withElement(op, loc, resolveOpts{Clear: clear, Kind: true}, func(el selenium.WebElement, r resolved) error {
		// Typing into a file input would hand the page a path (keys.go).
		if r.FileInput {
			return s.fail(op, ErrFileInput)
		}
		if clear && !r.ClearNoop {
			if err := el.Clear(); err != nil {
				return s.fail(op, err)
			}
		}
		if secret {
			// Marked before typing: a page that reacts to each key never
			// shows an unmarked, partly typed secret.
			s.oracle.typed.Store(true)
			if err := s.script("markSecret", nil, el, nil); err != nil {
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
	})
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
	// The lookup picks the option too: one script for both.
	return s.withElement(op, loc, resolveOpts{Option: &option}, func(_ selenium.WebElement, found resolved) error {
		r := found.Option
		if r == nil {
			return fmt.Errorf("%s: the page did not say which option fits", op)
		}
		switch {
		case r.NotSelect:
			return fmt.Errorf("%s: it is a %s, not a <select>; click it to open it, then click the option (for example option:\"…\")", op, r.Kind)
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
	})
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
