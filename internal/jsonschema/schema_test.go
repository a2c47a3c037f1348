package jsonschema_test

import (
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/jsonschema"
)

func flowSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	doc, err := os.ReadFile("../../resources/schemas/flow.schema.json")
	assert.NilError(t, err)
	s, err := jsonschema.New(doc)
	assert.NilError(t, err)
	assert.NilError(t, s.Check())
	return s
}

func decode(t testing.TB, doc string) any {
	t.Helper()
	var v any
	assert.NilError(t, json.Unmarshal([]byte(doc), &v))
	return v
}

// TestValidate: each problem is reported at the JSON path of the value at
// fault, saying what would be valid; a fitting document passes.
func TestValidate(t *testing.T) {
	s := flowSchema(t)
	cases := []struct {
		name string
		doc  string
		want []string // each a problem's text; none: valid
	}{
		{"valid", `{"name":"x","steps":[{"tool":"outline","args":{"a":1}}]}`, nil},
		{"not an object", `[]`, []string{"at /: want object, got array"}},
		{"missing", `{"name":"x"}`, []string{"at /: missing property 'steps'"}},
		{"extra", `{"name":"x","steps":[{"tool":"outline"}],"colour":"red"}`,
			[]string{"at /: additional property 'colour' not allowed; allowed: description, name, parameters, shared, steps"}},
		{"enum", `{"name":"x","steps":[{"tool":"tap"}]}`, []string{"at /steps/0/tool: value must be one of 'navigate', 'outline'"}},
		{"minItems", `{"name":"x","steps":[]}`, []string{"at /steps: minItems: got 0, want at least 1"}},
		{"pattern", `{"name":"Has Space","steps":[{"tool":"outline"}]}`, []string{"at /name: 'Has Space' does not match pattern '^[a-z0-9]"}},
		{"type list", `{"name":"x","parameters":[{"name":"a","default":[]}],"steps":[{"tool":"outline"}]}`,
			[]string{"at /parameters/0/default: want string, number or boolean, got array"}},
		{"maxLength", `{"name":"x","description":"` + strings.Repeat("d", 1001) + `","steps":[{"tool":"outline"}]}`,
			[]string{"at /description: maxLength: got 1001 characters, want at most 1000"}},
		{"every problem", `{"name":"x","steps":[{"tool":"tap"},{"tool":"outline","onError":"ignore"}]}`,
			[]string{"at /steps/0/tool: ", "at /steps/1/onError: value must be one of 'stop', 'continue'"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := s.Validate(decode(t, tc.doc))
			if tc.want == nil {
				assert.NilError(t, err)
				return
			}
			var inv *jsonschema.InvalidError
			assert.Assert(t, errors.As(err, &inv), "%v", err)
			assert.Check(t, is.Len(inv.Problems, len(tc.want)))
			for _, w := range tc.want {
				assert.Check(t, is.Contains(err.Error(), w))
			}
		})
	}
}

// TestBrokenSchema: a document that is not JSON is refused at New; one
// that is not a valid schema at its first use, not before.
func TestBrokenSchema(t *testing.T) {
	_, err := jsonschema.New([]byte(`{`))
	assert.ErrorContains(t, err, "not JSON")
	s, err := jsonschema.New([]byte(`[]`))
	assert.NilError(t, err)
	assert.ErrorContains(t, s.Check(), "not a JSON Schema object")
	s, err = jsonschema.New([]byte(`{"type":"object","properties":{"a":{"pattern":"("}}}`))
	assert.NilError(t, err)
	assert.ErrorContains(t, s.Check(), "does not compile")
	assert.ErrorContains(t, s.Validate(map[string]any{}), "does not compile")
}

// BenchmarkValidate measures checking a flow document, the compile done
// once before.
func BenchmarkValidate(b *testing.B) {
	s := flowSchema(b)
	v := decode(b, `{"name":"x","parameters":[{"name":"a","default":"b"}],"steps":[{"tool":"navigate","args":{"url":"{{a}}"}},{"tool":"outline"}]}`)
	for b.Loop() {
		if err := s.Validate(v); err != nil {
			b.Fatal(err)
		}
	}
}
