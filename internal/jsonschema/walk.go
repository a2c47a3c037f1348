package jsonschema

import (
	"fmt"
	"maps"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	lib "github.com/google/jsonschema-go/jsonschema"
)

// walk lists the problems of v against s, each at its JSON pointer. It
// reads the keywords the server's schemas use; the compiled schema's
// verdict covers the rest (see Schema.Validate).
func walk(s *lib.Schema, v any, path string) []Problem {
	if s == nil {
		return nil
	}
	at := path
	if at == "" {
		at = "/"
	}
	bad := func(format string, args ...any) []Problem {
		return []Problem{{Path: at, Message: fmt.Sprintf(format, args...)}}
	}
	if isFalse(s) {
		return bad("no value is allowed here")
	}
	if types := typesOf(s); len(types) > 0 {
		got := kind(v)
		if !slices.ContainsFunc(types, func(t string) bool { return t == got || t == "number" && got == "integer" }) {
			return bad("want %s, got %s", orList(types), got)
		}
	}
	if len(s.Enum) > 0 && !slices.ContainsFunc(s.Enum, func(e any) bool { return equal(e, v) }) {
		return bad("value must be one of %s", quoteAll(s.Enum))
	}
	if s.Const != nil && !equal(*s.Const, v) {
		return bad("value must be %s", quote(*s.Const))
	}
	var probs []Problem
	for _, sub := range s.AllOf {
		probs = append(probs, walk(sub, v, path)...)
	}
	for _, alts := range [][]*lib.Schema{s.AnyOf, s.OneOf} {
		if len(alts) > 0 && !slices.ContainsFunc(alts, func(a *lib.Schema) bool { return len(walk(a, v, path)) == 0 }) {
			probs = append(probs, bad("the value fits none of the %d shapes allowed here", len(alts))...)
		}
	}
	switch x := v.(type) {
	case string:
		n := utf8.RuneCountInString(x)
		if s.MinLength != nil && n < *s.MinLength {
			probs = append(probs, bad("minLength: got %d characters, want at least %d", n, *s.MinLength)...)
		}
		if s.MaxLength != nil && n > *s.MaxLength {
			probs = append(probs, bad("maxLength: got %d characters, want at most %d", n, *s.MaxLength)...)
		}
		if s.Pattern != "" {
			if re, err := regexp.Compile(s.Pattern); err == nil && !re.MatchString(x) {
				probs = append(probs, bad("%s does not match pattern %s", quote(x), quote(s.Pattern))...)
			}
		}
	case float64:
		if s.Minimum != nil && x < *s.Minimum {
			probs = append(probs, bad("minimum: got %v, want at least %v", x, *s.Minimum)...)
		}
		if s.Maximum != nil && x > *s.Maximum {
			probs = append(probs, bad("maximum: got %v, want at most %v", x, *s.Maximum)...)
		}
	case []any:
		if s.MinItems != nil && len(x) < *s.MinItems {
			probs = append(probs, bad("minItems: got %d, want at least %d", len(x), *s.MinItems)...)
		}
		if s.MaxItems != nil && len(x) > *s.MaxItems {
			probs = append(probs, bad("maxItems: got %d, want at most %d", len(x), *s.MaxItems)...)
		}
		for i, item := range x {
			probs = append(probs, walk(s.Items, item, path+"/"+strconv.Itoa(i))...)
		}
	case map[string]any:
		var missing []string
		for _, name := range s.Required {
			if _, ok := x[name]; !ok {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			probs = append(probs, bad("missing %s %s", plural(len(missing), "property", "properties"), quoteAll(toAny(missing)))...)
		}
		var extra []string
		for _, name := range slices.Sorted(maps.Keys(x)) {
			if sub, ok := s.Properties[name]; ok {
				probs = append(probs, walk(sub, x[name], path+"/"+escape(name))...)
				continue
			}
			if s.AdditionalProperties == nil {
				continue
			}
			if isFalse(s.AdditionalProperties) {
				extra = append(extra, name)
				continue
			}
			probs = append(probs, walk(s.AdditionalProperties, x[name], path+"/"+escape(name))...)
		}
		if len(extra) > 0 {
			probs = append(probs, bad("additional %s %s not allowed; allowed: %s", plural(len(extra), "property", "properties"),
				quoteAll(toAny(extra)), strings.Join(slices.Sorted(maps.Keys(s.Properties)), ", "))...)
		}
	}
	return probs
}

// isFalse reports the schema false (or {"not": {}}), which allows nothing.
func isFalse(s *lib.Schema) bool {
	return s.Not != nil && reflect.ValueOf(*s.Not).IsZero()
}

func typesOf(s *lib.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

// kind names a decoded JSON value's type as JSON Schema does.
func kind(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case int, int64:
		return "integer"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// equal compares decoded JSON values, numbers by value.
func equal(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	return reflect.DeepEqual(a, b)
}

func number(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	}
	return 0, false
}

func quote(v any) string {
	if s, ok := v.(string); ok {
		return "'" + s + "'"
	}
	return fmt.Sprint(v)
}

func quoteAll(vs []any) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = quote(v)
	}
	return strings.Join(s, ", ")
}

func toAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

func orList(s []string) string {
	if len(s) == 1 {
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// escape writes a property name as a JSON pointer token (RFC 6901).
func escape(name string) string {
	return strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1")
}
