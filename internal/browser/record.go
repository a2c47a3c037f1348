package browser

import "fmt"

// Two looks at the page for saved flows: Preferred, taken before an
// action while the agent works, gives the locator a recorded step should
// keep; Similar, taken after a flow step failed, gives what the page had
// instead of what the step looked for.

// Preferred returns the locator outline would offer for the element loc
// resolves to (a test id, a stable id or field name, label, role and
// name…, never a generated-looking id) and the page's URL, in one script
// call. A locator the agent typed by hand (a css path, a text) becomes the
// one that survives a re-render.
func (s *Session) Preferred(loc Locator) (Locator, string, error) {
	op := "preferred locator"
	if err := loc.Validate(); err != nil {
		return Locator{}, "", fmt.Errorf("%s: %w", op, err)
	}
	if err := s.begin(); err != nil {
		return Locator{}, "", fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	var r struct {
		locFailure
		Loc Locator `json:"loc"`
		URL string  `json:"url"`
	}
	if err := s.script("preferred", map[string]any{"loc": loc}, nil, &r); err != nil {
		return Locator{}, "", s.fail(op, err)
	}
	if !r.OK {
		return Locator{}, "", fmt.Errorf("%s: %w", op, r.err(loc))
	}
	if err := r.Loc.Validate(); err != nil {
		return Locator{}, "", fmt.Errorf("%s: %w", op, err)
	}
	return r.Loc, r.URL, nil
}

// Control is one visible control as outline shows it.
type Control struct {
	Role    string `json:"role"`
	Name    string `json:"name"`
	Locator string `json:"locator"`
}

// PageControls is where the page is and some of its controls.
type PageControls struct {
	URL      string    `json:"url"`
	Title    string    `json:"title"`
	Controls []Control `json:"controls"`
}

// Similar returns the page's URL and title and the k visible controls
// whose name or label is closest to what loc looks for (its text, label or
// name; for a text locator the page's texts too), or the page's first k
// controls when loc is nil or nothing is close.
func (s *Session) Similar(loc *Locator, k int) (PageControls, error) {
	op := "similar controls"
	if err := s.begin(); err != nil {
		return PageControls{}, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	var r PageControls
	args := map[string]any{"k": k}
	if loc != nil {
		args["loc"] = loc
	}
	if err := s.script("similar", args, nil, &r); err != nil {
		return PageControls{}, s.fail(op, err)
	}
	return r, nil
}
