package manual

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// tool is a tool as tools/list puts it on the wire.
type tool struct {
	Name         string          `json:"name"`
	Title        string          `json:"title"`
	Description  string          `json:"description"`
	InputSchema  schema          `json:"inputSchema"`
	OutputSchema *schema         `json:"outputSchema"`
	Annotations  map[string]any  `json:"annotations"`
	Meta         json.RawMessage `json:"_meta"`
}

// schema is the part of a JSON Schema the reference shows.
type schema struct {
	Type        any                `json:"type"`
	Description string             `json:"description"`
	Properties  map[string]*schema `json:"properties"`
	Required    []string           `json:"required"`
	Items       *schema            `json:"items"`
	Enum        []any              `json:"enum"`
	Default     any                `json:"default"`
	Examples    []any              `json:"examples"`
	Minimum     *float64           `json:"minimum"`
	Maximum     *float64           `json:"maximum"`
	OneOf       []*schema          `json:"oneOf"`
	AnyOf       []*schema          `json:"anyOf"`
	Ref         string             `json:"$ref"`
}

func (t tool) title() string {
	if t.Title != "" {
		return t.Title
	}
	if s, ok := t.Annotations["title"].(string); ok && s != "" {
		return s
	}
	return t.Name
}

func toolPath(name string) string { return "tools/" + name + ".md" }

// hints are the annotations in the order the MCP specification lists them.
var hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

func (s *source) toolPages() []Page {
	const at = "tools/README.md"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# Tools\n\n")
	fmt.Fprintf(&b, "The %d tools this server offers, as its `tools/list` describes them to a client that gets every tool (the mirror tools included). Each page shows the tool's annotations, its description, its arguments and an example call.\n\n", len(s.tools))
	var rows [][]string
	pages := []Page{}
	for _, t := range s.tools {
		rows = append(rows, []string{codeLink(t.Name, rel(at, toolPath(t.Name))), text(t.title()), text(hintSummary(t.Annotations)), text(firstSentence(t.Description))})
		pages = append(pages, s.toolPage(t))
	}
	table(&b, []string{"tool", "title", "annotations", "what it does"}, rows)
	b.WriteString("Tools are registered in `tools/` and `internal/server`; this list is regenerated with `make docs`.\n")
	return append([]Page{{Path: at, Title: "Tools", Markdown: b.String()}}, pages...)
}

func (s *source) toolPage(t tool) Page {
	at := toolPath(t.Name)
	var b strings.Builder
	b.WriteString(header)
	fmt.Fprintf(&b, "# %s (%s)\n\n", text(t.title()), code(t.Name))
	b.WriteString(text(t.Description) + "\n\n")

	b.WriteString("## Annotations\n\n")
	var rows [][]string
	if title, ok := t.Annotations["title"].(string); ok {
		rows = append(rows, []string{code("title"), text(title)})
	}
	for _, h := range hints {
		if v, ok := t.Annotations[h]; ok {
			rows = append(rows, []string{code(h), code(fmt.Sprint(v))})
		}
	}
	if len(rows) == 0 {
		b.WriteString("None declared.\n\n")
	} else {
		table(&b, []string{"annotation", "value"}, rows)
	}

	b.WriteString("## Input\n\n")
	if in := schemaRows(&t.InputSchema, "", 0); len(in) == 0 {
		b.WriteString("No arguments.\n\n")
	} else {
		table(&b, []string{"argument", "type", "required", "description"}, in)
	}
	if t.OutputSchema != nil && len(t.OutputSchema.Properties) > 0 {
		b.WriteString("## Output\n\n")
		b.WriteString("Besides its text, the result carries `structuredContent` of this shape:\n\n")
		table(&b, []string{"field", "type", "always", "description"}, schemaRows(t.OutputSchema, "", 0))
	}

	b.WriteString("## Example call\n\n")
	type params struct {
		Name      string `json:"name"`
		Arguments any    `json:"arguments"`
	}
	call := struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int    `json:"id"`
		Method  string `json:"method"`
		Params  params `json:"params"`
	}{"2.0", 1, "tools/call", params{t.Name, example(&t.InputSchema, 0)}}
	fenced(&b, "json", jsonString(call))
	fmt.Fprintf(&b, "Back to %s.\n", link("all tools", rel(at, "tools/README.md")))
	return Page{Path: at, Title: t.title(), Markdown: b.String()}
}

// schemaRows flattens an object schema's properties into table rows,
// required first; nested objects and arrays of objects add dotted rows.
func schemaRows(sc *schema, prefix string, depth int) [][]string {
	if sc == nil || depth > 4 {
		return nil
	}
	names := make([]string, 0, len(sc.Properties))
	for n := range sc.Properties {
		names = append(names, n)
	}
	slices.SortFunc(names, func(a, b string) int {
		ra, rb := slices.Contains(sc.Required, a), slices.Contains(sc.Required, b)
		if ra != rb {
			if ra {
				return -1
			}
			return 1
		}
		return strings.Compare(a, b)
	})
	var rows [][]string
	for _, n := range names {
		p := sc.Properties[n]
		if p == nil {
			continue
		}
		req := "no"
		if slices.Contains(sc.Required, n) {
			req = "yes"
		}
		rows = append(rows, []string{code(prefix + n), text(typeOf(p)), req, text(describe(p))})
		switch {
		case len(p.Properties) > 0:
			rows = append(rows, schemaRows(p, prefix+n+".", depth+1)...)
		case p.Items != nil && len(p.Items.Properties) > 0:
			rows = append(rows, schemaRows(p.Items, prefix+n+"[].", depth+1)...)
		}
		var objects []*schema
		for _, alt := range append(slices.Clone(p.OneOf), p.AnyOf...) {
			if alt != nil && len(alt.Properties) > 0 {
				objects = append(objects, alt)
			}
		}
		for i, alt := range objects {
			at := prefix + n + "."
			if len(objects) > 1 {
				at = fmt.Sprintf("%s%s (form %d).", prefix, n, i+1)
			}
			rows = append(rows, schemaRows(alt, at, depth+1)...)
		}
	}
	return rows
}

func typeOf(sc *schema) string {
	var t string
	switch v := sc.Type.(type) {
	case string:
		t = v
	case []any:
		var parts []string
		for _, p := range v {
			parts = append(parts, fmt.Sprint(p))
		}
		t = strings.Join(parts, " or ")
	}
	if t == "array" && sc.Items != nil {
		if it := typeOf(sc.Items); it != "" {
			t = "array of " + it
		}
	}
	switch {
	case t == "" && len(sc.OneOf) > 0:
		t = alternatives(sc.OneOf)
	case t == "" && len(sc.AnyOf) > 0:
		t = alternatives(sc.AnyOf)
	case t == "" && sc.Ref != "":
		t = sc.Ref
	case t == "" && len(sc.Enum) > 0:
		t = "enum"
	case t == "":
		t = "any"
	}
	return t
}

func alternatives(alts []*schema) string {
	var parts []string
	for _, a := range alts {
		if a == nil {
			continue
		}
		if t := typeOf(a); !slices.Contains(parts, t) {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " or ")
}

func describe(sc *schema) string {
	d := strings.TrimSpace(sc.Description)
	if d != "" && !strings.ContainsAny(d[len(d)-1:], ".!?") {
		d += "."
	}
	parts := []string{d}
	if len(sc.Enum) > 0 {
		var vals []string
		for _, v := range sc.Enum {
			vals = append(vals, jsonString(v))
		}
		parts = append(parts, "One of: "+strings.Join(vals, ", ")+".")
	}
	if sc.Default != nil {
		parts = append(parts, "Default: "+jsonString(sc.Default)+".")
	}
	if sc.Minimum != nil {
		parts = append(parts, "Minimum: "+jsonString(*sc.Minimum)+".")
	}
	if sc.Maximum != nil {
		parts = append(parts, "Maximum: "+jsonString(*sc.Maximum)+".")
	}
	return strings.TrimSpace(strings.Join(parts, " "))
}

var exampleValue = regexp.MustCompile(`(?:e\.g\.,?|such as)\s+` + "`?" + `"?([^\s,;"` + "`" + `]+)`)

// placeholder stands for a string example nothing suggests.
const placeholder = "…"

// example is an argument object for the example call: the required
// properties, each with its default, first enum value, a value its
// description gives after "e.g.", or a placeholder of its type.
func example(sc *schema, depth int) any {
	if sc == nil || depth > 4 {
		return map[string]any{}
	}
	if len(sc.Examples) > 0 {
		return sc.Examples[0]
	}
	if sc.Default != nil {
		return sc.Default
	}
	if len(sc.Enum) > 0 {
		return sc.Enum[0]
	}
	t, _ := sc.Type.(string)
	if arr, ok := sc.Type.([]any); ok && len(arr) > 0 {
		t, _ = arr[0].(string)
	}
	switch t {
	case "object", "":
		if t == "" && len(sc.Properties) == 0 {
			if len(sc.OneOf) > 0 {
				return example(sc.OneOf[0], depth+1)
			}
			if len(sc.AnyOf) > 0 {
				return example(sc.AnyOf[0], depth+1)
			}
		}
		obj := map[string]any{}
		for _, n := range sc.Required {
			obj[n] = example(sc.Properties[n], depth+1)
		}
		if len(obj) == 0 && len(sc.Properties) > 0 {
			if n, v, ok := anyProperty(sc, depth); ok {
				obj[n] = v
			}
		}
		return obj
	case "array":
		if sc.Items != nil {
			return []any{example(sc.Items, depth+1)}
		}
		return []any{}
	case "boolean":
		return true
	case "integer", "number":
		if sc.Minimum != nil {
			return *sc.Minimum
		}
		return 1
	}
	if m := exampleValue.FindStringSubmatch(sc.Description); m != nil {
		return strings.TrimRight(m[1], ".)")
	}
	return placeholder
}

// anyProperty picks one property for an example of an object that requires
// none (a locator takes exactly one of several): the first, by name, with a
// suggested string value; else the first object, boolean or number, in
// that order of preference; none when nothing but placeholders is known.
func anyProperty(sc *schema, depth int) (string, any, bool) {
	names := make([]string, 0, len(sc.Properties))
	for n := range sc.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	rank := func(v any) int {
		switch x := v.(type) {
		case string:
			if x != placeholder {
				return 0
			}
			return 4
		case map[string]any:
			return 1
		case bool:
			return 2
		case float64, int:
			return 3
		}
		return 4
	}
	best, bestRank := names[0], 5
	var bestValue any
	for _, n := range names {
		v := example(sc.Properties[n], depth+1)
		if r := rank(v); r < bestRank {
			best, bestRank, bestValue = n, r, v
		}
	}
	return best, bestValue, bestRank < 4
}

// hintWords say each hint, when true, as the tool list shows it.
var hintWords = map[string]string{"readOnlyHint": "read-only", "destructiveHint": "destructive", "idempotentHint": "idempotent", "openWorldHint": "open-world"}

func hintSummary(a map[string]any) string {
	var out []string
	for _, h := range hints {
		if v, ok := a[h].(bool); ok && v {
			out = append(out, hintWords[h])
		}
	}
	if len(out) == 0 {
		return "none"
	}
	return strings.Join(out, ", ")
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

func jsonString(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return fmt.Sprint(v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}
