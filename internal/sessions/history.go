package sessions

import (
	"sync"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/browser"
)

// HistorySize is how many page actions a session remembers: enough for a
// task worked out by hand, bounded so a long session costs the same.
const HistorySize = 200

// Action is one page-tool call that succeeded, as the agent made it: the
// history a draft flow is made from (draft_flow).
type Action struct {
	// Seq numbers the session's actions from 1; a range of the history is
	// a range of these.
	Seq  int
	Tool string
	// Args are the arguments as called. A secret is there by name, as
	// write takes it; the caller's secret values are redacted by the
	// recorder.
	Args map[string]any
	// Locator is the stable locator of the element the call's locator
	// resolved to (browser.Session.Preferred), nil when it had none.
	Locator *browser.Locator
	// URLBefore and URLAfter are the page's address around the call.
	URLBefore, URLAfter string
	Started             time.Time
	Took                time.Duration
}

// history is a session's bounded ring of actions and its recording mark.
type history struct {
	mu      sync.Mutex
	ring    []Action
	seq     int // the last Seq given
	from    int // first Seq of the running recording; 0 when none runs
	stopped [2]int
}

// Record adds a to the history, numbered.
func (s *Session) Record(a Action) {
	h := &s.history
	h.mu.Lock()
	defer h.mu.Unlock()
	h.seq++
	a.Seq = h.seq
	if len(h.ring) == HistorySize {
		h.ring = append(h.ring[:0], h.ring[1:]...)
	}
	h.ring = append(h.ring, a)
}

// RecordedURL is where the last recorded action left the browser; ""
// before the first. A recorded check takes its place from it instead of
// asking the browser.
func (s *Session) RecordedURL() string {
	h := &s.history
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.ring) == 0 {
		return ""
	}
	return h.ring[len(h.ring)-1].URLAfter
}

// History returns the remembered actions with Seq in [from, to], oldest
// first; to 0 means up to the last.
func (s *Session) History(from, to int) []Action {
	h := &s.history
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []Action
	for _, a := range h.ring {
		if a.Seq >= from && (to == 0 || a.Seq <= to) {
			out = append(out, a)
		}
	}
	return out
}

// StartRecording marks the next action as the start of a recording, and
// returns its Seq. A recording already running starts over.
func (s *Session) StartRecording() int {
	h := &s.history
	h.mu.Lock()
	defer h.mu.Unlock()
	h.from = h.seq + 1
	return h.from
}

// StopRecording ends the running recording and returns its range of Seq;
// without one running, the range of the last one stopped (zero when none).
func (s *Session) StopRecording() (from, to int) {
	h := &s.history
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.from != 0 {
		h.stopped = [2]int{h.from, h.seq}
		h.from = 0
	}
	return h.stopped[0], h.stopped[1]
}

// LastRecording returns the range of the last recording stopped; zero
// when none was.
func (s *Session) LastRecording() (from, to int) {
	h := &s.history
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stopped[0], h.stopped[1]
}

// Recording returns the first Seq of the running recording, or 0.
func (s *Session) Recording() int {
	h := &s.history
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.from
}
