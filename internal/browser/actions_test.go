package browser

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

func TestLoginFlow(t *testing.T) {
	s := open(t, "/login")
	title, err := s.Title()
	assert.NilError(t, err)
	assert.Equal(t, title, "Sign in · Acme")

	const secret = "hunter2-Sup3r-secret"
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "ada@example.com", true))
	assert.NilError(t, s.Write(Locator{Label: "password"}, secret, false)) // labels match case-insensitively
	assert.NilError(t, s.Click(Locator{Label: "Remember me"}))

	out, err := s.Outline(nil)
	assert.NilError(t, err)
	// Stable ids and field names come before labels; the name follows.
	assert.Assert(t, is.Contains(out, `email css:#email "Email" value:"ada@example.com"`))
	assert.Assert(t, is.Contains(out, `password css:#password "Password" filled`))
	assert.Assert(t, is.Contains(out, `checkbox css:input[name=remember] "Remember me" checked`))

	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Sign in"}))
	assert.NilError(t, s.WaitFor(context.Background(), Condition{Text: "Welcome ada@example.com"}, testenv.Remaining(t)))
	assert.NilError(t, s.Assert(Assertion{
		TextPresent:  "welcome ADA@example.com", // case-insensitive
		TitleMatches: "^Welcome$",
		URLMatches:   `/login$`,
		Visible:      &Locator{Text: "Remember me: 1"},
		Count:        &Locator{Role: "link"},
		Equals:       1,
	}))
	u, err := s.CurrentURL()
	assert.NilError(t, err)
	assert.Equal(t, u, page("/login"))

	// History. The refresh is of the form's own page (a GET): refreshing
	// the POST's answer would ask the browser to send the form again.
	assert.NilError(t, s.Back())
	assert.NilError(t, s.WaitFor(context.Background(), Condition{Locator: &Locator{Label: "Email"}}, testenv.Remaining(t)))
	assert.NilError(t, s.Refresh())
	assert.NilError(t, s.WaitFor(context.Background(), Condition{Locator: &Locator{Label: "Email"}}, testenv.Remaining(t)))
	assert.NilError(t, s.Forward())
}

func TestLocators(t *testing.T) {
	s := open(t, "/controls")
	tests := []struct {
		name string
		loc  Locator
		said string
	}{
		{"role and name with nth", Locator{Role: "button", Name: "save", Nth: 2}, "saved second"},
		{"within", Locator{Role: "button", Name: "Save", Within: &Locator{CSS: "#draft-1"}}, "saved first"},
		{"within by text", Locator{Role: "button", Within: &Locator{CSS: ".card", Nth: 2}}, "saved second"},
		{"text, innermost, whitespace-normalised", Locator{Text: "  custom   ACTION "}, "custom clicked"},
		{"text on an input button", Locator{Text: "Send"}, "sent"},
		{"xpath", Locator{XPath: "//div[@id='draft-1']//button"}, "saved first"},
		{"xpath within", Locator{XPath: ".//button", Within: &Locator{CSS: "#draft-2"}}, "saved second"},
		{"css nth", Locator{CSS: "#drafts button", Nth: 1}, "saved first"},
		{"explicit role", Locator{Role: "button", Name: "Custom action"}, "custom clicked"},
		{"onclick card by text", Locator{Text: "Clickable card"}, "card clicked"},
		{"exact name preferred to substring", Locator{Role: "button", Name: "Start"}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.NilError(t, s.Click(tc.loc))
			if tc.said != "" {
				assert.NilError(t, s.Assert(Assertion{Visible: &Locator{Text: tc.said}}))
			}
		})
	}

	misses := []struct {
		name    string
		loc     Locator
		matched int
		msg     string
	}{
		{"none", Locator{Role: "button", Name: "Nope"}, 0,
			`click button:"Nope": no element matches button:"Nope"; call outline to see the page's controls and their locators`},
		{"two", Locator{Role: "button", Name: "Save"}, 2,
			`click button:"Save": 2 elements match button:"Save"; add nth (1..2) or within`},
		{"nth too big", Locator{Role: "button", Name: "Save", Nth: 3}, 2, `nth 3 is out of range`},
		{"hidden only", Locator{Role: "button", Name: "Secret action"}, 1, `matches only hidden element`},
		{"visibility hidden", Locator{Role: "button", Name: "Ghost action"}, 1, `matches only hidden element`},
		{"aria-hidden", Locator{Role: "button", Name: "Muted action"}, 1, `matches only hidden element`},
		{"within misses", Locator{Role: "button", Within: &Locator{CSS: "#nowhere"}}, 0, `the within locator failed: no element matches css:#nowhere`},
		{"invalid css", Locator{CSS: "div[["}, 0, `invalid css selector`},
		{"invalid xpath", Locator{XPath: "//div[["}, 0, `invalid xpath expression`},
	}
	for _, tc := range misses {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Click(tc.loc)
			var le *LocatorError
			assert.Assert(t, errors.As(err, &le), "error %v", err)
			assert.Equal(t, le.Matched, tc.matched)
			assert.ErrorContains(t, err, tc.msg)
		})
	}

	err := s.Click(Locator{})
	assert.ErrorContains(t, err, "click (empty locator): a locator needs exactly one of css, xpath, text, label or role")
	err = s.Click(Locator{Role: "button", Name: "Save", Within: &Locator{Text: "x", CSS: "y"}})
	assert.ErrorContains(t, err, "within: a locator needs exactly one of css, xpath, text, label or role (name goes with role; nth and within are optional); got css and text")

	n, err := s.Count(Locator{Role: "button", Name: "Save"})
	assert.NilError(t, err)
	assert.Equal(t, n, 2)
	n, err = s.Count(Locator{Role: "button", Name: "Secret action"})
	assert.NilError(t, err)
	assert.Equal(t, n, 0)
	_, err = s.Count(Locator{CSS: "a", Text: "b"})
	assert.ErrorContains(t, err, "exactly one of css, xpath, text, label or role")
}

func TestWrite(t *testing.T) {
	s := open(t, "/controls")
	const typed = "first draft s3cr3t"
	assert.NilError(t, s.Write(Locator{Label: "Notes"}, typed, false))
	assert.NilError(t, s.Write(Locator{Label: "Notes"}, "replaced", true))
	assert.NilError(t, s.Write(Locator{Label: "Rich editor"}, "rich text", false))
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Assert(t, is.Contains(out, `textarea css:#notes "Notes" value:"replaced"`))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "rich text"}))

	// Typed text never shows in errors.
	for _, loc := range []Locator{{Label: "Nowhere"}, {Role: "button", Name: "Save"}, {Role: "button", Name: "Secret action"}, {CSS: "#lastkey"}} {
		err := s.Write(loc, typed, true)
		assert.Assert(t, err != nil, "write into %s", loc)
		assert.Assert(t, !strings.Contains(err.Error(), typed), err.Error())
		assert.Assert(t, !strings.Contains(err.Error(), "s3cr3t"), err.Error())
	}
}

func TestPressKey(t *testing.T) {
	s := open(t, "/controls")
	assert.NilError(t, s.Click(Locator{Label: "Key catcher"}))
	for _, tc := range []struct{ key, seen string }{
		{"Enter", "Enter"}, {"ArrowDown", "ArrowDown"}, {"Escape", "Escape"}, {"x", "x"},
		{"Control+a", "Control+a"}, {"Shift+Tab", "Shift+Tab"},
	} {
		if tc.key == "Shift+Tab" {
			assert.NilError(t, s.Click(Locator{Label: "Key catcher"}))
		}
		assert.NilError(t, s.PressKey(tc.key), tc.key)
		assert.NilError(t, s.Assert(Assertion{Visible: &Locator{CSS: "#lastkey"}, TextPresent: "Last key: " + tc.seen}), tc.key)
	}
	err := s.PressKey("Entr")
	assert.ErrorContains(t, err, `press key: unknown key "Entr"; use one of Enter, Tab, Escape, Backspace, Delete, Space, ArrowUp, ArrowDown, ArrowLeft, ArrowRight, Home, End, PageUp, PageDown`)
}

func TestSelect(t *testing.T) {
	s := open(t, "/controls")
	size := Locator{Label: "Size"}
	assert.NilError(t, s.Select(size, "large"))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Chosen size: l"}))
	assert.NilError(t, s.Select(size, "s")) // by value
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Chosen size: s"}))
	assert.NilError(t, s.Select(size, "Medium"))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Chosen size: m"}))

	err := s.Select(size, "Huge")
	assert.ErrorContains(t, err, `select "Huge" in label:"Size": there is no such option; the options are: "Small", "Medium", "Large", "Extra large"`)
	err = s.Select(size, "Extra large")
	assert.ErrorContains(t, err, "that option is disabled")
	err = s.Select(size, "l") // value "l", but also part of 3 texts: the value wins
	assert.NilError(t, err)
	err = s.Select(size, "edi")
	assert.NilError(t, err) // "Medium" is the only text containing "edi"
	err = s.Select(size, "arg")
	assert.ErrorContains(t, err, `2 options fit; use the full text or value of one of: "Small", "Medium", "Large", "Extra large"`)
	err = s.Select(Locator{Label: "Notes"}, "x")
	assert.ErrorContains(t, err, "it is a textarea, not a <select>")
}

func TestWaitFor(t *testing.T) {
	s := open(t, "/controls")
	ctx := context.Background()
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Start"}))
	// The button comes 600 ms after the click; WaitFor returns when it
	// does, well before its timeout (the test's deadline).
	start, timeout := time.Now(), testenv.Remaining(t)
	assert.NilError(t, s.WaitFor(ctx, Condition{Locator: &Locator{Role: "button", Name: "Continue"}, URLContains: "#ready"}, timeout))
	assert.Assert(t, time.Since(start) < timeout/2, "waited %v of %v", time.Since(start), timeout)

	err := s.WaitFor(ctx, Condition{Locator: &Locator{Role: "button", Name: "Never"}, Text: "not here"}, 500*time.Millisecond)
	assert.Assert(t, errors.Is(err, ErrTimeout))
	assert.ErrorContains(t, err, `waited 500ms for button:"Never" to be visible and the text "not here" to appear: timed out; `+
		`at the end button:"Never" matches no element; the text "not here" is not on the page; `+
		`the page is "Controls" at `+page("/controls#ready")+`. Call outline to see what the page has, or wait_for again with a longer timeout`)

	err = s.WaitFor(ctx, Condition{Locator: &Locator{Role: "button", Name: "Secret action"}}, 300*time.Millisecond)
	assert.ErrorContains(t, err, "matches only hidden elements (1)")

	err = s.WaitFor(ctx, Condition{URLContains: "/elsewhere"}, 300*time.Millisecond)
	assert.ErrorContains(t, err, `the page is "Controls" at `+page("/controls#ready"))

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	err = s.WaitFor(cctx, Condition{Text: "not here"}, time.Minute)
	assert.Assert(t, errors.Is(err, context.Canceled))

	assert.ErrorContains(t, s.WaitFor(ctx, Condition{}, time.Second), "give a locator, url_contains or text")
}

func TestAssertFailures(t *testing.T) {
	s := open(t, "/controls")
	err := s.Assert(Assertion{
		TextPresent:  "no such words",
		URLMatches:   `/other$`,
		TitleMatches: `^Dashboard`,
		Visible:      &Locator{Role: "button", Name: "Secret action"},
		Count:        &Locator{Role: "button", Name: "Save"},
		Equals:       3,
	})
	var ae *AssertionError
	assert.Assert(t, errors.As(err, &ae))
	assert.Equal(t, len(ae.Failures), 5)
	assert.Equal(t, ae.Failures[0], `the text "no such words" is not on the page`)
	assert.Equal(t, ae.Failures[1], `the URL `+page("/controls")+` does not match "/other$"`)
	assert.Equal(t, ae.Failures[2], `the title "Controls" does not match "^Dashboard"`)
	assert.Equal(t, ae.Failures[3], `button:"Secret action" is not visible: it matches only hidden elements (1)`)
	assert.Equal(t, ae.Page, `the page is "Controls" at `+page("/controls"))
	assert.Equal(t, ae.Failures[4], `expected button:"Save" to match 3 elements, found 2`)

	err = s.Assert(Assertion{Visible: &Locator{Text: "nothing like this"}})
	assert.ErrorContains(t, err, `assertion failed: text:"nothing like this" is not visible: it matches no element; the page is "Controls" at `+
		page("/controls")+`. If the page is still changing, wait_for it first; outline shows what the page has`)
	err = s.Assert(Assertion{Count: &Locator{CSS: ".gone"}, Equals: 0}) // hidden ones do not count
	assert.NilError(t, err)

	err = s.Assert(Assertion{URLMatches: "("})
	assert.Assert(t, !errors.As(err, &ae))
	assert.ErrorContains(t, err, "url_matches is not a valid regular expression")
	assert.ErrorContains(t, s.Assert(Assertion{}), "give at least one of")
}

func TestNavigateRefusals(t *testing.T) {
	s := shared(t)
	for _, u := range []string{"example.com", "file:///etc/passwd", "javascript:alert(1)", ""} {
		err := s.Navigate(u)
		assert.Assert(t, err != nil, u)
		assert.Assert(t, !errors.Is(err, ErrSessionGone))
	}
	// Outside names do not resolve in the tests (the resolver rule given
	// with WithBrowserArgs); localhost does.
	err := s.Navigate("http://example.invalid/")
	assert.ErrorContains(t, err, "navigate: the page could not be loaded (net::ERR_")
	err = s.Navigate("http://example.com/")
	assert.ErrorContains(t, err, "navigate: the page could not be loaded (net::ERR_NAME_NOT_RESOLVED)")
	assert.NilError(t, s.Navigate(localhostPage("/login")))
}

func TestAlertIsReported(t *testing.T) {
	s := open(t, "/controls")
	answerAny(t, s)
	// The alert stays open ("ignore"): the click that opened it says so,
	// and so does every command until the dialog is answered.
	err := s.Click(Locator{Role: "button", Name: "Alert me"})
	assert.ErrorContains(t, err, "click button:\"Alert me\": a JavaScript dialog (alert, confirm or prompt) is open and blocks the page")
	assert.Assert(t, errors.Is(err, ErrDialog))
	_, err = s.Outline(nil)
	assert.Assert(t, errors.Is(err, ErrDialog))
	d, err := s.AnswerDialog(true, nil)
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(d, Dialog{Type: "alert", Text: "hello"}))
	_, err = s.Outline(nil)
	assert.NilError(t, err)
}

// TestConcurrentUse sends commands to one session from several goroutines;
// they are serialised by the session.
func TestConcurrentUse(t *testing.T) {
	s := open(t, "/controls")
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 5; j++ {
				if _, err := s.Title(); err != nil {
					errs <- err
				}
				if _, err := s.Outline(nil); err != nil {
					errs <- err
				}
				if n, err := s.Count(Locator{Role: "button", Name: "Save"}); err != nil || n != 2 {
					errs <- fmt.Errorf("count %d: %v", n, err)
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
