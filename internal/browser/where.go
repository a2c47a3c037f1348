package browser

import "fmt"

// Place is where the page is, as the report after an action says it: the
// top document's title and URL.
type Place struct {
	Title, URL string
}

// placeScript reads the title and URL in one command instead of WebDriver's
// Get Title and Get Current URL (two). In the top document they are the
// same values; inside a frame a script would read the frame's, so Where
// sends the two commands there.
const placeScript = `return [document.title, location.href];`

// keepPlace keeps what settle's probe saw for Where, in the top document
// only. The caller holds the lock.
func (s *Session) keepPlace(p *Place) {
	if p != nil && len(s.win.frames) == 0 {
		s.place = p
	}
}

// Where returns the page's title and URL. Right after an action whose
// settle probe read them (click, press_key and the like) it sends no
// command; otherwise one script, or Get Title and Get Current URL inside a
// frame. A dialog that blocks the page is ErrDialog, as from Title.
func (s *Session) Where() (Place, error) {
	p, err := s.where()
	if err == nil && p.URL != "" {
		// The workspace records LastURL after each call (package sessions).
		s.lastURL.Store(p.URL)
	}
	return p, err
}

func (s *Session) where() (Place, error) {
	if err := s.beginKeepPlace(); err != nil {
		return Place{}, fmt.Errorf("where: %w", err)
	}
	defer s.mu.Unlock()
	if p := s.place; p != nil {
		s.place = nil
		return *p, nil
	}
	if len(s.win.frames) > 0 {
		title, err := s.wd.Title()
		if err != nil {
			return Place{}, s.fail("title", err)
		}
		u, err := s.wd.CurrentURL()
		if err != nil {
			return Place{}, s.fail("current URL", err)
		}
		return Place{Title: title, URL: u}, nil
	}
	v, err := s.wd.ExecuteScript(placeScript, nil)
	if err != nil {
		return Place{}, s.fail("title", err)
	}
	a, _ := v.([]any)
	if len(a) == 2 {
		title, ok1 := a[0].(string)
		u, ok2 := a[1].(string)
		if ok1 && ok2 {
			return Place{Title: title, URL: u}, nil
		}
	}
	return Place{}, fmt.Errorf("where: the page answered %T, not its title and URL", v)
}
