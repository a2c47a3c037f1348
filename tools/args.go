package tools

import (
	"context"
	"encoding/base64"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
)

// missing refuses a call that left out a required argument.
func missing(arg, example string) error {
	return refusal.New(fmt.Sprintf("The argument %q is required.", arg), "Pass "+example+".")
}

// property declares an input property of a tool with its JSON schema.
func property(t *mcp.Tool, name string, schema map[string]any) {
	if t.InputSchema.Properties == nil {
		t.InputSchema.Properties = map[string]any{}
	}
	t.InputSchema.Properties[name] = schema
}

// reword changes the first text of a result (a screenshot's comes after
// its image).
func reword(res *mcp.CallToolResult, f func(string) string) *mcp.CallToolResult {
	for i, c := range res.Content {
		if tc, ok := c.(mcp.TextContent); ok {
			tc.Text = f(tc.Text)
			res.Content[i] = tc
			break
		}
	}
	return res
}

// encode is base64 for image content.
func encode(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// checked wraps a tool's handler with a check of its arguments against the
// tool's own input schema, so every surface (tools/call, a flow step, an
// HTTP endpoint) refuses the same mistakes with the same sentence: an
// argument the tool does not take, or one of the wrong JSON type. The
// handler itself then reads only arguments of the types it declared.
func checked(def mcp.Tool, handler server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if err := checkArgs(def, req.Params.Arguments); err != nil {
			return nil, err
		}
		return handler(ctx, req)
	}
}

// checkArgs refuses arguments the tool's schema does not allow.
func checkArgs(def mcp.Tool, raw any) error {
	props := def.InputSchema.Properties
	names := slices.Sorted(maps.Keys(props))
	takes := "it takes no arguments"
	if len(names) > 0 {
		takes = "it takes " + strings.Join(names, ", ")
	}
	var args map[string]any
	switch a := raw.(type) {
	case nil:
	case map[string]any:
		args = a
	default:
		return refusal.New(fmt.Sprintf("The arguments of %s are not a JSON object.", def.Name), "Pass an object of named arguments; "+takes+".")
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		prop, ok := props[name].(map[string]any)
		if !ok {
			return refusal.New(fmt.Sprintf("%s takes no argument %q.", def.Name, name), "Leave it out; "+takes+".")
		}
		if args[name] == nil {
			continue // JSON null is an argument left out
		}
		if want, ok := fits(prop, args[name]); !ok {
			return refusal.New(fmt.Sprintf("The argument %q of %s is %s, not %s.", name, def.Name, jsonKind(args[name]), want), "Pass "+want+".")
		}
	}
	return nil
}

// fits reports whether v has a type the property allows and, when not,
// what it should be, as a phrase.
func fits(prop map[string]any, v any) (string, bool) {
	if anyOf, ok := prop["anyOf"].([]any); ok {
		var wants []string
		for _, alt := range anyOf {
			if m, ok := alt.(map[string]any); ok {
				want, ok := fits(m, v)
				if ok {
					return "", true
				}
				wants = append(wants, want)
			}
		}
		return strings.Join(wants, " or "), false
	}
	switch typ, _ := prop["type"].(string); typ {
	case "string":
		_, ok := v.(string)
		return "a string", ok
	case "boolean":
		_, ok := v.(bool)
		return "true or false", ok
	case "number":
		_, ok := v.(float64)
		return "a number", ok || isNumeric(v)
	case "integer":
		f, ok := v.(float64)
		return "a whole number", (ok && f == math.Trunc(f)) || isNumeric(v)
	case "object":
		_, ok := v.(map[string]any)
		return "a JSON object", ok
	case "array":
		_, ok := v.([]any)
		return "a JSON array", ok
	}
	return "", true
}

// isNumeric accepts a number written as a string, the form a flow's
// {{parameter}} inside a longer string takes.
func isNumeric(v any) bool {
	s, ok := v.(string)
	if !ok {
		return false
	}
	_, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	return err == nil
}

// jsonKind names a decoded JSON value's type for a refusal.
func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("a %T", v)
}
