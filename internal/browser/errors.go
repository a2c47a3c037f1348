package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"
	"syscall"

	"github.com/tebeka/selenium"
)

// ErrSessionGone reports that the browser session no longer exists: the
// driver or browser stopped, crashed or the session was deleted. A new
// session has to be opened.
var ErrSessionGone = errors.New("the browser session ended: the driver stopped responding; open a new session with open_session")

// ErrDialog reports a JavaScript dialog open on the page, which blocks
// every command until answer_dialog answers it (see dialogs.go).
var ErrDialog = errors.New("a JavaScript dialog (alert, confirm or prompt) is open and blocks the page; session://current shows its text, and answer_dialog answers it")

// ErrTimeout is wrapped by the errors of WaitFor when the condition did not
// hold in time, and by errors of commands the browser did not answer in time.
var ErrTimeout = errors.New("timed out")

// ErrUnsupported is wrapped by errors for operations that the endpoint
// (for example a Selenium Grid) does not offer.
var ErrUnsupported = errors.New("not supported")

// LocatorError reports that a locator did not resolve to exactly one
// element.
type LocatorError struct {
	// Locator is the locator that failed; when Within is true, it is the
	// within part of the locator that was asked for.
	Locator Locator
	// Matched is how many elements the locator matched (nth not applied).
	Matched int
	// Nth is the requested 1-based position, 0 when none was given.
	Nth int
	// Hidden is true when the only matching elements are hidden.
	Hidden bool
	// Within is true when the failing locator is a within part.
	Within bool
	// Invalid, when not empty, says why the locator cannot be used at all
	// (for example an invalid CSS selector).
	Invalid string
	// Suggestions are, when nothing matched, up to three locators of the
	// same kind that find something close on the page (nearest first).
	Suggestions []string
}

// Error says how many elements matched and what to do next.
func (e *LocatorError) Error() string {
	loc := e.Locator.String()
	var msg string
	switch {
	case e.Invalid != "":
		msg = fmt.Sprintf("%s: %s", loc, e.Invalid)
	case e.Matched == 0 && len(e.Suggestions) > 0:
		msg = fmt.Sprintf("no element matches %s; nearest on the page: %s (or call outline to see the page's controls and their locators)",
			loc, strings.Join(e.Suggestions, ", "))
	case e.Matched == 0:
		msg = fmt.Sprintf("no element matches %s; call outline to see the page's controls and their locators", loc)
	case e.Nth > e.Matched:
		msg = fmt.Sprintf("nth %d is out of range: %s matches %s; use nth 1..%d", e.Nth, loc, elements(e.Matched), e.Matched)
	case e.Hidden:
		msg = fmt.Sprintf("%s matches only hidden %s (not displayed, zero size or aria-hidden); "+
			"wait for it with wait_for {\"locator\": %q}, or first reveal it: open its menu, tab or dialog, "+
			"or hover the container outline names for it", loc, plural(e.Matched, "element", "elements"), loc)
	case e.Matched > 1:
		msg = fmt.Sprintf("%d elements match %s; add nth (1..%d) or within, e.g. within:(row:\"<a text of its row>\"); "+
			"outline shows a locator for each", e.Matched, loc, e.Matched)
	default:
		msg = fmt.Sprintf("%s cannot be used", loc)
	}
	if e.Within {
		return "the within locator failed: " + msg
	}
	return msg
}

func elements(n int) string { return fmt.Sprintf("%d %s", n, plural(n, "element", "elements")) }

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

var (
	urlRE     = regexp.MustCompile(`[a-zA-Z][a-zA-Z0-9+.-]*://\S*`)
	pathRE    = regexp.MustCompile(`(^|[\s'"(=])/[^\s'"),]+`)
	hostRE    = regexp.MustCompile(`\b(localhost|\d{1,3}(\.\d{1,3}){3}|\[[0-9a-fA-F:]+\])(:\d+)?\b|:\d{2,5}\b`)
	netErrRE  = regexp.MustCompile(`net::ERR_[A-Z_]+`)
	errCodeRE = regexp.MustCompile(`^[a-z ]{1,40}$`)
)

// safeError marks an error this package wrote itself, fit to be shown as
// it is.
type safeError struct{ err error }

func (e *safeError) Error() string { return e.err.Error() }
func (e *safeError) Unwrap() error { return e.err }

// safef formats an error that clean lets through unchanged.
func safef(format string, args ...any) error {
	return &safeError{fmt.Errorf(format, args...)}
}

// clean turns an error from the WebDriver client or from a raw endpoint
// call into an error fit for the agent: a fixed sentence per kind of
// failure, never the endpoint address, paths or the text sent.
func clean(err error) error {
	if err == nil {
		return nil
	}
	var le *LocatorError
	var sf *safeError
	if errors.As(err, &le) || errors.As(err, &sf) || errors.Is(err, ErrSessionGone) || errors.Is(err, ErrUnsupported) {
		return err
	}
	var se *selenium.Error
	if errors.As(err, &se) {
		return cleanWebDriver(se.Err, se.Message)
	}
	if errors.Is(err, context.DeadlineExceeded) || isTimeout(err) {
		return fmt.Errorf("the browser did not answer in time: %w", ErrTimeout)
	}
	var ue *url.Error
	var ne net.Error
	if errors.As(err, &ue) || errors.As(err, &ne) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) {
		return ErrSessionGone
	}
	return errors.New("the driver sent an unexpected reply")
}

// scrub returns the first line of a driver message, shortened, with URLs,
// addresses and absolute paths taken out.
func scrub(msg string) string {
	line, _, _ := strings.Cut(msg, "\n")
	line = strings.TrimPrefix(strings.TrimSpace(line), "javascript error: ")
	line = urlRE.ReplaceAllString(line, "…")
	line = pathRE.ReplaceAllString(line, "$1…")
	line = hostRE.ReplaceAllString(line, "…")
	if i := strings.Index(line, "(Session info"); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if r := []rune(line); len(r) > 150 {
		line = string(r[:150]) + "…"
	}
	return line
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// cleanWebDriver maps a W3C error code (and, for a few codes, facts taken
// from the message) to a clean error.
func cleanWebDriver(code, message string) error {
	m := strings.ToLower(message)
	switch code {
	case "invalid session id":
		return ErrSessionGone
	case "no such window":
		return errors.New("the browser window was closed")
	case "element not interactable":
		return errors.New("the element cannot be used right now (it is hidden, covered, disabled or outside the page)")
	case "element click intercepted":
		return errors.New("another element covers it and would receive the click; close the overlay or wait for it to go")
	case "stale element reference", "no such element", "detached shadow root":
		return errors.New("the element was removed from the page while it was being used; try again")
	case "invalid element state":
		return errors.New("the element does not accept this (it is disabled or read-only)")
	case "javascript error":
		if d := scrub(message); d != "" {
			return fmt.Errorf("a script in the page failed: %s", d)
		}
		return errors.New("a script in the page failed")
	case "timeout", "script timeout":
		return fmt.Errorf("the page did not respond in time: %w", ErrTimeout)
	case "unexpected alert open":
		return ErrDialog
	case "insecure certificate":
		return errors.New("the site's TLS certificate is not trusted; open the session with insecure set to accept self-signed certificates")
	case "invalid argument":
		return errors.New("the browser rejected the request as invalid")
	case "unknown command", "unknown method", "unsupported operation":
		return fmt.Errorf("the browser does not support this operation: %w", ErrUnsupported)
	case "session not created":
		return sessionNotCreated(m)
	}
	switch {
	case strings.Contains(m, "chrome not reachable"), strings.Contains(m, "disconnected"),
		strings.Contains(m, "session deleted"), strings.Contains(m, "target crashed"),
		strings.Contains(m, "page crash"), strings.Contains(m, "unable to find session"):
		return ErrSessionGone
	}
	if n := netErrRE.FindString(message); n != "" {
		return fmt.Errorf("the page could not be loaded (%s)", n)
	}
	if errCodeRE.MatchString(code) {
		return fmt.Errorf("the browser reported an error (%s)", code)
	}
	return errors.New("the browser reported an error")
}

func sessionNotCreated(m string) error {
	switch {
	case strings.Contains(m, "cannot find") && strings.Contains(m, "binary"):
		return errors.New("the browser could not be started: no Chrome or Chromium binary was found")
	case strings.Contains(m, "only supports chrome version"), strings.Contains(m, "version"):
		return errors.New("the browser could not be started: the driver and browser versions do not match")
	case strings.Contains(m, "stereotype"), strings.Contains(m, "no nodes"), strings.Contains(m, "capabilities"):
		return errors.New("the browser could not be started: the endpoint has no node that offers this browser")
	}
	return errors.New("the browser could not be started (session not created)")
}
