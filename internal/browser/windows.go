package browser

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/tebeka/selenium"
)

// Windows and tabs. WebDriver names a window by an opaque handle; a
// session names its windows w1, w2, … in the order it finds them and
// never reuses a name, so that "w2" means one window for the session's
// whole life. A window a page opens (a target=_blank link, window.open) is
// found by listing the handles after each action (TakeEvents): one cheap
// command, which works even while a dialog blocks the page.

// WindowInfo describes one of a session's windows.
type WindowInfo struct {
	// Name is the session's name for the window: w1, w2, …
	Name string `json:"name"`
	// Title and URL are the window's page; empty while a dialog blocks it.
	Title string `json:"title"`
	URL   string `json:"url"`
	// Current is true for the window that commands act in.
	Current bool `json:"current,omitempty"`
	// Opener names the window that was current when this one was found,
	// which is the one that opened it as far as the session can tell.
	Opener string `json:"opener,omitempty"`
	// Dialog is true when a dialog blocks the window's page.
	Dialog bool `json:"dialog,omitempty"`
}

// String is the window as a result names it: w2 "Title" at URL.
func (w WindowInfo) String() string {
	if w.Dialog && w.Title == "" && w.URL == "" {
		return w.Name + " (a dialog is open in it)"
	}
	return fmt.Sprintf("%s %q at %s", w.Name, w.Title, w.URL)
}

// windowState is what a session knows of its windows, frames and dialogs.
// Guarded by Session.mu, except dialog.
type windowState struct {
	next     int               // number of the last name given
	name     map[string]string // handle → name; a closed window's name stays taken
	handle   map[string]string // name → handle
	order    []string          // handles of the open windows, in the order found
	current  string            // handle of the window commands act in
	previous string            // handle current before the last switch
	opener   map[string]string // handle → handle of the window current when it was found
	tagged   map[string]bool   // handles whose documents name their dialogs' type
	frames   []Locator         // the frames entered in the current window, outermost first
	pending  Events            // what happened since the last TakeEvents
	open     *Dialog           // the dialog last read and not answered …
	openIn   string            // … in this window
	// dialog says a command met an open dialog, which the next TakeEvents
	// reads. It is set from fail, which not every caller runs locked.
	dialog atomic.Bool
}

// found names a handle seen for the first time.
func (w *windowState) found(h, opener string) string {
	w.next++
	n := "w" + strconv.Itoa(w.next)
	w.name[h], w.handle[n] = n, h
	w.order = append(w.order, h)
	if opener != "" {
		w.opener[h] = opener
	}
	return n
}

// isOpen reports whether h is one of the open windows.
func (w *windowState) isOpen(h string) bool {
	for _, o := range w.order {
		if o == h {
			return true
		}
	}
	return false
}

// names lists the open windows' names, for errors.
func (w *windowState) names() string {
	var ns []string
	for _, h := range w.order {
		ns = append(ns, w.name[h])
	}
	return strings.Join(ns, ", ")
}

// initWindows names the session's first window w1.
func (s *Session) initWindows() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	h, err := s.wd.CurrentWindowHandle()
	if err != nil {
		return err
	}
	s.win.name, s.win.handle = map[string]string{}, map[string]string{}
	s.win.opener, s.win.tagged = map[string]string{}, map[string]bool{}
	s.win.found(h, "")
	s.win.current = h
	s.tagDialogs()
	return nil
}

// refreshWindows lists the browser's windows: it names new ones and
// notes them, with closed ones, in the pending events. When the current
// window has closed it switches to its opener, or else to the newest
// window left. The caller holds the lock.
func (s *Session) refreshWindows() error {
	hs, err := s.wd.WindowHandles()
	if err != nil {
		return err
	}
	open := make(map[string]bool, len(hs))
	for _, h := range hs {
		open[h] = true
	}
	var kept []string
	for _, h := range s.win.order {
		if open[h] {
			kept = append(kept, h)
		} else {
			s.win.pending.Closed = append(s.win.pending.Closed, s.win.name[h])
		}
	}
	s.win.order = kept
	var fresh []string
	for _, h := range hs {
		if _, known := s.win.name[h]; !known {
			s.win.found(h, s.win.current)
			fresh = append(fresh, h)
		}
	}
	if !open[s.win.current] {
		to := s.win.opener[s.win.current]
		if !open[to] && len(s.win.order) > 0 {
			to = s.win.order[len(s.win.order)-1]
		}
		if !open[to] {
			return ErrSessionGone // chromedriver ends a session with its last window
		}
		if err := s.switchTo(to); err != nil {
			return err
		}
		now := s.here()
		s.win.pending.Now = &now
	}
	if len(fresh) > 0 {
		infos, err := s.visit(fresh)
		if err != nil {
			return err
		}
		s.win.pending.Opened = append(s.win.pending.Opened, infos...)
	}
	return nil
}

// windowGone reports an error of a command sent to a window that has
// closed.
func windowGone(err error) bool {
	var se *selenium.Error
	return errors.As(err, &se) && se.Err == "no such window"
}

// switchTo makes h the current window, at its top-level page. The caller
// holds the lock.
func (s *Session) switchTo(h string) error {
	if err := s.wd.SwitchWindow(h); err != nil {
		return err
	}
	if h != s.win.current {
		s.win.previous = s.win.current
	}
	s.win.current = h
	s.win.frames = nil
	s.newDoc = true
	if !s.win.tagged[h] {
		s.tagDialogs()
	}
	return nil
}

// here describes the current window. The caller holds the lock.
func (s *Session) here() WindowInfo {
	h := s.win.current
	w := WindowInfo{Name: s.win.name[h], Current: true, Opener: s.win.name[s.win.opener[h]]}
	var err error
	if w.Title, err = s.wd.Title(); err != nil {
		w.Dialog = errors.Is(s.fail("", err), ErrDialog)
		return w
	}
	w.URL, _ = s.wd.CurrentURL()
	return w
}

// visit describes other windows by switching to each, then returns to the
// current window and the frames entered in it. The caller holds the lock.
func (s *Session) visit(hs []string) ([]WindowInfo, error) {
	cur, prev, frames := s.win.current, s.win.previous, s.win.frames
	var out []WindowInfo
	for _, h := range hs {
		if err := s.switchTo(h); err != nil {
			if errors.Is(clean(err), ErrSessionGone) {
				return nil, err
			}
			continue // closed meanwhile: the next refresh notes it
		}
		w := s.here()
		w.Current = false
		out = append(out, w)
	}
	if err := s.switchTo(cur); err != nil {
		return out, err
	}
	s.win.previous = prev
	s.reenter(frames)
	return out, nil
}

// Windows lists the session's open windows in the order they were found,
// with their titles and URLs; reading another window's page switches to it
// and back, frames included.
func (s *Session) Windows() ([]WindowInfo, error) {
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("list windows: %w", err)
	}
	defer s.mu.Unlock()
	if err := s.refreshWindows(); err != nil {
		return nil, s.fail("list windows", err)
	}
	s.win.pending.Opened = nil // the caller sees them listed
	var others []string
	for _, h := range s.win.order {
		if h != s.win.current {
			others = append(others, h)
		}
	}
	infos, err := s.visit(others)
	if err != nil {
		return nil, s.fail("list windows", err)
	}
	byName := map[string]WindowInfo{}
	for _, w := range infos {
		byName[w.Name] = w
	}
	var out []WindowInfo
	for _, h := range s.win.order {
		if h == s.win.current {
			out = append(out, s.here())
		} else if w, ok := byName[s.win.name[h]]; ok {
			out = append(out, w)
		}
	}
	return out, nil
}

// WindowCount returns how many windows the session knows to be open, as
// of the last action; it sends no command.
func (s *Session) WindowCount() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.win.order)
}

// CurrentWindow returns the name of the window commands act in; it sends
// no command.
func (s *Session) CurrentWindow() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.win.name[s.win.current]
}

// lookup finds the open window a caller names: w2, or "opener" (the
// window the current one was opened from), "previous" (the one current
// before the last switch) or "newest" (the one found last, which a saved
// flow names instead of a number that depends on the session's history).
// The caller holds the lock.
func (s *Session) lookup(name string) (string, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	var h string
	switch n {
	case "opener":
		h = s.win.opener[s.win.current]
		if h == "" || !s.win.isOpen(h) {
			return "", safef("%s has no opener that is still open; the windows are %s (list_windows shows them)", s.win.name[s.win.current], s.win.names())
		}
	case "previous":
		h = s.win.previous
		if h == "" || !s.win.isOpen(h) {
			return "", safef("no previous window is open; the windows are %s (list_windows shows them)", s.win.names())
		}
	case "newest":
		h = s.win.order[len(s.win.order)-1]
	default:
		var ok bool
		if h, ok = s.win.handle[n]; !ok {
			return "", safef("there is no window %q; the windows are %s, named as list_windows shows them", truncate(name, 40), s.win.names())
		}
		if !s.win.isOpen(h) {
			return "", safef("the window %s was closed; the windows are %s", n, s.win.names())
		}
	}
	return h, nil
}

// SwitchWindow makes the named window current (see lookup for the names)
// and returns it; commands then act in its top-level page.
func (s *Session) SwitchWindow(name string) (WindowInfo, error) {
	op := "switch window"
	if err := s.begin(); err != nil {
		return WindowInfo{}, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	if err := s.refreshWindows(); err != nil {
		return WindowInfo{}, s.fail(op, err)
	}
	h, err := s.lookup(name)
	if err != nil {
		return WindowInfo{}, fmt.Errorf("%s: %w", op, err)
	}
	if err := s.switchTo(h); err != nil {
		return WindowInfo{}, s.fail(op, err)
	}
	return s.here(), nil
}

// CloseWindow closes the named window, or the current one when name is
// empty, and returns the window commands act in afterwards: after closing
// the current window, its opener if still open, or else the newest window
// left. The session's last window is not closed: that is Close.
func (s *Session) CloseWindow(name string) (closed string, now WindowInfo, err error) {
	op := "close window"
	if err := s.begin(); err != nil {
		return "", WindowInfo{}, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	if err := s.refreshWindows(); err != nil {
		return "", WindowInfo{}, s.fail(op, err)
	}
	h := s.win.current
	if name != "" {
		if h, err = s.lookup(name); err != nil {
			return "", WindowInfo{}, fmt.Errorf("%s: %w", op, err)
		}
	}
	closed = s.win.name[h]
	if len(s.win.order) == 1 {
		return "", WindowInfo{}, safef("%s: %s is the only window; closing it would end the browser, which close_session does", op, closed)
	}
	cur, prev, frames := s.win.current, s.win.previous, s.win.frames
	if h != cur {
		if err := s.switchTo(h); err != nil {
			return "", WindowInfo{}, s.fail(op, err)
		}
	}
	if _, err := s.raw(context.Background(), "DELETE", "/window", nil); err != nil {
		return "", WindowInfo{}, s.fail(op, err)
	}
	var left []string
	for _, o := range s.win.order {
		if o != h {
			left = append(left, o)
		}
	}
	s.win.order = left
	to := cur
	if h == cur {
		to = s.win.opener[h]
		if !s.win.isOpen(to) {
			to = left[len(left)-1]
		}
	}
	if err := s.switchTo(to); err != nil {
		return "", WindowInfo{}, s.fail(op, err)
	}
	if to == cur {
		s.win.previous = prev
		if prev == h {
			s.win.previous = ""
		}
		s.reenter(frames)
	}
	return closed, s.here(), nil
}

// Place is the window commands act in and the frames entered in it, as
// the session knows them, without asking the browser: what a workspace
// records after each call.
func (s *Session) Place() (handle string, frames []string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, l := range s.win.frames {
		frames = append(frames, l.String())
	}
	return s.win.current, frames
}
