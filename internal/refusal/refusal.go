// Package refusal is the one place a refusal is made into what the client
// receives: an isError tool result whose text is a sentence naming what was
// wrong and the call that would work.
//
// Handlers return errors as values; the server's middleware turns them into
// results with Result, so no refusal ever reaches the wire as a JSON-RPC
// "Error executing tool".
package refusal

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// Error is a refusal with its next step.
type Error struct {
	// What was wrong, as a sentence.
	What string
	// Next is the call or value that would work, as a sentence.
	Next string
}

func (e *Error) Error() string {
	if e.Next == "" {
		return e.What
	}
	return e.What + " " + e.Next
}

// New returns a refusal: what was wrong and what to do instead.
func New(what, next string) error { return &Error{What: what, Next: next} }

// Newf formats what was wrong; next is said after it.
func Newf(next, format string, args ...any) error {
	return &Error{What: fmt.Sprintf(format, args...), Next: next}
}

// Result turns any error into an isError tool result with a clean sentence.
func Result(err error) *mcp.CallToolResult {
	return mcp.NewToolResultError(Text(err))
}

// Text is the sentence a client sees for err: internal addresses and server
// paths are scrubbed, whatever produced the error.
func Text(err error) string {
	if err == nil {
		return ""
	}
	return Scrub(err.Error())
}

var (
	// Devtools and other socket URLs are never the caller's business.
	socket = regexp.MustCompile(`(?i)\bwss?://[^\s"']+`)
	path   = regexp.MustCompile(`(?:^|[\s"'(=])(/(?:tmp|var|home|root|usr|etc|opt|run|proc|work|srv|mnt|private)(?:/[^\s"',):]*)?)`)
)

// hidden are the server's own addresses and folders, registered by the
// packages that learn them (the WebDriver endpoint, the Grid, the data
// folder). Page URLs the caller navigated to are the caller's own and stay.
var hidden struct {
	sync.RWMutex
	values []string
}

// Hide registers values no refusal may show: a URL is hidden with its
// host:port too, so "127.0.0.1:9515" goes as well as the whole URL.
func Hide(values ...string) {
	hidden.Lock()
	defer hidden.Unlock()
	for _, v := range values {
		v = strings.TrimRight(strings.TrimSpace(v), "/")
		if len(v) < 4 || slices.Contains(hidden.values, v) {
			continue
		}
		hidden.values = append(hidden.values, v)
		if u, err := url.Parse(v); err == nil && u.Host != "" && !slices.Contains(hidden.values, u.Host) {
			hidden.values = append(hidden.values, u.Host)
		}
	}
	// Longest first, so a URL goes before its own host:port.
	slices.SortFunc(hidden.values, func(a, b string) int { return len(b) - len(a) })
}

// Scrub removes the server's registered addresses and folders, socket URLs
// and absolute server paths from a message. It is the last line of
// defence; packages write clean errors first.
func Scrub(s string) string {
	hidden.RLock()
	for _, v := range hidden.values {
		repl := "[internal address]"
		if strings.HasPrefix(v, "/") {
			repl = "[server path]"
		}
		s = strings.ReplaceAll(s, v, repl)
	}
	hidden.RUnlock()
	s = socket.ReplaceAllString(s, "[internal address]")
	return path.ReplaceAllStringFunc(s, func(m string) string {
		lead := ""
		if len(m) > 0 && m[0] != '/' {
			lead = m[:1]
		}
		return lead + "[server path]"
	})
}

// Is reports whether err is a refusal made by this package.
func Is(err error) bool {
	_, ok := errors.AsType[*Error](err)
	return ok
}
