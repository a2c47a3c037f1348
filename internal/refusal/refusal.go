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
	"regexp"

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
	addr = regexp.MustCompile(`(?i)\b(?:https?|wss?)://[^\s"']+|\b(?:127\.\d+\.\d+\.\d+|localhost|\[::1\]|0\.0\.0\.0)(?::\d+)?(?:/[^\s"']*)?`)
	path = regexp.MustCompile(`(?:^|[\s"'(=])(/(?:tmp|var|home|root|usr|etc|opt|run|proc|work|srv|mnt|private)(?:/[^\s"',)]*)?)`)
)

// Scrub removes URLs, loopback addresses and absolute server paths from a
// message. It is the last line of defence; packages write clean errors first.
func Scrub(s string) string {
	s = addr.ReplaceAllString(s, "[internal address]")
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
