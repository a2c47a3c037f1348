// Package guard checks everything an agent is given by the server — tool,
// resource and prompt text, both kinds of instructions, every skill and
// knowledge file, and every refusal — for retired vocabulary (retired.txt)
// and for URIs, tool names and prompt names the server does not serve.
//
// Gather reads that text from a running server through real clients; Check
// judges it against what the same server lists. The guard only reads: it
// never decides what the server offers.
package guard

import (
	_ "embed"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/selenium-flow/selenium-flow/resources"
)

//go:embed retired.txt
var retiredFile string

// Term is one retired term: the pattern that finds it and why it is retired.
type Term struct {
	Pattern *regexp.Regexp
	Why     string
}

var (
	retiredOnce  sync.Once
	retiredTerms []Term
	retiredErr   error
)

// Retired returns the terms of retired.txt, or an error naming the line of
// a pattern that does not compile.
func Retired() ([]Term, error) {
	retiredOnce.Do(func() { retiredTerms, retiredErr = parseRetired(retiredFile) })
	return retiredTerms, retiredErr
}

func parseRetired(file string) ([]Term, error) {
	var terms []Term
	var why []string
	for i, line := range strings.Split(file, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "":
			why = nil
		case strings.HasPrefix(line, "#"):
			why = append(why, strings.TrimSpace(strings.TrimPrefix(line, "#")))
		default:
			re, err := regexp.Compile(line)
			if err != nil {
				return nil, fmt.Errorf("retired.txt:%d: %w", i+1, err)
			}
			terms = append(terms, Term{Pattern: re, Why: strings.Join(why, " ")})
			why = nil
		}
	}
	return terms, nil
}

// Text is one piece of what an agent is given, named by where it came from.
type Text struct {
	Where string
	Body  string
	// Echo are values the caller sent, which a refusal may repeat: the URI
	// that does not exist is named in the sentence that refuses it.
	Echo []string
	// Published texts are pages served as written (knowledge documents,
	// skill files): they may name a tool the operator excluded, and a
	// resource withdrawn with it, which the index says are unavailable.
	// Everything the server composes may not.
	Published bool
}

// Served is what the server serves, which every URI, tool name and prompt
// name in a Text must name.
type Served struct {
	// Resources are concrete URIs from resources/list.
	Resources []string
	// Templates are RFC 6570 URI templates from resources/templates/list.
	Templates []string
	// Tools are the names in tools/list of the client offered the most.
	Tools []string
	// Prompts are the names in prompts/list.
	Prompts []string
	// Excluded are the tools the index says this server does not offer
	// (FLOW_EXCLUDE_TOOLS), and Withdrawn the resources left out with them.
	Excluded  []string
	Withdrawn []string
	// WithdrawnPrompts are the prompts the index says went with them.
	WithdrawnPrompts []string
}

// Finding is one problem in one Text.
type Finding struct {
	Where string
	// Key is what is wrong: the retired term, the URI or the name.
	Key     string
	Problem string
}

func (f Finding) String() string { return f.Where + ": " + f.Problem }

// Summarize groups findings by what is wrong, one line each, naming every
// place it was found, in the order first found.
func Summarize(fs []Finding) []string {
	var keys []string
	first := map[string]Finding{}
	places := map[string][]string{}
	for _, f := range fs {
		k := f.Key + "\x00" + strings.SplitN(f.Problem, ",", 2)[0]
		if _, ok := first[k]; !ok {
			keys = append(keys, k)
			first[k] = f
		}
		if !slices.Contains(places[k], f.Where) {
			places[k] = append(places[k], f.Where)
		}
	}
	out := make([]string, len(keys))
	for i, k := range keys {
		p := places[k]
		out[i] = fmt.Sprintf("%s\n\tin %d place(s): %s", first[k].Problem, len(p), strings.Join(p, "; "))
	}
	return out
}

// Schemes are the URI schemes whose tokens must name something served.
var Schemes = []string{"knowledge", "skill", "flow", "session", "secret", "ui"}

var (
	uriToken = regexp.MustCompile(`(?:^|[^A-Za-z0-9+.\-])((?:` + strings.Join(Schemes, "|") + `)://[A-Za-z0-9._~:/?#@$&+=%{}<>\-]*)`)
	// backticked is an inline code span.
	backticked = regexp.MustCompile("`([^`\n]+)`")
	// snake is a lower-case identifier with at least one underscore: the
	// shape of most tool and prompt names, and of few other words.
	snake = regexp.MustCompile(`^[a-z][a-z0-9]*(?:_[a-z0-9]+)+$`)
	// call is name(args) not preceded by a member access, path or attribute.
	call = regexp.MustCompile(`(?:^|[^A-Za-z0-9_.\-@$/:])([a-z][a-z0-9]*(?:_[a-z0-9]+)*)\(([^()\n]*)\)`)
	// named is "`name` tool", "`name` prompt" or "the name_with_underscore tool".
	named = regexp.MustCompile("(?:`([a-z][a-z0-9_]*)`|\\bthe ([a-z][a-z0-9]*(?:_[a-z0-9]+)+)) (tool|prompt)\\b")
	// stepTool is a flow step's "tool": "name".
	stepTool = regexp.MustCompile(`"tool"\s*:\s*"([^"]+)"`)
	// placeholder is a flow parameter used as {{name}}.
	placeholder = regexp.MustCompile(`\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}`)
)

// xpathFunctions are the XPath 1.0 core functions, which locators call in
// the same name(args) form as a tool call and which are not tools.
var xpathFunctions = []string{
	"boolean", "ceiling", "concat", "contains", "count", "false", "floor", "id",
	"lang", "last", "name", "not", "number", "position", "round", "string",
	"sum", "text", "translate", "true", "node", "comment",
}

// Check returns every finding in texts: retired terms, URIs that match no
// served resource or template, and tool or prompt names that are not served.
func Check(texts []Text, s Served) ([]Finding, error) {
	terms, err := Retired()
	if err != nil {
		return nil, err
	}
	templates := make([]resources.Template, len(s.Templates))
	for i, t := range s.Templates {
		templates[i] = resources.ParseTemplate(t)
	}
	servesURI := func(u string) bool {
		if slices.Contains(s.Resources, u) || slices.Contains(s.Templates, u) {
			return true
		}
		return slices.ContainsFunc(templates, func(t resources.Template) bool { _, ok := t.Match(u); return ok })
	}
	withdrawn := make([]resources.Template, len(s.Withdrawn))
	for i, w := range s.Withdrawn {
		withdrawn[i] = resources.ParseTemplate(w)
	}
	wasWithdrawn := func(u string) bool {
		return slices.Contains(s.Withdrawn, u) || slices.ContainsFunc(withdrawn, func(t resources.Template) bool { _, ok := t.Match(u); return ok })
	}
	var out []Finding
	for _, t := range texts {
		// One finding per text and thing wrong: the first place it shows.
		seen := map[string]bool{}
		add := func(key, format string, args ...any) {
			if seen[key] {
				return
			}
			seen[key] = true
			out = append(out, Finding{Where: t.Where, Key: key, Problem: fmt.Sprintf(format, args...)})
		}
		for _, term := range terms {
			for _, loc := range term.Pattern.FindAllStringIndex(t.Body, -1) {
				found := strings.TrimSpace(t.Body[loc[0]:loc[1]])
				add("retired:"+term.Pattern.String(), "retired term %q, in %q — %s", found, excerpt(t.Body, loc), term.Why)
			}
		}
		for _, m := range uriToken.FindAllStringSubmatchIndex(t.Body, -1) {
			u := strings.TrimRight(t.Body[m[2]:m[3]], ".,;:!?")
			if !servesURI(u) && !slices.Contains(t.Echo, u) && !(t.Published && wasWithdrawn(u)) {
				add("uri:"+u, "%s matches no listed resource or template, in %q", u, excerpt(t.Body, m[2:4]))
			}
		}
		for _, n := range names(t.Body) {
			if t.Published && (slices.Contains(s.Excluded, n.name) || slices.Contains(s.WithdrawnPrompts, n.name)) {
				continue // the index says this server does not offer it
			}
			switch {
			case n.kind == "tool" && !slices.Contains(s.Tools, n.name):
				add("tool:"+n.name, "%s is named as a tool but tools/list has no such tool, in %q", n.name, n.context)
			case n.kind == "prompt" && !slices.Contains(s.Prompts, n.name):
				add("prompt:"+n.name, "%s is named as a prompt but prompts/list has no such prompt, in %q", n.name, n.context)
			case n.kind == "" && !slices.Contains(s.Tools, n.name) && !slices.Contains(s.Prompts, n.name):
				add("name:"+n.name, "%s reads as a tool or prompt name but the server serves neither by that name, in %q", n.name, n.context)
			}
		}
	}
	return out, nil
}

// mention is a name the text uses as a tool (kind "tool"), a prompt
// ("prompt") or either ("").
type mention struct {
	name, kind, context string
}

// names finds the tool and prompt names a text uses: backticked snake_case
// names, name(args) calls, "`name` tool", "the name_x prompt", and the tool
// of a flow step. A backticked name the same text uses as a {{placeholder}}
// is a flow parameter, not a tool.
func names(body string) []mention {
	params := map[string]bool{}
	for _, m := range placeholder.FindAllStringSubmatch(body, -1) {
		params[m[1]] = true
	}
	var out []mention
	add := func(name, kind string, loc []int) {
		out = append(out, mention{name: name, kind: kind, context: excerpt(body, loc)})
	}
	for _, m := range backticked.FindAllStringSubmatchIndex(body, -1) {
		code := body[m[2]:m[3]]
		if snake.MatchString(code) && !params[code] {
			add(code, "", m[:2])
		}
	}
	for _, m := range call.FindAllStringSubmatchIndex(body, -1) {
		name, args := body[m[2]:m[3]], body[m[4]:m[5]]
		if slices.Contains(xpathFunctions, name) {
			continue
		}
		if strings.Contains(name, "_") || args == "" || strings.Contains(args, "=") {
			add(name, "", m[2:])
		}
	}
	for _, m := range named.FindAllStringSubmatchIndex(body, -1) {
		name := ""
		if m[2] >= 0 {
			name = body[m[2]:m[3]]
		} else {
			name = body[m[4]:m[5]]
		}
		add(name, body[m[6]:m[7]], m[:2])
	}
	for _, m := range stepTool.FindAllStringSubmatchIndex(body, -1) {
		add(body[m[2]:m[3]], "tool", m[:2])
	}
	return out
}

// excerpt is the line of body around loc, cut to a readable length.
func excerpt(body string, loc []int) string {
	start, end := loc[0], loc[1]
	from := max(strings.LastIndexByte(body[:start], '\n')+1, start-60)
	to := len(body)
	if i := strings.IndexByte(body[end:], '\n'); i >= 0 {
		to = end + i
	}
	to = min(to, end+60)
	for from > 0 && from < len(body) && !isRuneStart(body[from]) {
		from--
	}
	for to < len(body) && !isRuneStart(body[to]) {
		to++
	}
	return strings.TrimSpace(body[from:to])
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }

// Budget is the number of words a tool description may have.
const (
	MinWords = 40
	MaxWords = 120
)

// Words counts the words of a description as a reader would.
func Words(s string) int { return len(strings.Fields(s)) }
