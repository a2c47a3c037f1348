package browser

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

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

// checkArgs is what the page script's check reads in one call.
type checkArgs struct {
	Text string    `json:"text,omitempty"`
	Locs []Locator `json:"locs"`
	// Near asks for what the page has instead of what was asked for: the
	// texts closest to Text and the nearest candidates of a locator that
	// matches nothing. It costs a walk of the page, so only a check that
	// has already failed asks.
	Near bool `json:"near,omitempty"`
}

// checkResult is what check found.
type checkResult struct {
	URL       string   `json:"url"`
	Title     string   `json:"title"`
	TextFound bool     `json:"textFound"`
	Near      []string `json:"near"`
	Counts    []count  `json:"counts"`
}

// count is what check found for one locator.
type count struct {
	// N is how many visible elements match (nth not applied).
	N int `json:"n"`
	// Hidden is how many hidden elements match when no visible one does.
	Hidden int `json:"hidden"`
	// Msg says why the locator cannot be used (an invalid selector).
	Msg string `json:"msg"`
	// Sugg are the nearest candidates when nothing matched (with Near).
	Sugg []string `json:"sugg"`
	// Within, when set, is why the locator's within did not resolve.
	Within *locFailure `json:"within"`
}

// found is how many elements c counts for l: with nth, one if the nth
// match exists and none otherwise.
func (c count) found(l Locator) int {
	if l.Nth > 0 {
		if c.N >= l.Nth {
			return 1
		}
		return 0
	}
	return c.N
}

// miss says what the page has for a locator that did not match as wanted:
// a within that failed, only hidden matches, too few for nth, or none with
// the nearest candidates. subject names the locator in the sentence ("it"
// where the sentence has named it already).
func (c count) miss(l Locator, subject string) string {
	switch {
	case c.Within != nil:
		return c.Within.err(l).Error()
	case c.Hidden > 0:
		return fmt.Sprintf("%s matches only hidden elements (%d)", subject, c.Hidden)
	case l.Nth > 0 && c.N > 0:
		return fmt.Sprintf("%s matches %s, fewer than nth %d", subject, elements(c.N), l.Nth)
	case c.N == 0 && len(c.Sugg) > 0:
		return fmt.Sprintf("%s matches no element; nearest on the page: %s", subject, strings.Join(c.Sugg, ", "))
	case c.N == 0:
		return subject + " matches no element"
	}
	return fmt.Sprintf("%s matches %s", subject, elements(c.N))
}

// nearTexts says which texts of the page come closest to a missing one.
func (r checkResult) nearTexts() string {
	if len(r.Near) == 0 {
		return ""
	}
	q := make([]string, len(r.Near))
	for i, t := range r.Near {
		q[i] = strconv.Quote(truncate(t, 80))
	}
	return " (closest on the page: " + strings.Join(q, ", ") + ")"
}

// page says where the browser is.
func (r checkResult) page() string {
	return fmt.Sprintf("the page is %q at %s", truncate(r.Title, 80), r.URL)
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
