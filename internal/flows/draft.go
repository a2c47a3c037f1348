package flows

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// Recorded is one page-tool call an agent made that worked, as the session
// history keeps it (see sessions.Action): the material of a draft flow.
type Recorded struct {
	Tool string
	Args map[string]any
	// Locator is the stable locator of the element acted on, as a locator
	// object; nil when the call had none or it could not be taken.
	Locator   map[string]any
	URLBefore string
	URLAfter  string
}

// looks are the calls that only show the page to the agent: a replay
// without a model has no use for them.
var looks = map[string]bool{"outline": true, "screenshot": true, "list_windows": true}

// Draft turns recorded calls into a flow document for the agent to review
// and save with save_flow, and says in notes what it changed:
//   - calls that only look (outline, screenshot, a whole-page read_text)
//     and consecutive duplicates are dropped, and so are a navigate to the
//     page the browser was on and a write the next step writes over;
//   - open_session with a url becomes navigate;
//   - each locator is the stable one the page gave for the element acted
//     on (no generated-looking id, no positional css), not the one typed;
//   - a wait_for for the element comes before a step on a page that had
//     just changed, where the agent waited for it;
//   - the address the recording starts on becomes parameter base_url,
//     each typed text and selected option a parameter (integer, number or
//     string, the value as its default); a secret stays a reference by
//     name and never becomes a parameter with a default;
//   - a read_text of one element returns its text (return: true).
func Draft(name string, calls []Recorded) (Flow, []string) {
	f := Flow{Name: name, Steps: []Step{}}
	var notes []string
	dropped := map[string]int{}
	var prev *Recorded
	var lastJSON string
	base := ""
	used := map[string]bool{}
	var names []any // each kept step's locator as the agent typed it
	for i := range calls {
		c := calls[i]
		tool, args := c.Tool, cloneArgs(c.Args)
		if tool == "open_session" {
			u, _ := args["url"].(string)
			if u == "" {
				continue
			}
			tool, args = "navigate", map[string]any{"url": u}
		}
		_, hasLoc := args["locator"]
		switch {
		case looks[tool], tool == "read_text" && !hasLoc:
			dropped[tool]++
			continue
		case tool == "navigate" && args["url"] != nil && sameAddress(fmt.Sprint(args["url"]), c.URLBefore):
			dropped["navigate to the page already shown"]++
			continue
		}
		named := args["locator"] // the agent's own words name a parameter best
		if hasLoc && c.Locator != nil {
			args["locator"] = c.Locator
		}
		key := tool + " " + canonical(args)
		if key == lastJSON && tool != "press_key" && !pageChanged(*prev, c) {
			dropped["repeated "+tool]++
			continue
		}
		// A write the next kept write replaces (the agent corrected a typo).
		if n := len(f.Steps); n > 0 && tool == "write" && f.Steps[n-1].Tool == "write" && !isTrue(args["append"]) &&
			canonical(f.Steps[n-1].Args["locator"]) == canonical(args["locator"]) && !isTrue(f.Steps[n-1].Args["submit"]) {
			f.Steps = f.Steps[:n-1]
			names = names[:n-1]
			dropped["write typed over"]++
		}
		// Where the page had just changed the agent looked before acting;
		// the replay waits for the element instead.
		if hasLoc && prev != nil && settling(*prev, c) && tool != "wait_for" {
			if n := len(f.Steps); n == 0 || f.Steps[n-1].Tool != "wait_for" {
				// A copy: the locator is rewritten per step below.
				wait := cloneArgs(map[string]any{"locator": args["locator"]})
				f.Steps = append(f.Steps, Step{Tool: "wait_for", Args: wait})
				names = append(names, nil)
			}
		}
		st := Step{Tool: tool, Args: args}
		if hasLoc {
			names = append(names, named)
		} else {
			names = append(names, nil)
		}
		if tool == "read_text" {
			st.Return = true
		}
		f.Steps = append(f.Steps, st)
		lastJSON = key
		prev = &calls[i]
	}
	// Parameters: the site's address, then typed values.
	for _, st := range f.Steps {
		if u, ok := st.Args["url"].(string); ok && st.Tool != "wait_for" && st.Tool != "assert" {
			if b := origin(u); b != "" {
				base = b
				break
			}
		}
	}
	if base != "" {
		f.Parameters = append(f.Parameters, Param{Name: "base_url", Description: "the site's address, scheme and host", Default: base})
		used["base_url"] = true
		for _, st := range f.Steps {
			if u, ok := st.Args["url"].(string); ok && st.Tool != "wait_for" && st.Tool != "assert" && strings.HasPrefix(u, base) {
				st.Args["url"] = "{{base_url}}" + strings.TrimPrefix(u, base)
			}
		}
	}
	byValue := map[string]string{}
	literal := 0
	for i, st := range f.Steps {
		var arg string
		switch st.Tool {
		case "write":
			arg = "text"
		case "select":
			arg = "option"
		default:
			continue
		}
		v, ok := st.Args[arg].(string)
		if !ok || v == "" {
			continue
		}
		// The same value typed twice (a name, then chosen in a select) is
		// one parameter.
		if n, ok := byValue[v]; ok {
			st.Args[arg] = "{{" + n + "}}"
			continue
		}
		if len(f.Parameters) == maxParams {
			literal++
			continue
		}
		nameFrom := names[i]
		if nameFrom == nil {
			nameFrom = st.Args["locator"]
		}
		p := Param{Name: paramName(nameFrom, st.Args["locator"], used), Default: v}
		byValue[v] = p.Name
		switch {
		case integerRE.MatchString(v):
			p.Type, p.Default = TypeInteger, mustNumber(v)
		case decimalRE.MatchString(v):
			p.Type, p.Default = TypeNumber, mustNumber(v)
		}
		f.Parameters = append(f.Parameters, p)
		st.Args[arg] = "{{" + p.Name + "}}"
	}
	// A value typed earlier that a later locator or check names (the
	// confirmation "The book “Kindred” was added") follows its parameter.
	for _, p := range f.Parameters {
		v, ok := p.Default.(string)
		if !ok || p.Name == "base_url" || len([]rune(v)) < 3 {
			continue
		}
		// Whole words only, and never inside a placeholder already there.
		re := regexp.MustCompile(`(^|[^\p{L}\p{N}{])` + regexp.QuoteMeta(v) + `($|[^\p{L}\p{N}}])`)
		repl := "${1}{{" + p.Name + "}}${2}"
		for _, st := range f.Steps {
			if loc, ok := st.Args["locator"].(map[string]any); ok {
				replaceIn(loc, re, repl)
			}
			if st.Tool == "assert" || st.Tool == "wait_for" {
				if t, ok := st.Args["text"].(string); ok {
					st.Args["text"] = re.ReplaceAllString(t, repl)
				}
			}
		}
	}
	for _, what := range slices.Sorted(maps.Keys(dropped)) {
		notes = append(notes, fmt.Sprintf("dropped %d × %s", dropped[what], what))
	}
	if literal > 0 {
		notes = append(notes, fmt.Sprintf("kept %d more typed values as they are: a flow takes at most %d parameters", literal, maxParams))
	}
	if len(f.Steps) > maxSteps {
		notes = append(notes, fmt.Sprintf("%d steps, more than the %d a flow takes: draft a shorter range with from and to", len(f.Steps), maxSteps))
	}
	if len(f.Parameters) > 0 {
		var ps []string
		for _, p := range f.Parameters {
			ps = append(ps, p.Name)
		}
		notes = append(notes, "proposed parameters, each with the recorded value as its default: "+strings.Join(ps, ", "))
	}
	return f, notes
}

// The most parameters and steps flow://schema lets a flow have.
const (
	maxParams = 32
	maxSteps  = 200
)

// A whole number without a leading zero (a postcode "01234" stays text)
// and a plain decimal: values that read as numbers and type back the same.
var (
	integerRE = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,14})$`)
	// No trailing zero: "2.50" typed back as 2.5 would not be what was typed.
	decimalRE = regexp.MustCompile(`^-?(0|[1-9][0-9]{0,14})\.[0-9]{0,5}[1-9]$`)
)

func mustNumber(s string) float64 {
	n, _ := number(s)
	return n
}

var (
	nonWord = regexp.MustCompile(`[^a-z0-9]+`)
	// A field's name or test id, or an id: #id_title gives title.
	cssNameRE = regexp.MustCompile(`(?:name|data-testid|data-test|data-qa)=["']?([A-Za-z0-9_-]+)|^#([A-Za-z][A-Za-z0-9_-]*)$`)
)

// paramName names a parameter after the field it fills: the label, name
// or text of the locator the agent typed, else the field name or id of
// the stable one, else "value"; a taken name gets _2, _3 ….
func paramName(typed, stable any, used map[string]bool) string {
	n := ""
	for _, loc := range []any{typed, stable} {
		m, ok := loc.(map[string]any)
		if !ok || n != "" {
			continue
		}
		for _, k := range []string{"label", "name", "text"} {
			if s, ok := m[k].(string); ok && s != "" {
				n = s
				break
			}
		}
		if css, ok := m["css"].(string); ok && n == "" {
			if mm := cssNameRE.FindStringSubmatch(css); mm != nil {
				n = strings.TrimPrefix(mm[1]+mm[2], "id_")
			}
		}
	}
	n = strings.Trim(nonWord.ReplaceAllString(strings.ToLower(n), "_"), "_")
	if len(n) > 40 {
		n = strings.Trim(n[:40], "_")
	}
	switch {
	case n == "":
		n = "value"
	case n[0] >= '0' && n[0] <= '9':
		n = "value_" + n
	}
	name := n
	for i := 2; used[name]; i++ {
		name = fmt.Sprintf("%s_%d", n, i)
	}
	used[name] = true
	return name
}

// settling says the page had changed under the agent before c: the
// previous call (not a navigate, which returns once the page loaded)
// moved it, or it moved by itself between the calls.
func settling(prev, c Recorded) bool {
	if prev.Tool == "navigate" || prev.Tool == "open_session" {
		return prev.URLAfter != "" && c.URLBefore != "" && !sameAddress(prev.URLAfter, c.URLBefore)
	}
	return pageChanged(prev, c)
}

// pageChanged says the page moved between two calls or because of the
// first: the next control may not be there yet on a fast replay.
func pageChanged(prev, next Recorded) bool {
	return (prev.URLAfter != "" && prev.URLBefore != "" && !sameAddress(prev.URLAfter, prev.URLBefore)) ||
		(prev.URLAfter != "" && next.URLBefore != "" && !sameAddress(prev.URLAfter, next.URLBefore))
}

func sameAddress(a, b string) bool {
	ua, errA := url.Parse(a)
	ub, errB := url.Parse(b)
	if errA != nil || errB != nil {
		return a == b
	}
	ua.Fragment, ub.Fragment = "", ""
	return strings.TrimSuffix(ua.String(), "/") == strings.TrimSuffix(ub.String(), "/")
}

func origin(u string) string {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		return ""
	}
	return p.Scheme + "://" + p.Host
}

// replaceIn rewrites a locator's text, label and name, and its within's.
func replaceIn(loc map[string]any, re *regexp.Regexp, repl string) {
	for _, k := range []string{"text", "label", "name"} {
		if s, ok := loc[k].(string); ok {
			loc[k] = re.ReplaceAllString(s, repl)
		}
	}
	if w, ok := loc["within"].(map[string]any); ok {
		replaceIn(w, re, repl)
	}
}

func isTrue(v any) bool { b, _ := v.(bool); return b }

func canonical(v any) string {
	b, _ := json.Marshal(v) // map keys sorted
	return string(b)
}

func cloneArgs(m map[string]any) map[string]any {
	out := map[string]any{}
	if m == nil {
		return out
	}
	b, _ := json.Marshal(m)
	_ = json.Unmarshal(b, &out)
	return out
}
