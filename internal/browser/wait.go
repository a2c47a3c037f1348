package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Condition is what WaitFor waits for; every field that is set must hold.
type Condition struct {
	// Locator must match at least one visible element (the nth, if given).
	Locator *Locator `json:"locator,omitempty"`
	// URLContains must be part of the page URL.
	URLContains string `json:"url_contains,omitempty"`
	// Text must be part of the page's visible text (case-insensitive,
	// typographic quotes and dashes matching plain ones).
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

// holds reports whether r shows the condition.
func (c Condition) holds(r checkResult) bool {
	if c.Locator != nil && r.Counts[0].found(*c.Locator) == 0 {
		return false
	}
	if c.URLContains != "" && !strings.Contains(r.URL, c.URLContains) {
		return false
	}
	return c.Text == "" || r.TextFound
}

// DefaultWaitTimeout is used by WaitFor when no timeout is given.
const DefaultWaitTimeout = 10 * time.Second

const pollInterval = 200 * time.Millisecond

// WaitFor polls the page until the condition holds, the timeout passes or
// ctx ends. On timeout the error wraps ErrTimeout and says what the page
// showed at the end: its title and URL, what the locator matched (with the
// nearest candidates when nothing did) and the texts closest to a missing
// text.
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
	for {
		last := time.Now().After(deadline)
		// The last look also finds what the page has instead.
		args.Near = last
		r, err := s.checkLocked(args)
		if err != nil {
			return fmt.Errorf("wait for %s: %w", c.describe(), err)
		}
		if c.Locator != nil && r.Counts[0].Msg != "" {
			return fmt.Errorf("wait for %s: %s", c.describe(), r.Counts[0].Msg)
		}
		if c.holds(r) {
			return nil
		}
		if last {
			return fmt.Errorf("waited %s for %s: %w; at the end %s. %s", timeout, c.describe(), ErrTimeout, c.seen(r),
				"Call outline to see what the page has, or wait_for again with a longer timeout (e.g. \"timeout\": 30) if it is still loading")
		}
		wait := pollInterval
		if left := time.Until(deadline); left < wait {
			wait = max(left, 0)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for %s: %w", c.describe(), ctx.Err())
		case <-time.After(wait):
		}
	}
}

// seen says what the page showed of each part of the condition.
func (c Condition) seen(r checkResult) string {
	var seen []string
	if c.Locator != nil {
		seen = append(seen, r.Counts[0].miss(*c.Locator, c.Locator.String()))
	}
	if c.Text != "" && !r.TextFound {
		seen = append(seen, fmt.Sprintf("the text %q is not on the page%s", truncate(c.Text, 100), r.nearTexts()))
	}
	return strings.Join(append(seen, r.page()), "; ")
}
