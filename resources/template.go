package resources

import (
	"fmt"
	"regexp"
	"strings"
)

// Template is a URI template of the two RFC 6570 kinds the table uses:
// {var}, which stops at a slash, and {+var} (reserved expansion), which
// does not. It is the one matcher of the repository: the table, the show
// tool and the guard all match URIs with it.
type Template struct {
	raw  string
	re   *regexp.Regexp
	vars []string
}

// templateExpr is one {var} or {+var} expression.
var templateExpr = regexp.MustCompile(`\{(\+?)([A-Za-z0-9_]+)\}`)

// ParseTemplate compiles a template. A string without expressions is a
// template that matches itself only.
func ParseTemplate(raw string) Template {
	var b strings.Builder
	var vars []string
	b.WriteString("^")
	last := 0
	for _, loc := range templateExpr.FindAllStringSubmatchIndex(raw, -1) {
		b.WriteString(regexp.QuoteMeta(raw[last:loc[0]]))
		name := raw[loc[4]:loc[5]]
		vars = append(vars, name)
		if loc[3] > loc[2] {
			fmt.Fprintf(&b, "(?P<%s>.+)", name)
		} else {
			fmt.Fprintf(&b, "(?P<%s>[^/]+)", name)
		}
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(raw[last:]))
	b.WriteString("$")
	return Template{raw: raw, re: regexp.MustCompile(b.String()), vars: vars}
}

// String is the template as written.
func (t Template) String() string { return t.raw }

// Vars are the template's variable names, in order.
func (t Template) Vars() []string { return t.vars }

// Match reports whether uri is an expansion of the template and, when it
// is, the value of each variable.
func (t Template) Match(uri string) (map[string]string, bool) {
	m := t.re.FindStringSubmatch(uri)
	if m == nil {
		return nil, false
	}
	vars := make(map[string]string, len(t.vars))
	for i, name := range t.re.SubexpNames() {
		if i > 0 && name != "" {
			vars[name] = m[i]
		}
	}
	return vars, true
}

// Expand fills each variable with the value vals gives it; a variable
// without one is filled with fill.
func (t Template) Expand(vals map[string]string, fill string) string {
	return templateExpr.ReplaceAllStringFunc(t.raw, func(expr string) string {
		name := templateExpr.FindStringSubmatch(expr)[2]
		if v, ok := vals[name]; ok {
			return v
		}
		return fill
	})
}
