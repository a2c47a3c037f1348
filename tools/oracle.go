package tools

import (
	"context"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// No oracle: a caller must not learn a secret it had the server type by
// asking the page questions whose answers depend on the secret's
// characters, a character at a time ("does input[value^=a] exist? and
// [value^=b]?"). Results are redacted already; what a check or a locator
// answers (held or not, found or not, how many) cannot be. So once a
// secret has been typed in a session, each call that could ask such a
// question first looks at the page (browser.Session.Exposure):
//
//   - When the page shows a secret (its markup, URL, title, cookies or
//     storage, or the value of a field no secret was typed into), the
//     questions that could spell it out are refused: css with an attribute
//     selector, xpath, text locators, assert and wait_for text, url, title
//     and count checks, and execute_script. Role (with name), label and
//     plain css locators stay, and names, labels and option texts then
//     match only as a whole (browser.Session.SetExactNames), so a match
//     says nothing of a fragment.
//   - When only a field the secret was typed into still holds it (a login
//     form before it is sent), execute_script alone is refused: a script
//     could read the field and return it transformed past redaction.
//
// A refused kind of call that runs because the page did not show a secret
// is looked at again afterwards: a page that shows the secret by then (a
// wait_for that outlasted the page's own echo) gets the refusal instead
// of the answer. Sessions in which no secret was typed pay nothing.

// probe is what a call could learn from the page.
type probe struct {
	locators []browser.Locator
	checks   []string // assert and wait_for conditions a secret could decide
	script   bool     // execute_script
}

// probing reports whether the call asks the page anything at all.
func (pr probe) probing() bool { return len(pr.locators) > 0 || len(pr.checks) > 0 || pr.script }

// spelling names what of the call could spell out a secret the page
// shows; empty when nothing could.
func (pr probe) spelling() []string {
	var out []string
	out = append(out, pr.checks...)
	for _, l := range pr.locators {
		out = append(out, spellingLocator(l)...)
	}
	if pr.script {
		out = append(out, ScriptTool)
	}
	return out
}

// spellingLocator names the parts of a locator (and its within chain)
// that can match on a fragment of an attribute or a text: a css attribute
// selector, any xpath, a text locator.
func spellingLocator(l browser.Locator) []string {
	var out []string
	for at := &l; at != nil; at = at.Within {
		switch {
		case strings.Contains(at.CSS, "["):
			out = append(out, "a css attribute selector")
		case at.XPath != "":
			out = append(out, "an xpath locator")
		case at.Text != "":
			out = append(out, "a text locator")
		}
	}
	return out
}

// probeArgs are the arguments of the page tools that hold a locator.
var probeArgs = []string{"locator", "within", "to"}

// probeChecks are, per tool, the conditions whose outcome a secret in the
// page could decide.
var probeChecks = map[string][]string{
	"assert":   {"text", "url", "title", "count"},
	"wait_for": {"text", "url"},
}

// probeOf reads what a call to the tool named would ask the page. ok is
// false when the arguments do not parse: the tool's own refusal says why.
func probeOf(tool string, args map[string]any) (pr probe, ok bool) {
	for _, name := range probeArgs {
		l, err := locatorFrom(args, name)
		if err != nil {
			return probe{}, false
		}
		if l != nil {
			pr.locators = append(pr.locators, *l)
		}
	}
	for _, name := range probeChecks[tool] {
		if v, set := args[name]; set && v != nil && v != "" {
			pr.checks = append(pr.checks, tool+" "+name)
		}
	}
	pr.script = tool == ScriptTool
	return pr, true
}

// noOracle wraps each page tool so that it asks nothing of a page that
// shows a typed secret which could spell the secret out (see above).
func (p *pageTools) noOracle(ts []Tool) []Tool {
	for i, t := range ts {
		inner, name := t.Handler, t.Def.Name
		ts[i].Handler = func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			pr, ok := probeOf(name, req.GetArguments())
			if !ok || !pr.probing() {
				return inner(ctx, req)
			}
			typed, err := p.exposed(ctx, pr, false)
			switch {
			case err != nil:
				return nil, err
			case !typed || len(pr.spelling()) == 0:
				return inner(ctx, req)
			}
			res, err := inner(ctx, req)
			// The page may have come to show the secret meanwhile.
			if _, after := p.exposed(ctx, pr, true); after != nil {
				return nil, after
			}
			return res, err
		}
	}
	return ts
}

// exposed looks at the caller's page when a secret was typed in the
// session: it sets whether names must match exactly and refuses what pr
// could spell out. typed is false when no secret was typed, and nothing
// was looked at. after says the call already ran: only a page that shows
// the secret refuses then, and names are left as they are.
func (p *pageTools) exposed(ctx context.Context, pr probe, after bool) (typed bool, err error) {
	err = p.do(ctx, func(s *sessions.Session) error {
		if !s.SecretTyped() {
			return nil
		}
		typed = true
		e, err := s.Exposure()
		if err != nil {
			if spells := pr.spelling(); len(spells) > 0 {
				return refusal.New("The page could not be checked for a secret you typed, so "+strings.Join(spells, ", ")+" is refused for now.",
					"If a dialog is open, answer it with answer_dialog first; otherwise use role and name, label or id locators.")
			}
			s.SetExactNames(true)
			return nil
		}
		shows := e.Cut || p.secrets.Contains(s.Principal, e.Text)
		if !after {
			s.SetExactNames(shows)
		}
		switch {
		case shows && len(pr.spelling()) > 0:
			return refusal.New("This page shows a secret you typed (in its text, a field's value, the URL, the title or its storage), so checks and locators that could spell it out are refused here: "+
				"css attribute selectors, xpath, text locators, text, url, title and count checks in assert and wait_for, and execute_script (this call used "+strings.Join(pr.spelling(), ", ")+").",
				`Use role and name ({"role": "button", "name": "Save"}), label or plain css such as #id locators, which then match names only as a whole; or navigate to a page that does not show it.`)
		case e.SecretFilled && pr.script && !after:
			return refusal.New("A field you typed a secret into still holds it, and a script could read it, so execute_script is refused on this page.",
				"Do the step with click, write, select, read_text, outline or assert instead; once the form is sent and the page no longer holds the secret, execute_script works again.")
		}
		return nil
	})
	if errors.Is(err, sessions.ErrNoSession) {
		// The tool itself says to open a session.
		return false, nil
	}
	return typed, err
}
