package browser

import "fmt"

// Outline returns a compact text outline of the page (or of the part
// within addresses): title and URL, landmarks, headings, text, and every
// visible control with a locator that the other methods accept.
//
// Locators are chosen to survive a re-render: a test id (data-testid and
// kin), a stable id or field name, then label, role and name, and text;
// ids that look generated are never offered, and a control that is unique
// only inside a container (a table row) is located within that container,
// found by its text. Controls that show only while their container is
// hovered are listed with the hover that reveals them; iframes are listed
// with the locator to switch into them, and a same-origin frame's controls
// are outlined beneath it. Text is cut at a length that still identifies
// it, marked with an ellipsis. Values of password and one-time-code fields
// are never shown.
func (s *Session) Outline(within *Locator) (string, error) {
	op := "outline"
	args := map[string]any{}
	if within != nil {
		if err := within.Validate(); err != nil {
			return "", fmt.Errorf("outline: within: %w", err)
		}
		args["within"] = within
		args["withinStr"] = within.String()
	}
	if err := s.begin(); err != nil {
		return "", fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	var r struct {
		locFailure
		Text string `json:"text"`
	}
	if err := s.script("outline", args, nil, &r); err != nil {
		return "", s.fail(op, err)
	}
	if !r.OK {
		return "", fmt.Errorf("%s: %w", op, r.err(*within))
	}
	return r.Text, nil
}
