package flows

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Parameter typing, apart from the schema library: the schema says which
// type names exist; this file says what a value of each type is, how a
// value passed to run_flow becomes one, and how a typed value fits the
// argument a step puts it in. It is used at save_flow (CheckTypes) and at
// run_flow before any step runs (Bind), so a wrong parameter is refused
// before anything acts on the page.

// The parameter types a flow declares.
const (
	TypeString  = "string"
	TypeNumber  = "number"
	TypeInteger = "integer"
	TypeBoolean = "boolean"
	TypeEnum    = "enum"
	TypeSecret  = "secret"
)

// typeOf is a parameter's type, string when it declares none.
func typeOf(p Param) string {
	if p.Type == "" {
		return TypeString
	}
	return p.Type
}

// ArgTypes names the JSON type a page tool's argument takes ("string",
// "number", "integer", "boolean", "object", "array"), or "" when the tool
// has no such argument or takes several types. The tools package gives it
// from each tool's input schema.
type ArgTypes func(tool, arg string) string

// convert turns a value passed for p into the parameter's type, or says
// what would be valid.
func convert(p Param, v any) (any, error) {
	switch typeOf(p) {
	case TypeNumber, TypeInteger:
		n, ok := number(v)
		if !ok {
			return nil, fmt.Errorf("%q must be a number, e.g. 42 (got %s)", p.Name, describe(v))
		}
		if typeOf(p) == TypeInteger && n != math.Trunc(n) {
			return nil, fmt.Errorf("%q must be a whole number, e.g. 42 (got %s)", p.Name, describe(v))
		}
		return n, nil
	case TypeBoolean:
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			if b, err := strconv.ParseBool(x); err == nil {
				return b, nil
			}
		}
		return nil, fmt.Errorf("%q must be true or false (got %s)", p.Name, describe(v))
	case TypeEnum:
		s, ok := text(v)
		if ok && slices.Contains(p.Values, s) {
			return s, nil
		}
		return nil, fmt.Errorf("%q must be one of %s (got %s)", p.Name, quoteAll(p.Values), describe(v))
	case TypeSecret:
		if x, ok := v.(string); ok && secretRefRE.MatchString(x) {
			return x, nil
		}
		return nil, fmt.Errorf("%q must name one of your secrets, as name or name/key (secret://secrets lists them)", p.Name)
	default:
		if s, ok := text(v); ok {
			return s, nil
		}
		return nil, fmt.Errorf("%q must be a string (got %s)", p.Name, describe(v))
	}
}

// number reads a JSON number, or a numeric string as a form or a URL query
// gives one. Inf and NaN parse, but no JSON carries them.
func number(v any) (float64, bool) {
	var n float64
	switch x := v.(type) {
	case float64:
		n = x
	case int:
		n = float64(x)
	case int64:
		n = float64(x)
	case string:
		f, err := strconv.ParseFloat(strings.TrimSpace(x), 64)
		if err != nil {
			return 0, false
		}
		n = f
	default:
		return 0, false
	}
	return n, !math.IsInf(n, 0) && !math.IsNaN(n)
}

// text is a value as the text a field is typed with: numbers in decimal,
// without exponent or trailing zeros.
func text(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), true
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "nothing"
	case string:
		return strconv.Quote(x)
	case bool, float64, int, int64:
		s, _ := text(x)
		return s
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("a %T", v)
}

func quoteAll(vals []string) string {
	q := make([]string, len(vals))
	for i, v := range vals {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// checkParams is Parse's check of the declarations: an enum lists its
// values, only an enum does, and a default fits its type.
func checkParams(f Flow) []string {
	var probs []string
	for i, p := range f.Parameters {
		t := typeOf(p)
		switch {
		case t == TypeEnum && len(p.Values) == 0:
			probs = append(probs, fmt.Sprintf(`at /parameters/%d/values: an enum parameter lists its values, e.g. "values": ["small", "large"]`, i))
		case t != TypeEnum && len(p.Values) > 0:
			probs = append(probs, fmt.Sprintf(`at /parameters/%d/values: only a parameter of type enum takes values; declare "type": "enum" or drop values`, i))
		}
		if p.Default == nil {
			continue
		}
		if t == TypeSecret {
			// A default would choose the runner's secret for them.
			probs = append(probs, fmt.Sprintf("at /parameters/%d/default: a parameter of type secret takes no default; whoever runs the flow passes one of their own secret names", i))
		} else if t == TypeEnum && len(p.Values) == 0 {
			continue // its missing values are reported above
		} else if _, err := convert(p, p.Default); err != nil {
			probs = append(probs, fmt.Sprintf("at /parameters/%d/default: the default does not fit: %v", i, err))
		}
	}
	return probs
}

// CheckTypes checks, at save_flow, that every parameter fits each argument
// it is used in whole ({"timeout": "{{wait}}"}), with the JSON path of
// each misfit: a number or boolean into a text argument is typed as its
// text (see Substitute), but text into a number or boolean argument would
// fail at run time, after the steps before it had acted; a secret
// parameter goes only into a write step's secret argument, where its name
// is looked up, never typed.
func CheckTypes(f Flow, types ArgTypes) error {
	params := map[string]Param{}
	for _, p := range f.Parameters {
		params[p.Name] = p
	}
	var probs []string
	for i, st := range f.Steps {
		for _, arg := range slices.Sorted(maps.Keys(st.Args)) {
			walkPlaceholders(st.Args[arg], fmt.Sprintf("/steps/%d/args/%s", i, arg), func(path, name string, whole bool) {
				p, ok := params[name]
				if !ok {
					return // Parse names undeclared ones
				}
				if msg := misfit(st.Tool, arg, path == fmt.Sprintf("/steps/%d/args/%s", i, arg), p, whole, types); msg != "" {
					probs = append(probs, "at "+path+": "+msg)
				}
			})
		}
	}
	if len(probs) > 0 {
		return &InvalidError{Problems: probs}
	}
	return nil
}

// misfit says why parameter p does not fit where it is used, or "".
// top is true when it is the argument itself, not inside an object.
func misfit(tool, arg string, top bool, p Param, whole bool, types ArgTypes) string {
	t := typeOf(p)
	secretArg := top && tool == "write" && arg == "secret"
	if t == TypeSecret {
		if secretArg && whole {
			return ""
		}
		return fmt.Sprintf(`{{%s}} is a secret parameter: it names a secret, and goes only whole into a write step's secret argument ({"secret": "{{%s}}"}), never into text`, p.Name, p.Name)
	}
	if !whole || !top || types == nil {
		return "" // inside a longer string or a locator object: typed as text
	}
	want := types(tool, arg)
	switch want {
	case "number", "integer":
		if t != TypeNumber && t != TypeInteger {
			return fmt.Sprintf(`%s's %s takes a number, and {{%s}} is a %s parameter: declare it "type": "number"`, tool, arg, p.Name, t)
		}
		if want == "integer" && t == TypeNumber {
			return fmt.Sprintf(`%s's %s takes a whole number, and {{%s}} is a number parameter: declare it "type": "integer"`, tool, arg, p.Name)
		}
	case "boolean":
		if t != TypeBoolean {
			return fmt.Sprintf(`%s's %s takes true or false, and {{%s}} is a %s parameter: declare it "type": "boolean"`, tool, arg, p.Name, t)
		}
	}
	return ""
}

// walkPlaceholders calls f for each {{name}} inside v, with its JSON path
// and whether the string is that placeholder alone.
func walkPlaceholders(v any, path string, f func(path, name string, whole bool)) {
	switch x := v.(type) {
	case string:
		for _, m := range placeholder.FindAllStringSubmatch(x, -1) {
			f(path, m[1], m[0] == x)
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			walkPlaceholders(x[k], path+"/"+k, f)
		}
	case []any:
		for i, e := range x {
			walkPlaceholders(e, fmt.Sprintf("%s/%d", path, i), f)
		}
	}
}

// SubstituteTyped is Substitute, then each top-level argument that is one
// whole placeholder and that the tool takes as text gets its value as
// text: a number parameter typed into a field is typed as "42", not
// refused by write as "not text".
func SubstituteTyped(tool string, args map[string]any, vals map[string]any, types ArgTypes) map[string]any {
	out := Substitute(args, vals)
	if types == nil {
		return out
	}
	for k, v := range out {
		if _, isString := v.(string); isString || types(tool, k) != "string" {
			continue
		}
		if s, ok := text(v); ok {
			out[k] = s
		}
	}
	return out
}
