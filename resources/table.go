package resources

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"strings"
)

// Table is the resource table the server serves: the generated entries,
// each runtime one with its reader, and the index built from them. It is
// built once, complete, by New and is read-only afterwards, so any number
// of requests may use it at once.
type Table struct {
	entries    []Entry // listing order: priority, then name
	byURI      map[string]int
	templates  map[string]Template
	readers    map[Reader]ReadFunc
	completers map[Completer]CompleteFunc
	scope      Scope
	excluded   map[string]bool
	filter     func(context.Context, Content) Content
	// skills are the SKILL.md URIs of the served skills, sorted; dirs maps
	// each directory to its children (skills.go).
	skills   []string
	dirs     map[string][]string
	pageSize int
	// withdrawn are the entries an exclusion took away, and prompts the
	// prompts it took (exclude.go).
	withdrawn []string
	prompts   []string
}

// Config is everything a Table is built from.
type Config struct {
	// Readers read the runtime entries, by the key each entry names. Every
	// runtime entry needs one: New refuses a table with a reader missing,
	// so nothing is listed that cannot be read.
	Readers map[Reader]ReadFunc
	// Completers complete template variables, by the key each template
	// names; a template without one completes from its generated values.
	Completers map[Completer]CompleteFunc
	// Filter passes every content a runtime reader returns before any
	// surface (resources/read, the mirror, the read API) serves it; the
	// server redacts the caller's secrets with it. Nil serves contents as
	// they are read.
	Filter func(context.Context, Content) Content
	// ExcludedTools drops from the index every topic that none of the
	// remaining tools can answer. Documents stay readable by URI.
	ExcludedTools []string
	// Entries and Scope replace the generated ones when Entries is not
	// nil; the package's tests serve tables of their own with them.
	Entries []Entry
	Scope   Scope
	// WithdrawnPrompts are prompts the server does not offer because their
	// text names an excluded tool; the index names them with the tools.
	WithdrawnPrompts []string
	// WithoutSkills serves the table with no skill at all: no skill://
	// resource or template, and so no Skills extension.
	WithoutSkills bool
	// PageSize is how many entries a page of skills/list or
	// resources/directory/read holds; DefaultPageSize when zero.
	PageSize int
}

// Generated returns the generated entries, index excepted, as go
// generate wrote them: what a binary publishes without serving (install
// writes the skills from it).
func Generated() []Entry {
	return slices.DeleteFunc(slices.Clone(generatedEntries), func(e Entry) bool { return e.Reader == indexReader })
}

// New builds the table: the generated entries (or cfg.Entries), each
// runtime entry with its reader, and knowledge://index from all of them.
func New(cfg Config) (*Table, error) {
	t := &Table{
		entries:    slices.Clone(generatedEntries),
		scope:      generatedScope,
		readers:    maps.Clone(cfg.Readers),
		completers: maps.Clone(cfg.Completers),
		excluded:   map[string]bool{},
		templates:  map[string]Template{},
		filter:     cfg.Filter,
		prompts:    slices.Sorted(slices.Values(cfg.WithdrawnPrompts)),
	}
	if cfg.Entries != nil {
		t.entries, t.scope = slices.Clone(cfg.Entries), cfg.Scope
	}
	if cfg.WithoutSkills {
		t.entries = slices.DeleteFunc(t.entries, func(e Entry) bool { return strings.HasPrefix(e.URI, "skill://") })
	}
	t.pageSize = cmp.Or(cfg.PageSize, DefaultPageSize)
	for _, n := range cfg.ExcludedTools {
		if n = strings.TrimSpace(n); n != "" {
			t.excluded[n] = true
		}
	}
	if err := t.excludeEntries(); err != nil {
		return nil, err
	}
	slices.SortStableFunc(t.entries, func(a, b Entry) int {
		if c := cmp.Compare(b.Priority, a.Priority); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	t.byURI = make(map[string]int, len(t.entries))
	var problems []string
	for i, e := range t.entries {
		if _, dup := t.byURI[e.URI]; dup {
			problems = append(problems, fmt.Sprintf("%s is in the table twice", e.URI))
		}
		t.byURI[e.URI] = i
		if e.Template {
			t.templates[e.URI] = ParseTemplate(e.URI)
		} else if e.Kind == Embedded && e.Digest == "" {
			// gen writes every digest and size; a table of the caller's
			// own (Config.Entries) may leave them out.
			t.entries[i].Digest, t.entries[i].Size = Digest([]byte(e.Body)), int64(len(e.Body))
		}
		if e.Kind == Runtime && e.Reader != indexReader && t.readers[e.Reader] == nil {
			problems = append(problems, fmt.Sprintf("%s has no reader %q", e.URI, e.Reader))
		}
		if e.Completer != "" && t.completers[e.Completer] == nil {
			problems = append(problems, fmt.Sprintf("%s has no completer %q", e.URI, e.Completer))
		}
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("resources: the table is incomplete: %s", strings.Join(problems, "; "))
	}
	t.buildSkills()
	if err := t.buildIndex(); err != nil {
		return nil, err
	}
	return t, nil
}

// Scope returns the server's scope as generated.
func (t *Table) Scope() Scope { return t.scope }

// Excluded reports whether a tool was excluded in Config.ExcludedTools.
func (t *Table) Excluded(tool string) bool { return t.excluded[tool] }

// Entries returns every entry, resources and templates, in listing order,
// hidden ones included.
func (t *Table) Entries() []Entry { return slices.Clone(t.entries) }

// Lookup returns the entry with exactly this URI or template.
func (t *Table) Lookup(uri string) (Entry, bool) {
	i, ok := t.byURI[uri]
	if !ok {
		return Entry{}, false
	}
	return t.entries[i], true
}

// Match finds the entry that answers a concrete URI: the resource itself, or
// else the first template that matches, with its variables.
func (t *Table) Match(uri string) (Entry, map[string]string, bool) {
	if e, ok := t.Lookup(uri); ok && !e.Template {
		return e, nil, true
	}
	for _, e := range t.entries {
		if !e.Template {
			continue
		}
		if vars, ok := t.templates[e.URI].Match(uri); ok {
			return e, vars, true
		}
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
	c, err := t.readers[e.Reader](ctx, uri, vars)
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

// NotFoundError is a refusal of a URI the table does not answer.
type NotFoundError struct {
	URI  string
	Hint string
}

func (e *NotFoundError) Error() string {
	// A caller may send a URI of megabytes; a refusal quotes a piece.
	uri := e.URI
	if len(uri) > maxQuoted {
		uri = strings.ToValidUTF8(uri[:maxQuoted], "") + "…"
	}
	return fmt.Sprintf("no resource at %s. %s", uri, e.Hint)
}

// maxQuoted is the most bytes of a caller's URI a refusal repeats.
const maxQuoted = 200

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
	if hint, ok := t.directoryHint(uri); ok {
		return &NotFoundError{URI: uri, Hint: hint}
	}
	var tmpls []string
	for _, e := range t.entries {
		if e.Template && !e.Hidden {
			tmpls = append(tmpls, fmt.Sprintf("%s (%s)", e.URI, t.exampleOrNone(ctx, e)))
		}
	}
	return &NotFoundError{URI: uri, Hint: "Read knowledge://index for every document and skill, or use a template: " + strings.Join(tmpls, "; ") + "."}
}

// exampleOrNone is "e.g." and an example of a template, or, when no value
// exists yet, the template's sentence on how one comes to exist.
func (t *Table) exampleOrNone(ctx context.Context, e Entry) string {
	ex := t.example(ctx, e)
	if ex == e.URI && e.NoneYet != "" {
		return e.NoneYet
	}
	return "e.g. " + ex
}

// example fills a template with the first value each variable can take.
func (t *Table) example(ctx context.Context, e Entry) string {
	tmpl := t.templates[e.URI]
	vals := map[string]string{}
	for _, name := range tmpl.Vars() {
		if vs := e.Values[name]; len(vs) > 0 {
			vals[name] = vs[0]
		} else if c := t.completers[e.Completer]; c != nil {
			if vs, err := c(ctx, name, ""); err == nil && len(vs) > 0 {
				vals[name] = vs[0]
			}
		}
		if vals[name] == "" {
			return e.URI
		}
	}
	return tmpl.Expand(vals, "")
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
	} else if vars := t.templates[e.URI].Vars(); !slices.Contains(vars, variable) {
		return nil, fmt.Errorf("%s has no variable %q; its variables are %s", e.URI, variable, strings.Join(vars, ", "))
	}
	out := []string{}
	for _, v := range vals {
		// A value matches the prefix as written or percent-decoded: a
		// kept file completes as a%20b.png, typed as "a b".
		decoded, err := url.PathUnescape(v)
		if err != nil {
			decoded = v
		}
		if hasPrefixFold(v, prefix) || hasPrefixFold(decoded, prefix) {
			out = append(out, v)
		}
	}
	return out, nil
}

func hasPrefixFold(s, prefix string) bool {
	return strings.HasPrefix(strings.ToLower(s), strings.ToLower(prefix))
}

// IsNotFound reports whether err is a refusal of an unknown URI.
func IsNotFound(err error) bool { return errors.Is(err, ErrNotFound) }
