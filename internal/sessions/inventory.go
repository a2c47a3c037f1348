package sessions

import (
	"slices"
	"strings"
	"sync"
	"time"
)

// Summary is one workspace as the operator's admin page lists it: whose
// it is, its browser and what that browser is doing. It names no driver
// endpoint.
type Summary struct {
	Owner       string `json:"owner"`
	Name        string `json:"name"`    // the workspace
	State       string `json:"state"`   // live, idle or closed
	Browser     string `json:"browser"` // "" when no browser is open
	URL         string `json:"url,omitempty"`
	OpenedAt    string `json:"openedAt,omitempty"`
	LastUsedAt  string `json:"lastUsedAt,omitempty"`
	IdleTimeout string `json:"idleTimeout"`
}

// Inventory lists every open browser, sorted by owner. The URL comes from
// the browser when it is free; a session busy with a call (a long wait)
// shows the URL it last reported, so listing never waits for a tool.
func (m *Manager) Inventory() []Summary {
	m.mu.Lock()
	open := make([]*Session, 0, len(m.sessions))
	for _, s := range m.sessions {
		open = append(open, s)
	}
	m.mu.Unlock()
	now := m.now()
	out := make([]Summary, 0, len(open))
	for _, s := range open {
		last, free := s.idleSince()
		sm := Summary{
			Owner: s.Principal, Name: s.Workspace, State: "live", Browser: s.Browser(),
			OpenedAt: s.Opened.UTC().Format(time.RFC3339), LastUsedAt: last.UTC().Format(time.RFC3339),
			IdleTimeout: m.idle.String(),
		}
		if free && now.Sub(last) > time.Minute {
			sm.State = "idle"
		}
		sm.URL = m.lastURL(s, free)
		out = append(out, sm)
	}
	slices.SortFunc(out, func(a, b Summary) int {
		if c := strings.Compare(a.Owner, b.Owner); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return out
}

// lastURL asks a free browser for its URL and remembers it; a busy one
// answers from memory.
func (m *Manager) lastURL(s *Session, free bool) string {
	if free {
		if u, err := s.CurrentURL(); err == nil {
			s.mu.Lock()
			s.url = u
			s.mu.Unlock()
			return u
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.url
}

// Watch returns a channel that receives a value after browsers open,
// close or are used (a navigation, any page tool), and a function that
// stops the watch. Changes coalesce: a watcher that is slow to read gets
// one value for many changes, and the manager never waits for it. The
// admin page runs one loop on one watch and pushes to every open page.
func (m *Manager) Watch() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	m.watchMu.Lock()
	m.watchers = append(m.watchers, ch)
	m.watchMu.Unlock()
	var once sync.Once
	return ch, func() {
		once.Do(func() {
			m.watchMu.Lock()
			m.watchers = slices.DeleteFunc(m.watchers, func(c chan struct{}) bool { return c == ch })
			m.watchMu.Unlock()
		})
	}
}

// changed tells every watcher that the inventory may differ.
func (m *Manager) changed() {
	m.watchMu.Lock()
	defer m.watchMu.Unlock()
	for _, ch := range m.watchers {
		select {
		case ch <- struct{}{}:
		default: // one pending value already says "look again"
		}
	}
}
