package browser

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
)

// Assertion is what Assert checks; every field that is set must hold.
type Assertion struct {
	// TextPresent must be part of the page's visible text (case-insensitive,
	// typographic quotes and dashes matching plain ones).
	TextPresent string `json:"text_present,omitempty"`
	// URLMatches is a regular expression the page URL must match.
	URLMatches string `json:"url_matches,omitempty"`
	// TitleMatches is a regular expression the page title must match.
	TitleMatches string `json:"title_matches,omitempty"`
	// Visible must match at least one visible element (the nth, if given).
	Visible *Locator `json:"visible,omitempty"`
	// Count must match exactly Equals visible elements, inside its within.
	// With nth it counts the nth match only: 1 if it exists, else 0.
	Count *Locator `json:"count,omitempty"`
	// Equals is the number of elements Count must match.
	Equals int `json:"equals,omitempty"`
}

// AssertionError reports the checks of an Assertion that failed, each with
// what the page has instead.
type AssertionError struct {
	// Failures has one sentence per failed check.
	Failures []string
	// Page says where the browser was: the page's title and URL.
	Page string
}

// Error joins the failures, says where the page was, and what to do next.
func (e *AssertionError) Error() string {
	msg := "assertion failed: " + strings.Join(e.Failures, "; ")
	if e.Page != "" {
		msg += "; " + e.Page
	}
	return msg + ". If the page is still changing, wait_for it first; outline shows what the page has"
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
	for _, c := range r.Counts {
		if c.Msg != "" {
			return fmt.Errorf("assert: %s", c.Msg)
		}
	}
	if a.failures(r, urlRE, titleRE) == nil {
		return nil
	}
	// Something failed: look again, finding what the page has instead.
	args.Near = true
	if r, err = s.checkLocked(args); err != nil {
		return fmt.Errorf("assert: %w", err)
	}
	fails := a.failures(r, urlRE, titleRE)
	if fails == nil {
		return nil // it came true in between
	}
	return &AssertionError{Failures: fails, Page: r.page()}
}

// failures says which checks r fails, each with what the page has
// instead; nil when all hold.
func (a Assertion) failures(r checkResult, urlRE, titleRE *regexp.Regexp) []string {
	var fails []string
	if a.TextPresent != "" && !r.TextFound {
		fails = append(fails, fmt.Sprintf("the text %q is not on the page%s", truncate(a.TextPresent, 100), r.nearTexts()))
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
		if c.found(*a.Visible) == 0 {
			fails = append(fails, fmt.Sprintf("%s is not visible: %s", a.Visible, c.miss(*a.Visible, "it")))
		}
	}
	if a.Count != nil {
		c := r.Counts[i]
		if n := c.found(*a.Count); n != a.Equals {
			msg := fmt.Sprintf("expected %s to match %s, found %d", a.Count, elements(a.Equals), n)
			if n == 0 && (c.Within != nil || c.Hidden > 0 || len(c.Sugg) > 0 || c.N > 0) {
				msg += ": " + c.miss(*a.Count, "it")
			}
			fails = append(fails, msg)
		}
	}
	return fails
}
