package browser

import (
	"fmt"
	"sync/atomic"
)

// MaxExposure bounds, in characters, the page text Exposure gathers. A page
// with more is reported Cut, and a caller should then take it as showing a
// secret: what lies past the bound was not looked at.
const MaxExposure = 2 << 20

// Exposure is what of the current page a check or a locator could test a
// typed secret against, gathered so that the caller can look for a secret
// in it without the page ever learning the secret's value.
type Exposure struct {
	// Text is the markup (documentElement.outerHTML), URL and title of the
	// document and of its same-origin frames (from the top document when
	// it is reachable), the value of every input, textarea and select that
	// no secret was typed into, and the cookies and web storage a script
	// of the page can read, one per line.
	Text string `json:"text"`
	// Cut says Text stopped at MaxExposure characters.
	Cut bool `json:"cut"`
	// SecretFilled says a field a secret was typed into (WriteSecret)
	// still holds a value: a script could read it.
	SecretFilled bool `json:"filled"`
}

// oracleState is what a session knows of the secrets typed in it.
type oracleState struct {
	// typed is set by the first WriteSecret and never cleared: a secret
	// may stay in the page, its history or its storage.
	typed atomic.Bool
	// exact makes role names, labels and option texts match only as a
	// whole (see SetExactNames).
	exact atomic.Bool
	// scripted is set by ExecuteScript and cleared when the session loads
	// a page itself (Navigate, Back, Forward, Refresh): until then a
	// script of the caller's may be listening in the page for keys, and
	// WriteSecret is refused (ErrScriptedPage).
	scripted atomic.Bool
}

// ErrScriptedPage refuses to type a secret into a page a caller's script
// ran in: the script could have left a key listener that sends the keys
// elsewhere, or keeps them in an encoding no redaction knows. A page the
// session loads itself afterwards holds none of it.
var ErrScriptedPage = safef("a script ran in this page through execute_script and could still be listening for keys; load the page again (navigate to its url, or refresh) and type the secret then")

// withOptions appends the page script's options to its arguments (op,
// args, element): none unless names must match exactly, so the usual call
// costs nothing more.
func (o *oracleState) withOptions(a []interface{}) []interface{} {
	if !o.exact.Load() {
		return a
	}
	if len(a) == 2 {
		a = append(a, nil)
	}
	return append(a, map[string]bool{"exact": true})
}

// SecretTyped reports whether a secret was ever typed in the session
// (WriteSecret). Until one is, no page can show a secret the caller typed,
// and Exposure need not be asked.
func (s *Session) SecretTyped() bool { return s.oracle.typed.Load() }

// SetExactNames makes locators' role names and labels, and select's option
// texts, match only an element whose whole normalised string equals the
// one given, never one that merely contains it. While a page shows a
// secret, a partial match would tell a caller whether the secret contains
// a guessed fragment; an exact match tells only whether the whole guess
// is right.
func (s *Session) SetExactNames(on bool) { s.oracle.exact.Store(on) }

// Exposure gathers what of the current page could answer a guess at a
// typed secret (see Exposure). It costs one WebDriver round trip carrying
// up to MaxExposure characters, so callers ask only once SecretTyped.
func (s *Session) Exposure() (Exposure, error) {
	const op = "look for typed secrets in the page"
	if err := s.begin(); err != nil {
		return Exposure{}, fmt.Errorf("%s: %w", op, err)
	}
	defer s.mu.Unlock()
	var e Exposure
	if err := s.script("exposure", map[string]int{"max": MaxExposure}, nil, &e); err != nil {
		return Exposure{}, s.fail(op, err)
	}
	return e, nil
}
