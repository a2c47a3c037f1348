// Package refusal is the one place a refusal is made into what the client
// receives: an isError tool result whose text is a sentence naming what was
// wrong and the call that would work.
//
// Handlers return errors as values; the server's middleware turns them into
// results with its Scrubber's Result, so no refusal ever reaches the wire
// as a JSON-RPC "Error executing tool", and no server address or path
// reaches a client in one.
package refusal

import (
	"errors"
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
	// Kind is what sort of mistake it is; the HTTP surface's status
	// follows from it (kind.go). Invalid when not set.
	Kind Kind
}

func (e *Error) Error() string {
	if e.Next == "" {
		return e.What
	}
	return e.What + " " + e.Next
}

// New returns a refusal: what was wrong and what to do instead.
func New(what, next string) error { return &Error{What: what, Next: next} }

// Scrubber removes what a client must never see from the sentences it
// is sent: the server's own addresses and folders (the WebDriver endpoint,
// the Grid, the data folder), socket URLs and absolute server paths. The
// server owns one and hands it to the packages that learn such addresses;
// page URLs the caller navigated to are the caller's own and stay.
type Scrubber struct {
	mu     sync.RWMutex
	values []string // longest first, so a URL goes before its own host:port
}

// NewScrubber returns a scrubber that hides values (see Hide).
func NewScrubber(values ...string) *Scrubber {
	s := &Scrubber{}
	s.Hide(values...)
	return s
}

// Hide adds values no sentence may show: a URL is hidden with its
// host:port too, so "127.0.0.1:9515" goes as well as the whole URL. A
// driver started later adds its endpoint here; Hide is safe to call while
// requests are served.
func (s *Scrubber) Hide(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, v := range values {
		v = strings.TrimRight(strings.TrimSpace(v), "/")
		if len(v) < 4 || slices.Contains(s.values, v) {
			continue
		}
		s.values = append(s.values, v)
		if u, err := url.Parse(v); err == nil && u.Host != "" && !slices.Contains(s.values, u.Host) {
			s.values = append(s.values, u.Host)
		}
	}
	slices.SortFunc(s.values, func(a, b string) int { return len(b) - len(a) })
}

// Scrub removes the hidden values, socket URLs and absolute server paths
// from a message. It is the last line of defence; packages write clean
// errors first. A nil Scrubber still removes sockets and paths.
func (s *Scrubber) Scrub(msg string) string {
	if s != nil {
		s.mu.RLock()
		for _, v := range s.values {
			repl := "[internal address]"
			if strings.HasPrefix(v, "/") {
				repl = "[server path]"
			}
			msg = strings.ReplaceAll(msg, v, repl)
		}
		s.mu.RUnlock()
	}
	msg = socket.ReplaceAllString(msg, "[internal address]")
	// Paths are looked for between URLs only: a caller's page URL keeps
	// its path and query as the caller wrote them.
	var b strings.Builder
	last := 0
	for _, loc := range anyURL.FindAllStringIndex(msg, -1) {
		b.WriteString(scrubPaths(msg[last:loc[0]]))
		b.WriteString(msg[loc[0]:loc[1]])
		last = loc[1]
	}
	b.WriteString(scrubPaths(msg[last:]))
	return b.String()
}

func scrubPaths(s string) string {
	return path.ReplaceAllStringFunc(s, func(m string) string {
		lead := ""
		if len(m) > 0 && m[0] != '/' {
			lead = m[:1]
		}
		return lead + "[server path]"
	})
}

// Text is the sentence a client sees for err, scrubbed.
func (s *Scrubber) Text(err error) string {
	if err == nil {
		return ""
	}
	return s.Scrub(err.Error())
}

// Result turns any error into an isError tool result with a scrubbed
// sentence.
func (s *Scrubber) Result(err error) *mcp.CallToolResult {
	return mcp.NewToolResultError(s.Text(err))
}

var (
	// Devtools and other socket URLs are never the caller's business.
	socket = regexp.MustCompile(`(?i)\bwss?://[^\s"']+`)
	// anyURL is a URL with a scheme and an authority.
	anyURL = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://[^\s"'<>]+`)
	// path is an absolute path of two or more segments under a folder a
	// machine's root holds (the FHS ones, and those macOS and containers
	// add) that does not sit inside a URL: "/srv/data/x", "open:/home/u/f",
	// "[/var/lib/y]". A JSON pointer such as /steps/0/tool and a caller's
	// page path such as /login stay; the server's own folders (its data,
	// temporary, home and working folders) are hidden by value besides.
	path = regexp.MustCompile(`(?:^|[\s"'(=:,;\[{<])(/(?:` + rootFolders + `)(?:/[^\s"',;:)\]}>]*)+)`)
)

// rootFolders are the top-level folders of Linux (FHS), macOS and common
// container images.
const rootFolders = `bin|boot|dev|etc|home|lib|lib32|lib64|libx32|media|mnt|nix|opt|proc|root|run|sbin|snap|srv|sys|tmp|usr|var|work|workspace|workspaces|data|app|apps|builds|private|Users|Volumes|Library|System|Applications|cores`

// Is reports whether err is a refusal made by this package.
func Is(err error) bool {
	_, ok := errors.AsType[*Error](err)
	return ok
}
