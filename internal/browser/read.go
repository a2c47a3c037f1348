package browser

import (
	"encoding/json"
	"fmt"
)

// Reading limits, in characters (Unicode code points).
const (
	// DefaultRead is how much Read returns when no maximum is given.
	DefaultRead = 8000
	// MaxRead is the most Read returns at once.
	MaxRead = 50000
)

// ReadOptions say what Read returns and which part of it.
type ReadOptions struct {
	// HTML returns the outerHTML instead of the visible text.
	HTML bool
	// Offset is the first character to return (0-based).
	Offset int
	// Max is how many characters to return at most: DefaultRead when 0,
	// never more than MaxRead.
	Max int
}

// Reading is one part of a page's or an element's text.
type Reading struct {
	// Text is the part read.
	Text string `json:"text"`
	// Offset is where Text starts, End where it stops (exclusive), in
	// characters of the whole.
	Offset int `json:"offset"`
	End    int `json:"end"`
	// Total is the length of the whole, in characters.
	Total int `json:"total"`
}

// Remaining is how many characters come after this part.
func (r Reading) Remaining() int { return r.Total - r.End }

// readScript returns a part of the text (innerText; a text field's value,
// never a password's) or the HTML of arguments[0], or of the page when it
// is null, cut by code points in the page so that a large page does not
// travel whole.
const readScript = `const el = arguments[0], html = arguments[1], off = arguments[2], max = arguments[3];
let s;
if (html) {
  s = el ? el.outerHTML : document.documentElement.outerHTML;
} else if (!el) {
  s = document.body ? document.body.innerText : '';
} else if (window.__sfSecretFields && window.__sfSecretFields.has(el)) {
  s = '(a secret was typed here: ' + Array.from(el.value).length + ' characters, not shown)';
} else if (el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !['password', 'hidden', 'file'].includes(el.type))) {
  s = el.value;
} else {
  s = el.innerText !== undefined ? el.innerText : el.textContent;
}
const cps = Array.from(s || '');
const end = Math.min(cps.length, off + max);
return {text: cps.slice(off, end).join(''), offset: off, end: end, total: cps.length};`

// Read returns the visible text of the element loc addresses, or of the
// page when loc is nil, or its HTML with o.HTML, from o.Offset on and at
// most o.Max characters. An offset past the end is an error that says how
// long the text is.
func (s *Session) Read(loc *Locator, o ReadOptions) (Reading, error) {
	op := "read text"
	if o.HTML {
		op = "read HTML"
	}
	if loc != nil {
		op += " of " + loc.String()
	}
	if o.Offset < 0 {
		return Reading{}, fmt.Errorf("%s: offset cannot be negative", op)
	}
	switch {
	case o.Max == 0:
		o.Max = DefaultRead
	case o.Max < 0 || o.Max > MaxRead:
		return Reading{}, fmt.Errorf("%s: max is from 1 to %d characters", op, MaxRead)
	}
	if err := s.begin(); err != nil {
		return Reading{}, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	args := []any{nil, o.HTML, o.Offset, o.Max}
	if loc != nil {
		el, err := s.resolve(*loc, false)
		if err != nil {
			return Reading{}, s.fail(op, err)
		}
		args[0] = el
	}
	v, err := s.execute(readScript, args)
	if err != nil {
		return Reading{}, s.fail(op, err)
	}
	var r Reading
	if err := json.Unmarshal(v, &r); err != nil {
		return Reading{}, fmt.Errorf("%s: unexpected script reply", op)
	}
	if o.Offset > 0 && o.Offset >= r.Total {
		return Reading{}, fmt.Errorf("%s: offset %d is past the end: the text is %d characters long", op, o.Offset, r.Total)
	}
	return r, nil
}
