package browser

import (
	"fmt"
	"strconv"
	"strings"
)

// Events is what happened in the browser besides what an action was
// asked to do: windows that opened or closed, a dialog that opened, a
// frame left because its page went away. An action's result reports them,
// so a popup or a dialog never goes unnoticed.
type Events struct {
	// Opened are the windows found since the last TakeEvents.
	Opened []WindowInfo `json:"opened,omitempty"`
	// Closed names the windows that closed.
	Closed []string `json:"closed,omitempty"`
	// Now is the window commands act in after the current one closed.
	Now *WindowInfo `json:"now,omitempty"`
	// Dialog is the dialog open on the page, if a command met one.
	Dialog *Dialog `json:"dialog,omitempty"`
	// LeftFrames is true when the frames entered were left because the
	// page navigated or the frame went away: commands act in the top page.
	LeftFrames bool `json:"leftFrames,omitempty"`
}

// Empty reports whether nothing happened.
func (e Events) Empty() bool {
	return len(e.Opened) == 0 && len(e.Closed) == 0 && e.Now == nil && e.Dialog == nil && !e.LeftFrames
}

// String says what happened and the call that follows up on it, a
// sentence each; an empty Events says nothing.
func (e Events) String() string {
	var b []string
	for _, w := range e.Opened {
		b = append(b, fmt.Sprintf("A new window opened: %s — switch_window {\"window\":%s} acts in it.", w, strconv.Quote(w.Name)))
	}
	if len(e.Closed) > 0 {
		verb := "was"
		if len(e.Closed) > 1 {
			verb = "were"
		}
		s := fmt.Sprintf("The window %s %s closed.", strings.Join(e.Closed, " and "), verb)
		if e.Now != nil {
			s += fmt.Sprintf(" You are now in %s.", e.Now)
		}
		b = append(b, s)
	}
	if e.LeftFrames {
		b = append(b, "The frame you were in is gone (the page navigated), so commands act in the top page again.")
	}
	if e.Dialog != nil {
		b = append(b, e.Dialog.String())
	}
	return strings.Join(b, " ")
}

// TakeEvents returns what happened since it was last called, and forgets
// it. It lists the windows (one command), checks that the frames entered
// are still there, and reads a dialog that a command met. Errors are left
// to the next command, which meets them too.
func (s *Session) TakeEvents() Events {
	if err := s.beginKeepPlace(); err != nil {
		return Events{}
	}
	defer s.mu.Unlock()
	if err := s.refreshWindows(); err != nil {
		_ = s.fail("", err)
	}
	s.syncFrames()
	if s.win.dialog.Swap(false) {
		if d, err := s.dialog(); err == nil && d != nil {
			s.win.pending.Dialog = d
		}
	}
	ev := s.win.pending
	s.win.pending = Events{}
	return ev
}
