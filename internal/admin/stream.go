package admin

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// settle is how long the loop lets a burst of changes (a flow's steps
// each use the browser) run together before it lists the browsers once.
const settle = 200 * time.Millisecond

// heartbeat keeps an idle event stream open through proxies that close
// silent connections.
const heartbeat = 25 * time.Second

// hub is the one loop that watches the session manager while any admin
// page is open and hands every page a fresh list. It runs only while a
// page listens, so a server nobody administers runs no loop.
type hub struct {
	a      *Admin
	mu     sync.Mutex
	subs   map[chan struct{}]bool
	stop   func()
	latest []sessions.Summary // the open browsers after the last change
}

func newHub(a *Admin) *hub { return &hub{a: a, subs: map[chan struct{}]bool{}} }

// subscribe returns a channel that receives a value after every change
// and a function that ends the subscription.
func (h *hub) subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	h.mu.Lock()
	h.subs[ch] = true
	if len(h.subs) == 1 && h.a.sessions != nil {
		h.latest = h.a.sessions.Inventory()
		h.stop = h.run()
	}
	h.mu.Unlock()
	return ch, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if !h.subs[ch] {
			return
		}
		delete(h.subs, ch)
		if len(h.subs) == 0 && h.stop != nil {
			h.stop()
			h.stop = nil
		}
	}
}

// run starts the loop: one watch on the manager for all pages.
func (h *hub) run() func() {
	changes, unwatch := h.a.sessions.Watch()
	done := make(chan struct{})
	go func() {
		defer unwatch()
		for {
			select {
			case <-done:
				return
			case <-changes:
				select {
				case <-done:
					return
				case <-time.After(settle):
				}
				// Listed once here, not once per page: asking each
				// browser its URL is a WebDriver call.
				open := h.a.sessions.Inventory()
				h.mu.Lock()
				h.latest = open
				for ch := range h.subs {
					select {
					case ch <- struct{}{}:
					default:
					}
				}
				h.mu.Unlock()
			}
		}
	}()
	return func() { close(done) }
}

// snapshot is the open browsers as the loop last listed them.
func (h *hub) snapshot() []sessions.Summary {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.latest
}

// streamWorkspaces is GET /admin/api/workspaces/events: Server-Sent
// Events, a "workspaces" event with the caller's list at once and after
// every change. The page reads it with fetch, which can send the bearer
// token (EventSource cannot).
func (a *Admin) streamWorkspaces(w http.ResponseWriter, r *http.Request) {
	rc := http.NewResponseController(w)
	c := callerOf(r.Context())
	changes, done := a.hub.subscribe()
	defer done()
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	send := func() error {
		b, err := json.Marshal(map[string]any{"workspaces": nonNil(a.workspacesOf(c, a.hub.snapshot()))})
		if err != nil {
			return err
		}
		if _, err := fmt.Fprintf(w, "event: workspaces\ndata: %s\n\n", b); err != nil {
			return err
		}
		return rc.Flush()
	}
	if send() != nil {
		return
	}
	beat := time.NewTicker(heartbeat)
	defer beat.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-changes:
			if send() != nil {
				return
			}
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil || rc.Flush() != nil {
				return
			}
		}
	}
}
