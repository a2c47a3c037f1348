package tools

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestCheckArgs(t *testing.T) {
	def := mcp.NewTool("demo",
		mcp.WithString("url"),
		mcp.WithBoolean("back"),
		mcp.WithNumber("timeout"),
		mcp.WithObject("params"),
		locatorArg("locator", false, "an element"),
	)
	def.InputSchema.Properties["count"] = map[string]any{"type": "integer"}
	cases := []struct {
		name  string
		args  any
		wants []string // empty: accepted
	}{
		{"no arguments", nil, nil},
		{"every type right", map[string]any{"url": "https://a.example", "back": true, "timeout": 2.5, "count": 3.0, "params": map[string]any{}, "locator": map[string]any{"css": "#a"}}, nil},
		{"a locator as text", map[string]any{"locator": `label:"Email"`}, nil},
		{"null is left out", map[string]any{"url": nil}, nil},
		{"a number in a string", map[string]any{"timeout": "10", "count": "4"}, nil},
		{"unknown argument", map[string]any{"urll": "x"}, []string{`demo takes no argument "urll"`, "it takes back, count, locator, params, timeout, url"}},
		{"number for a string", map[string]any{"url": 123.0}, []string{`"url" of demo is a number, not a string`, "Pass a string"}},
		{"string for a boolean", map[string]any{"back": "yes"}, []string{"is a string, not true or false"}},
		{"fraction for an integer", map[string]any{"count": 1.5}, []string{"not a whole number"}},
		{"word for a number", map[string]any{"timeout": "soon"}, []string{"not a number"}},
		{"array for a locator", map[string]any{"locator": []any{"#a"}}, []string{"is an array, not a JSON object or a string"}},
		{"arguments not an object", []any{1.0}, []string{"not a JSON object", "it takes back"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := checkArgs(def, tc.args)
			if len(tc.wants) == 0 {
				assert.NilError(t, err)
				return
			}
			assert.Assert(t, err != nil)
			for _, w := range tc.wants {
				assert.Check(t, is.Contains(err.Error(), w))
			}
		})
	}
}
