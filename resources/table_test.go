package resources_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/resources"
)

// A small table of each kind of entry: the index, an embedded document, a
// template over embedded entries, a runtime resource and a runtime
// template with a completer, and a hidden runtime entry.
var (
	testScope = resources.Scope{
		Purpose: "testing", Coverage: "the table",
		Topics: []resources.Topic{
			{ID: "docs", Title: "Docs", Scope: "everywhere", Documents: []string{"a"}, Tools: []string{"reader"}},
			{ID: "gone", Title: "Gone", Scope: "server", Documents: []string{"b"}, Tools: []string{"dropped"}},
		},
	}
	testEntries = []resources.Entry{
		{URI: resources.IndexURI, Name: "index", Title: "Index", Priority: 1, MIMEType: "application/json", Kind: resources.Runtime, Reader: "knowledge.index"},
		{URI: "knowledge://documents/a", Name: "doc-a", Title: "A", Priority: 0.8, MIMEType: "text/markdown", Body: "# A\n", Size: 4},
		{URI: "knowledge://documents/b", Name: "doc-b", Title: "B", Priority: 0.6, MIMEType: "text/markdown", Body: "# B\n", Size: 4},
		{URI: "knowledge://documents/{id}", Name: "doc", Title: "Document", Priority: 0.3, Template: true, Values: map[string][]string{"id": {"a", "b"}}},
		{URI: "live://thing", Name: "thing", Title: "Thing", Priority: 0.7, MIMEType: "application/json", Kind: resources.Runtime, Reader: "thing"},
		{URI: "live://items/{+name}", Name: "item", Title: "Item", Priority: 0.5, Template: true, Kind: resources.Runtime, Reader: "item", Completer: "item"},
		{URI: "ui://shell", Name: "shell", Title: "Shell", Priority: 0.1, Kind: resources.Runtime, Reader: "shell", Hidden: true},
	}
)

func testConfig() resources.Config {
	return resources.Config{
		Entries: testEntries,
		Scope:   testScope,
		Readers: map[resources.Reader]resources.ReadFunc{
			"thing": func(context.Context, string, map[string]string) (resources.Content, error) {
				return resources.JSON(map[string]string{"secret": "s3cr3t"})
			},
			"item": func(_ context.Context, uri string, vars map[string]string) (resources.Content, error) {
				if vars["name"] == "missing" {
					return resources.Content{}, errors.New("no such item")
				}
				return resources.Content{Text: "item " + vars["name"], MIMEType: "text/plain"}, nil
			},
			"shell": func(context.Context, string, map[string]string) (resources.Content, error) {
				return resources.Content{Text: "<html>"}, nil
			},
		},
		Completers: map[resources.Completer]resources.CompleteFunc{
			"item": func(context.Context, string, string) ([]string, error) { return []string{"x/1", "y"}, nil },
		},
		Filter: func(_ context.Context, c resources.Content) resources.Content {
			c.Text = strings.ReplaceAll(c.Text, "s3cr3t", "[secret]")
			return c
		},
		ExcludedTools: []string{"dropped"},
	}
}

func newTable(t *testing.T) *resources.Table {
	t.Helper()
	tb, err := resources.New(testConfig())
	assert.NilError(t, err)
	return tb
}

func TestNewRefusesAnIncompleteTable(t *testing.T) {
	for name, change := range map[string]func(*resources.Config){
		"a reader missing": func(c *resources.Config) { delete(c.Readers, "thing") },
		"a completer missing": func(c *resources.Config) {
			c.Completers = nil
		},
		"a URI twice": func(c *resources.Config) {
			c.Entries = append(slices.Clone(c.Entries), resources.Entry{URI: "live://thing", Name: "again"})
		},
	} {
		t.Run(name, func(t *testing.T) {
			cfg := testConfig()
			cfg.Readers = map[resources.Reader]resources.ReadFunc{}
			for k, v := range testConfig().Readers {
				cfg.Readers[k] = v
			}
			change(&cfg)
			_, err := resources.New(cfg)
			assert.ErrorContains(t, err, "the table is incomplete")
		})
	}
	// The generated table, with no readers, names what it misses.
	_, err := resources.New(resources.Config{})
	assert.ErrorContains(t, err, `session://current has no reader "session.current"`)
}

func TestOrdering(t *testing.T) {
	var got []string
	for _, e := range newTable(t).Entries() {
		got = append(got, e.Name)
	}
	assert.DeepEqual(t, got, []string{"index", "doc-a", "thing", "doc-b", "item", "doc", "shell"})
}

func TestMatch(t *testing.T) {
	tb := newTable(t)
	cases := []struct {
		uri, entry string
		vars       map[string]string
	}{
		{"knowledge://index", "index", nil},
		{"knowledge://documents/a", "doc-a", nil},
		{"knowledge://documents/zzz", "doc", map[string]string{"id": "zzz"}},
		{"live://items/a/b/c", "item", map[string]string{"name": "a/b/c"}}, // {+name} crosses slashes
		{"live://thing", "thing", nil},
	}
	for _, tc := range cases {
		e, vars, ok := tb.Match(tc.uri)
		assert.Check(t, ok, tc.uri)
		assert.Check(t, is.Equal(e.Name, tc.entry), tc.uri)
		assert.Check(t, is.DeepEqual(vars, tc.vars), tc.uri)
	}
	for _, miss := range []string{"knowledge://documents/a/b", "live://nothing", "", "knowledge://"} {
		_, _, ok := tb.Match(miss)
		assert.Check(t, !ok, miss)
	}
}

func TestRead(t *testing.T) {
	tb := newTable(t)
	ctx := context.Background()
	cases := []struct {
		uri, text, mime string
	}{
		{"knowledge://documents/a", "# A\n", "text/markdown"},
		{"live://items/x/1", "item x/1", "text/plain"},
		{"live://thing", "{\n  \"secret\": \"[secret]\"\n}", "application/json"}, // the filter ran
	}
	for _, tc := range cases {
		c, err := tb.Read(ctx, tc.uri)
		assert.NilError(t, err, tc.uri)
		assert.Check(t, is.Equal(c.Text, tc.text), tc.uri)
		assert.Check(t, is.Equal(c.MIMEType, tc.mime), tc.uri)
		assert.Check(t, is.Equal(c.URI, tc.uri))
	}
	_, err := tb.Read(ctx, "live://items/missing")
	assert.Check(t, is.ErrorContains(err, "no such item"))
	assert.Check(t, !resources.IsNotFound(err), "a reader's own error is not a miss of the table")
}

func TestNotFound(t *testing.T) {
	tb := newTable(t)
	cases := []struct {
		uri   string
		wants []string
	}{
		// A template over embedded entries matched, but no such entry:
		// the values it can take and an example that works.
		{"knowledge://documents/zzz", []string{`id "zzz" is not one of: a, b`, "Try knowledge://documents/a", "knowledge://index"}},
		// Nothing matched: every listed template with an example; the
		// completer gives the runtime template's.
		{"nowhere://x", []string{"no resource at nowhere://x", "knowledge://documents/{id} (e.g. knowledge://documents/a)", "live://items/{+name} (e.g. live://items/x/1)"}},
	}
	for _, tc := range cases {
		_, err := tb.Read(context.Background(), tc.uri)
		assert.Assert(t, resources.IsNotFound(err), "%s: %v", tc.uri, err)
		for _, w := range tc.wants {
			assert.Check(t, is.Contains(err.Error(), w), tc.uri)
		}
		assert.Check(t, !strings.Contains(err.Error(), "ui://shell"), "a hidden entry is offered")
	}
}

func TestComplete(t *testing.T) {
	tb := newTable(t)
	ctx := context.Background()
	vals, err := tb.Complete(ctx, "knowledge://documents/{id}", "id", "B")
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(vals, []string{"b"}))
	vals, err = tb.Complete(ctx, "live://items/{+name}", "name", "x")
	assert.NilError(t, err)
	assert.Check(t, is.DeepEqual(vals, []string{"x/1"}))
	_, err = tb.Complete(ctx, "knowledge://documents/{id}", "nope", "")
	assert.Check(t, is.ErrorContains(err, "its variables are id"))
	_, err = tb.Complete(ctx, "live://thing", "x", "")
	assert.Check(t, resources.IsNotFound(err))
}

// TestIndexIsServed: the index names exactly what the table serves (every
// runtime resource and template but hidden ones), drops the topic whose
// tools are all excluded, and declares its exact size.
func TestIndexIsServed(t *testing.T) {
	tb := newTable(t)
	c, err := tb.Read(context.Background(), resources.IndexURI)
	assert.NilError(t, err)
	var idx resources.Index
	assert.NilError(t, json.Unmarshal([]byte(c.Text), &idx))
	e, ok := tb.Lookup(resources.IndexURI)
	assert.Assert(t, ok)
	assert.Check(t, is.Equal(e.Size, int64(len(c.Text))))

	var live, tmpls []string
	for _, it := range idx.Live {
		live = append(live, it.URI)
	}
	for _, it := range idx.Templates {
		tmpls = append(tmpls, it.URI)
	}
	var wantLive, wantTmpls []string
	for _, e := range tb.Entries() {
		switch {
		case e.Hidden || e.URI == resources.IndexURI:
		case e.Template:
			wantTmpls = append(wantTmpls, e.URI)
		case e.Kind == resources.Runtime:
			wantLive = append(wantLive, e.URI)
		}
	}
	assert.Check(t, is.DeepEqual(live, wantLive))
	assert.Check(t, is.DeepEqual(tmpls, wantTmpls))
	assert.Assert(t, is.Len(idx.Topics, 1), "the topic only an excluded tool answers is dropped")
	assert.Check(t, is.Equal(idx.Topics[0].ID, "docs"))
	assert.Check(t, tb.Excluded("dropped"))
}

// TestGeneratedIndexIsServed is the same property on the real table, with
// every reader the server binds stood in for.
func TestGeneratedIndexIsServed(t *testing.T) {
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
	tb, err := resources.New(cfg)
	assert.NilError(t, err)
	c, err := tb.Read(context.Background(), resources.IndexURI)
	assert.NilError(t, err)
	for _, e := range tb.Entries() {
		if e.Hidden || e.URI == resources.IndexURI || (e.Kind == resources.Embedded && !e.Template) {
			continue
		}
		assert.Check(t, is.Contains(c.Text, `"uri": "`+e.URI+`"`), "the index omits %s", e.URI)
	}
}

func TestMirrorCursor(t *testing.T) {
	tb := newTable(t)
	page, err := tb.MirrorList("")
	assert.NilError(t, err)
	assert.Check(t, is.Equal(page.NextCursor, ""), "seven entries fit one page")
	for _, it := range page.Resources {
		assert.Check(t, it.Name != "shell", "the mirror lists a hidden entry")
	}
	for _, bad := range []string{
		"not base64!",
		base64.RawURLEncoding.EncodeToString([]byte("1:doc")),    // the name is not the one at offset 1
		base64.RawURLEncoding.EncodeToString([]byte("99:index")), // past the end
		base64.RawURLEncoding.EncodeToString([]byte("-1:index")),
		base64.RawURLEncoding.EncodeToString([]byte("2")),
	} {
		_, err := tb.MirrorList(bad)
		assert.Check(t, is.ErrorContains(err, "call list_resources without a cursor"), bad)
	}
	good := base64.RawURLEncoding.EncodeToString([]byte("1:doc-a"))
	page, err = tb.MirrorList(good)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(page.Resources[0].Name, "doc-a"))
}

func TestTemplate(t *testing.T) {
	cases := []struct {
		tmpl, uri string
		vars      map[string]string
		ok        bool
	}{
		{"a://{x}", "a://1", map[string]string{"x": "1"}, true},
		{"a://{x}", "a://1/2", nil, false},
		{"a://{+x}", "a://1/2", map[string]string{"x": "1/2"}, true},
		{"a://{x}/b/{y}", "a://1/b/2", map[string]string{"x": "1", "y": "2"}, true},
		{"a://plain.x", "a://plainyx", nil, false}, // the literal part is quoted
		{"a://plain.x", "a://plain.x", map[string]string{}, true},
	}
	for _, tc := range cases {
		tm := resources.ParseTemplate(tc.tmpl)
		vars, ok := tm.Match(tc.uri)
		assert.Check(t, is.Equal(ok, tc.ok), "%s ~ %s", tc.tmpl, tc.uri)
		if tc.ok {
			assert.Check(t, is.DeepEqual(vars, tc.vars), "%s ~ %s", tc.tmpl, tc.uri)
		}
	}
	tm := resources.ParseTemplate("a://{x}/{+y}")
	assert.Check(t, is.DeepEqual(tm.Vars(), []string{"x", "y"}))
	assert.Check(t, is.Equal(tm.Expand(map[string]string{"x": "1"}, "?"), "a://1/?"))
}
