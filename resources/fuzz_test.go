package resources_test

import (
	"context"
	"slices"
	"testing"
	"unicode/utf8"

	"github.com/selenium-flow/selenium-flow/resources"
)

// FuzzTemplate matches any URI against any template: nothing panics, the
// variables found are the template's own, and a match round-trips —
// expanding the template with the matched values gives the URI back, so
// a handler that rebuilds a URI from its variables names the same thing.
func FuzzTemplate(f *testing.F) {
	for _, seed := range []struct{ tmpl, uri string }{
		{"session://files/{+name}", "session://files/downloads/report.csv"},
		{"session://files/{+name}", "session://files/"},
		{"flow://flows/{name}", "flow://flows/login"},
		{"flow://flows/{name}", "flow://flows/a/b"},
		{"skill://{id}/references/{file}", "skill://flows/references/format.md"},
		{"skill://{id}/SKILL.md", "skill://x/SKILL.md/SKILL.md"},
		{"knowledge://documents/{id}", "knowledge://documents/%2e%2e%2Fsecret"},
		{"a{+x}b{y}", "a/b/cb\u2028"},
		{"{x}{+y}", "\u0085\u00a0/\n/"},
		{"{{x}}.{bad name}{+}", "{v}.{bad name}{+}"},
		{"(.*)[x]{+p}$^", "(.*)[x]q$^"},
	} {
		f.Add(seed.tmpl, seed.uri)
	}
	f.Fuzz(func(t *testing.T, raw, uri string) {
		if !utf8.ValidString(raw) {
			// Templates are source text (gen, the guard, show's
			// patterns), never a caller's: ParseTemplate panics on
			// invalid UTF-8, as regexp.MustCompile does.
			return
		}
		tmpl := resources.ParseTemplate(raw)
		if tmpl.String() != raw {
			t.Fatalf("the template %q reads back as %q", raw, tmpl.String())
		}
		vars := tmpl.Vars()
		if hasRepeats(vars) {
			// A known limit outside the table: a variable used twice
			// matches two different values and keeps the last. No table
			// template repeats one; FuzzTableMatch checks that.
			return
		}
		got, ok := tmpl.Match(uri)
		if !ok {
			return
		}
		for name := range got {
			if !slices.Contains(vars, name) {
				t.Fatalf("%q matched %q with a variable %q the template does not have", raw, uri, name)
			}
		}
		if back := tmpl.Expand(got, "\x00missing\x00"); back != uri {
			t.Fatalf("%q matched %q with %q, which expands to %q", raw, uri, got, back)
		}
	})
}

// FuzzTableMatch matches any URI against the generated table, as
// resources/read, the mirror and the read API do: nothing panics, a
// concrete resource is found only by its exact URI, and a template's
// variables expand back to the URI asked for.
func FuzzTableMatch(f *testing.F) {
	tb := generatedTable(f)
	for _, e := range tb.Entries() {
		f.Add(resources.ParseTemplate(e.URI).Expand(nil, "x"))
		f.Add(resources.ParseTemplate(e.URI).Expand(nil, "a/b%2F..\u00a0"))
	}
	for _, seed := range []string{"", "session://files/", "flow://flows/", "skill:///SKILL.md", "knowledge://documents/\n", "SESSION://files/x"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, uri string) {
		e, vars, ok := tb.Match(uri)
		if !ok {
			return
		}
		if !e.Template {
			if e.URI != uri {
				t.Fatalf("%q matched the resource %s", uri, e.URI)
			}
			return
		}
		tmpl := resources.ParseTemplate(e.URI)
		if hasRepeats(tmpl.Vars()) {
			t.Fatalf("the table's template %s uses a variable twice", e.URI)
		}
		if back := tmpl.Expand(vars, "\x00missing\x00"); back != uri {
			t.Fatalf("%q matched %s with %q, which expands to %q", uri, e.URI, vars, back)
		}
	})
}

// generatedTable is the generated table with every reader and completer
// the server binds stood in for.
func generatedTable(tb testing.TB) *resources.Table {
	tb.Helper()
	cfg := resources.Config{Readers: map[resources.Reader]resources.ReadFunc{}, Completers: map[resources.Completer]resources.CompleteFunc{}}
	for _, e := range resources.Generated() {
		if e.Kind == resources.Runtime {
			cfg.Readers[e.Reader] = func(context.Context, string, map[string]string) (resources.Content, error) {
				return resources.Content{}, nil
			}
		}
		if e.Completer != "" {
			cfg.Completers[e.Completer] = func(context.Context, string, string) ([]string, error) { return nil, nil }
		}
	}
	t, err := resources.New(cfg)
	if err != nil {
		tb.Fatalf("building the generated table: %v", err)
	}
	return t
}

func hasRepeats(names []string) bool {
	s := slices.Clone(names)
	slices.Sort(s)
	return len(slices.Compact(s)) != len(names)
}
