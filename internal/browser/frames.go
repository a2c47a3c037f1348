package browser

import (
	"context"
	"errors"
	"fmt"

	"github.com/tebeka/selenium"
)

// Frames. Commands act in one browsing context: the top page of the
// current window, or a frame entered with EnterFrame (nested frames by
// entering again). Cross-origin frames are entered the same way: WebDriver
// allows it. The session keeps the locators of the frames entered, so
// that it can tell where commands act (FramePath) and re-enter them after
// it looked at another window. When the page navigates, WebDriver returns
// to the top page; the session notices on its next look (syncFrames).

// EnterFrame makes the iframe (or frame) that loc addresses in the current
// browsing context the one commands act in.
func (s *Session) EnterFrame(loc Locator) error {
	op := "enter frame " + loc.String()
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	s.syncFrames()
	if err := s.enter(loc); err != nil {
		return s.fail(op, err)
	}
	s.win.frames = append(s.win.frames, loc)
	return nil
}

// enter switches into the frame loc addresses. The caller holds the lock.
func (s *Session) enter(loc Locator) error {
	el, err := s.resolve(loc, false)
	if err != nil {
		return err
	}
	if _, err := s.raw(context.Background(), "POST", "/frame", map[string]any{"id": el}); err != nil {
		var se *selenium.Error
		if errors.As(err, &se) && se.Err == "no such frame" {
			return safef("%s is not an iframe or frame; outline lists the page's frames by title, and a locator such as css:\"iframe[title='Billing']\" enters one", loc)
		}
		return err
	}
	s.newDoc = true
	return nil
}

// ExitFrame leaves the current frame for its parent, or for the top page
// when top is true.
func (s *Session) ExitFrame(top bool) error {
	op := "leave frame"
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	s.syncFrames()
	if len(s.win.frames) == 0 {
		return safef("%s: you are not inside a frame; commands already act in the top page", op)
	}
	var err error
	if top {
		_, err = s.raw(context.Background(), "POST", "/frame", map[string]any{"id": nil})
	} else {
		_, err = s.raw(context.Background(), "POST", "/frame/parent", map[string]any{})
	}
	if err != nil {
		return s.fail(op, err)
	}
	s.newDoc = true
	if top {
		s.win.frames = nil
	} else {
		s.win.frames = s.win.frames[:len(s.win.frames)-1]
	}
	return nil
}

// FramePath returns the locators of the frames entered, outermost first;
// empty when commands act in the top page.
func (s *Session) FramePath() ([]Locator, error) {
	if err := s.begin(); err != nil {
		return nil, fmt.Errorf("frame path: %w", err)
	}
	defer s.mu.Unlock()
	s.syncFrames()
	return append([]Locator(nil), s.win.frames...), nil
}

// FrameURL returns the URL of the document commands act in: the frame's
// when inside one, else the page's.
func (s *Session) FrameURL() (string, error) {
	if err := s.begin(); err != nil {
		return "", fmt.Errorf("frame URL: %w", err)
	}
	defer s.mu.Unlock()
	v, err := s.wd.ExecuteScript("return document.URL;", nil)
	if err != nil {
		return "", s.fail("frame URL", err)
	}
	u, ok := v.(string)
	if !ok {
		return "", errors.New("frame URL: unexpected script reply")
	}
	return u, nil
}

// syncFrames forgets the frames entered when commands act in the top page
// again (the page navigated) or the frame has gone; the events say so. A
// dialog leaves them as they are. The caller holds the lock.
func (s *Session) syncFrames() {
	if len(s.win.frames) == 0 {
		return
	}
	v, err := s.wd.ExecuteScript("return window === window.top;", nil)
	if err != nil {
		if errors.Is(s.fail("", err), ErrDialog) {
			return
		}
		_, _ = s.raw(context.Background(), "POST", "/frame", map[string]any{"id": nil})
	} else if atTop, _ := v.(bool); !atTop {
		return
	}
	s.win.frames = nil
	s.win.pending.LeftFrames = true
	s.newDoc = true
}

// reenter enters frames again after a switch of windows brought commands
// to the top page; when one cannot be entered, they stay at the top and
// the events say so. The caller holds the lock.
func (s *Session) reenter(frames []Locator) {
	for i, loc := range frames {
		if err := s.enter(loc); err != nil {
			_, _ = s.raw(context.Background(), "POST", "/frame", map[string]any{"id": nil})
			s.win.frames = nil
			s.win.pending.LeftFrames = true
			return
		}
		s.win.frames = frames[:i+1]
	}
}
