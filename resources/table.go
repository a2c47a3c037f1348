package resources

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"
)

// Table is the resource table the server serves: the generated entries, with
// runtime readers bound by the packages that own them. Bind everything before
// serving; a Table is read-only once the first request arrives.
type Table struct {
	entries    []Entry // listing order: priority, then name
	byURI      map[string]int
	patterns   map[string]*regexp.Regexp
	readers    map[string]ReadFunc
	completers map[string]CompleteFunc
	scope      Scope
	excluded   map[string]bool
	filter     func(context.Context, Content) Content

	indexOnce sync.Once
}

// Option configures a Table.
type Option func(*Table)

// WithExcludedTools drops from the index every topic that none of the
// remaining tools can answer. Documents stay readable by URI.
func WithExcludedTools(names ...string) Option {
	return func(t *Table) {
		for _, n := range names {
			if n = strings.TrimSpace(n); n != "" {
				t.excluded[n] = true
			}
		}
	}
}

// WithEntries replaces the generated entries and scope; tests use it to
// serve a table of their own.
func WithEntries(entries []Entry, scope Scope) Option {
	return func(t *Table) {
		t.entries = slices.Clone(entries)
		t.scope = scope
	}
}

// New returns the generated table.
func New(opts ...Option) *Table {
	t := &Table{
		entries:    slices.Clone(generatedEntries),
		scope:      generatedScope,
		readers:    map[string]ReadFunc{},
		completers: map[string]CompleteFunc{},
		excluded:   map[string]bool{},
		patterns:   map[string]*regexp.Regexp{},
	}
	for _, o := range opts {
		o(t)
	}
	slices.SortStableFunc(t.entries, func(a, b Entry) int {
		if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	t.byURI = make(map[string]int, len(t.entries))
	for i, e := range t.entries {
		t.byURI[e.URI] = i
		if e.Template {
			t.patterns[e.URI] = templatePattern(e.URI)
		}
	}
	t.readers[indexReader] = nil // built on first use, see index.go
	return t
}

// Bind attaches the reader a runtime entry names. Entries whose reader is
// never bound are not served: a server without browsers lists no session.
func (t *Table) Bind(reader string, fn ReadFunc) { t.readers[reader] = fn }

// BindCompleter attaches the completer a template names.
func (t *Table) BindCompleter(name string, fn CompleteFunc) { t.completers[name] = fn }

// Scope returns the server's scope as generated.
func (t *Table) Scope() Scope { return t.scope }

// Excluded reports whether a tool was excluded with WithExcludedTools.
func (t *Table) Excluded(tool string) bool { return t.excluded[tool] }

// served reports whether an entry can be read.
func (t *Table) served(e Entry) bool {
	if e.Kind == Embedded {
		return true
	}
	_, ok := t.readers[e.Reader]
	return ok
}

// Entries returns every served entry, resources and templates, in listing
// order, hidden ones included.
func (t *Table) Entries() []Entry {
	t.buildIndex()
	out := make([]Entry, 0, len(t.entries))
	for _, e := range t.entries {
		if t.served(e) {
			out = append(out, e)
		}
	}
	return out
}

// Lookup returns the served entry with exactly this URI or template.
func (t *Table) Lookup(uri string) (Entry, bool) {
	t.buildIndex()
	i, ok := t.byURI[uri]
	if !ok || !t.served(t.entries[i]) {
		return Entry{}, false
	}
	return t.entries[i], true
}

// Match finds the entry that answers a concrete URI: the resource itself, or
// else the first served template that matches, with its variables.
func (t *Table) Match(uri string) (Entry, map[string]string, bool) {
	if e, ok := t.Lookup(uri); ok && !e.Template {
		return e, nil, true
	}
	for _, e := range t.entries {
		if !e.Template || !t.served(e) {
			continue
		}
		m := t.patterns[e.URI].FindStringSubmatch(uri)
		if m == nil {
			continue
		}
		vars := map[string]string{}
		for i, name := range t.patterns[e.URI].SubexpNames() {
			if i > 0 && name != "" {
				vars[name] = m[i]
			}
		}
		return e, vars, true
	}
	return Entry{}, nil, false
}

// Read returns a resource's content. A URI the table does not answer is
// refused with a sentence naming what exists and an example that would work.
func (t *Table) Read(ctx context.Context, uri string) (Content, error) {
	e, vars, ok := t.Match(uri)
	if !ok {
		return Content{}, t.notFound(ctx, uri)
	}
	if e.Kind == Embedded {
		if e.Template {
			// A template over embedded entries (documents, skills,
			// references) matched, but no such entry exists.
			return Content{}, t.notFoundIn(e, uri, vars)
		}
		return Content{URI: uri, MIMEType: e.MIMEType, Text: e.Body}, nil
	}
	read := t.readers[e.Reader]
	if read == nil {
		return Content{}, fmt.Errorf("%s cannot be read on this server: %w", uri, ErrNotFound)
	}
	c, err := read(ctx, uri, vars)
	if err != nil {
		return Content{}, err
	}
	c.URI = cmp.Or(c.URI, uri)
	c.MIMEType = cmp.Or(c.MIMEType, e.MIMEType)
	if t.filter != nil {
		c = t.filter(ctx, c)
	}
	return c, nil
}

// Filter passes every content a runtime reader returns through f before
// any surface (resources/read, the mirror, the read API) serves it; the
// server redacts the caller's secrets with it. Set it before serving.
func (t *Table) Filter(f func(context.Context, Content) Content) { t.filter = f }

// NotFoundError is a refusal of a URI the table does not answer.
type NotFoundError struct {
	URI  string
	Hint string
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("no resource at %s. %s", e.URI, e.Hint)
}

func (e *NotFoundError) Unwrap() error { return ErrNotFound }

func (t *Table) notFoundIn(tmpl Entry, uri string, vars map[string]string) error {
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(tmpl.Values)) {
		if v, ok := vars[name]; ok && !slices.Contains(tmpl.Values[name], v) {
			parts = append(parts, fmt.Sprintf("%s %q is not one of: %s", name, v, strings.Join(tmpl.Values[name], ", ")))
		}
	}
	hint := strings.Join(parts, "; ")
	if hint != "" {
		hint += ". "
	}
	return &NotFoundError{URI: uri, Hint: hint + "Try " + t.example(context.Background(), tmpl) + ", or read knowledge://index for every document and skill."}
}

func (t *Table) notFound(ctx context.Context, uri string) error {
	var tmpls []string
	for _, e := range t.Entries() {
		if e.Template && !e.Hidden {
			tmpls = append(tmpls, fmt.Sprintf("%s (e.g. %s)", e.URI, t.example(ctx, e)))
		}
	}
	return &NotFoundError{URI: uri, Hint: "Read knowledge://index for every document and skill, or use a template: " + strings.Join(tmpls, "; ") + "."}
}

// example fills a template with the first value each variable can take.
func (t *Table) example(ctx context.Context, e Entry) string {
	out := e.URI
	for _, name := range templateVars(e.URI) {
		v := ""
		if vals := e.Values[name]; len(vals) > 0 {
			v = vals[0]
		} else if c := t.completers[e.Completer]; c != nil {
			if vals, err := c(ctx, name, ""); err == nil && len(vals) > 0 {
				v = vals[0]
			}
		}
		if v == "" {
			return e.URI
		}
		out = strings.Replace(out, "{"+name+"}", v, 1)
	}
	return out
}

// Complete lists the values a template variable can take that start with
// prefix, from the generated values or the template's bound completer.
func (t *Table) Complete(ctx context.Context, template, variable, prefix string) ([]string, error) {
	e, ok := t.Lookup(template)
	if !ok || !e.Template {
		return nil, &NotFoundError{URI: template, Hint: "Completions exist for the templates in resources/templates/list."}
	}
	var vals []string
	if v, ok := e.Values[variable]; ok {
		vals = v
	} else if c := t.completers[e.Completer]; c != nil {
		var err error
		if vals, err = c(ctx, variable, prefix); err != nil {
			return nil, err
		}
	} else if !slices.Contains(templateVars(e.URI), variable) {
		return nil, fmt.Errorf("%s has no variable %q; its variables are %s", e.URI, variable, strings.Join(templateVars(e.URI), ", "))
	}
	out := []string{}
	for _, v := range vals {
		if strings.HasPrefix(strings.ToLower(v), strings.ToLower(prefix)) {
			out = append(out, v)
		}
	}
	return out, nil
}

var templateVar = regexp.MustCompile(`\{\+?([A-Za-z0-9_]+)\}`)

func templateVars(tmpl string) []string {
	var out []string
	for _, m := range templateVar.FindAllStringSubmatch(tmpl, -1) {
		out = append(out, m[1])
	}
	return out
}

// templatePattern compiles the RFC 6570 level-1 and reserved ({+var})
// expressions these templates use: {var} stops at a slash, {+var} does not.
func templatePattern(tmpl string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	last := 0
	for _, loc := range templateVar.FindAllStringSubmatchIndex(tmpl, -1) {
		b.WriteString(regexp.QuoteMeta(tmpl[last:loc[0]]))
		name := tmpl[loc[2]:loc[3]]
		if strings.HasPrefix(tmpl[loc[0]:], "{+") {
			fmt.Fprintf(&b, "(?P<%s>.+)", name)
		} else {
			fmt.Fprintf(&b, "(?P<%s>[^/]+)", name)
		}
		last = loc[1]
	}
	b.WriteString(regexp.QuoteMeta(tmpl[last:]))
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}

// IsNotFound reports whether err is a refusal of an unknown URI.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
