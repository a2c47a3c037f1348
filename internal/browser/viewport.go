package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
)

// Resize makes the page viewport w.Width x w.Height CSS pixels, at any
// time: the window is resized to the viewport plus the browser's own
// frame. Window keeps reporting the size the session was opened with.
func (s *Session) Resize(w Window) (err error) {
	op := fmt.Sprintf("resize the window to %dx%d", w.Width, w.Height)
	defer func() {
		if err == nil {
			s.winMu.Lock()
			s.window = w
			s.winMu.Unlock()
		}
	}()
	if w.Width < 100 || w.Height < 100 || w.Width > 8192 || w.Height > 8192 {
		return fmt.Errorf("%s: each side is from 100 to 8192 pixels", op)
	}
	if err := s.begin(); err != nil {
		return fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	ctx := context.Background()
	// Two rounds: a window manager (or a Grid node's screen) may adjust
	// the first request; the second corrects by what is left over.
	for range 2 {
		var size struct{ IW, IH float64 }
		if err := s.script("pageSize", nil, nil, &size); err != nil {
			return s.fail(op, err)
		}
		dw, dh := float64(w.Width)-size.IW, float64(w.Height)-size.IH
		if dw == 0 && dh == 0 {
			return nil
		}
		v, err := s.raw(ctx, "GET", "/window/rect", nil)
		if err != nil {
			return s.fail(op, err)
		}
		var r rect
		if err := json.Unmarshal(v, &r); err != nil {
			return s.fail(op, errors.New("unexpected window rect"))
		}
		if _, err := s.raw(ctx, "POST", "/window/rect", map[string]float64{"width": r.Width + dw, "height": r.Height + dh}); err != nil {
			return s.fail(op, err)
		}
	}
	return nil
}
