package flows

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// toolTypes are the argument types of the few tools these tests use, as
// the tools package derives them from input schemas.
func toolTypes(tool, arg string) string {
	return map[string]map[string]string{
		"write":     {"text": "string", "secret": "string", "append": "boolean"},
		"wait_for":  {"text": "string", "timeout": "number"},
		"read_text": {"max": "number"},
		"scroll":    {"steps": "integer"},
	}[tool][arg]
}

func TestBindTypes(t *testing.T) {
	f := Flow{Name: "order", Parameters: []Param{
		{Name: "qty", Type: TypeInteger, Required: true},
		{Name: "price", Type: TypeNumber, Default: 9.5},
		{Name: "gift", Type: TypeBoolean, Default: false},
		{Name: "size", Type: TypeEnum, Values: []string{"S", "M", "L"}, Default: "M"},
		{Name: "pw", Type: TypeSecret},
		{Name: "note"},
	}}
	for _, tc := range []struct {
		name   string
		given  map[string]any
		want   map[string]any
		refuse []string
	}{
		{name: "defaults", given: map[string]any{"qty": 2.0}, want: map[string]any{"qty": 2.0, "price": 9.5, "gift": false, "size": "M"}},
		{name: "strings coerced", given: map[string]any{"qty": "3", "price": "1.25", "gift": "true", "size": "L", "note": 7.0, "pw": "shop/password"},
			want: map[string]any{"qty": 3.0, "price": 1.25, "gift": true, "size": "L", "note": "7", "pw": "shop/password"}},
		{name: "fraction for integer", given: map[string]any{"qty": 2.5}, refuse: []string{`"qty" must be a whole number, e.g. 42 (got 2.5)`}},
		{name: "text for integer", given: map[string]any{"qty": "two"}, refuse: []string{`"qty" must be a number, e.g. 42 (got "two")`}},
		{name: "enum outside", given: map[string]any{"qty": 1.0, "size": "XL"}, refuse: []string{`"size" must be one of "S", "M", "L" (got "XL")`}},
		{name: "missing", given: map[string]any{}, refuse: []string{`"qty" is required`, "qty (integer, required)", `size (enum of "S", "M", "L", default M)`, "before any step ran"}},
		{name: "object for string", given: map[string]any{"qty": 1.0, "note": map[string]any{}}, refuse: []string{`"note" must be a string (got an object)`}},
		{name: "bad secret name", given: map[string]any{"qty": 1.0, "pw": "a b"}, refuse: []string{`"pw" must name one of your secrets`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Bind(f, tc.given)
			if tc.refuse != nil {
				for _, r := range tc.refuse {
					assert.Check(t, is.ErrorContains(err, r))
				}
				return
			}
			assert.NilError(t, err)
			assert.Check(t, is.DeepEqual(got, tc.want))
		})
	}
}

func TestCheckTypes(t *testing.T) {
	s := open(t)
	for _, tc := range []struct {
		name   string
		doc    string
		refuse []string
	}{
		{name: "number into text is typed", doc: `{"name":"a","parameters":[{"name":"n","type":"number"}],"steps":[{"tool":"write","args":{"locator":{"label":"Qty"},"text":"{{n}}"}}]}`},
		{name: "string into number", doc: `{"name":"a","parameters":[{"name":"w"}],"steps":[{"tool":"wait_for","args":{"text":"x","timeout":"{{w}}"}}]}`,
			refuse: []string{`at /steps/0/args/timeout: wait_for's timeout takes a number, and {{w}} is a string parameter: declare it "type": "number"`}},
		{name: "number into integer", doc: `{"name":"a","parameters":[{"name":"n","type":"number"}],"steps":[{"tool":"scroll","args":{"steps":"{{n}}"}}]}`,
			refuse: []string{`declare it "type": "integer"`}},
		{name: "string into boolean", doc: `{"name":"a","parameters":[{"name":"b"}],"steps":[{"tool":"write","args":{"locator":{"label":"Q"},"text":"x","append":"{{b}}"}}]}`,
			refuse: []string{`at /steps/0/args/append: write's append takes true or false`}},
		{name: "secret into text", doc: `{"name":"a","parameters":[{"name":"pw","type":"secret"}],"steps":[{"tool":"write","args":{"locator":{"label":"Q"},"text":"{{pw}}"}}]}`,
			refuse: []string{`at /steps/0/args/text: {{pw}} is a secret parameter`}},
		{name: "secret inside a locator", doc: `{"name":"a","parameters":[{"name":"pw","type":"secret"}],"steps":[{"tool":"click","args":{"locator":{"text":"hi {{pw}}"}}}]}`,
			refuse: []string{`at /steps/0/args/locator/text: {{pw}} is a secret parameter`}},
		{name: "secret into secret", doc: `{"name":"a","parameters":[{"name":"pw","type":"secret"}],"steps":[{"tool":"write","args":{"locator":{"label":"Q"},"secret":"{{pw}}"}}]}`},
		{name: "integer inside a longer string", doc: `{"name":"a","parameters":[{"name":"p","type":"integer"}],"steps":[{"tool":"navigate","args":{"url":"http://127.0.0.1/?p={{p}}"}}]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := s.Parse([]byte(tc.doc))
			assert.NilError(t, err)
			err = CheckTypes(f, toolTypes)
			if tc.refuse == nil {
				assert.NilError(t, err)
				return
			}
			var ie *InvalidError
			assert.Assert(t, errors.As(err, &ie), "%v", err)
			for _, r := range tc.refuse {
				assert.Check(t, is.ErrorContains(err, r))
			}
		})
	}
}

func TestParseParamDeclarations(t *testing.T) {
	s := open(t)
	for _, tc := range []struct{ doc, refuse string }{
		{`{"name":"a","parameters":[{"name":"s","type":"enum"}],"steps":[{"tool":"outline"}]}`, "at /parameters/0/values: an enum parameter lists its values"},
		{`{"name":"a","parameters":[{"name":"s","values":["x"]}],"steps":[{"tool":"outline"}]}`, "only a parameter of type enum takes values"},
		{`{"name":"a","parameters":[{"name":"s","type":"enum","values":["x"],"default":"y"}],"steps":[{"tool":"outline"}]}`, `at /parameters/0/default: the default does not fit: "s" must be one of "x"`},
		{`{"name":"a","parameters":[{"name":"n","type":"integer","default":1.5}],"steps":[{"tool":"outline"}]}`, "must be a whole number"},
		{`{"name":"a","steps":[{"tool":"outline","return":"v"},{"tool":"outline","return":"v"}]}`, `at /steps/1/return: another step returns its value as "v"`},
		{`{"name":"a","steps":[{"tool":"outline","return":"not a key"}]}`, "at /steps/0/return"},
	} {
		_, err := s.Parse([]byte(tc.doc))
		assert.Check(t, is.ErrorContains(err, tc.refuse), tc.doc)
	}
}

func TestSubstituteTyped(t *testing.T) {
	args := SubstituteTyped("write", map[string]any{"text": "{{n}}", "append": "{{b}}"}, map[string]any{"n": 1234567.5, "b": true}, toolTypes)
	assert.Check(t, is.DeepEqual(args, map[string]any{"text": "1234567.5", "append": true}))
	args = SubstituteTyped("wait_for", map[string]any{"timeout": "{{n}}"}, map[string]any{"n": 3.0}, toolTypes)
	assert.Check(t, is.DeepEqual(args, map[string]any{"timeout": 3.0}))
}

// TestRunValuesAndTimeLimit: returned values land in the report by key;
// the time limit stops a step that waits, through its context, and the
// report says which step and how to give it longer; a failed step's
// report carries what the inspector saw.
func TestRunValuesAndTimeLimit(t *testing.T) {
	s := open(t)
	f, err := s.Parse([]byte(`{"name":"v","steps":[
		{"tool":"read_text","id":"total","return":true},
		{"tool":"navigate","args":{"url":"http://127.0.0.1/"},"return":"where"},
		{"tool":"wait_for","args":{"text":"never"}},
		{"tool":"outline"}]}`))
	assert.NilError(t, err)
	call := func(ctx context.Context, tool string, _ map[string]any) (Outcome, error) {
		switch tool {
		case "read_text":
			assert.Check(t, ReturnWanted(ctx))
			return Outcome{OK: true, Text: "42", Value: "42"}, nil
		case "navigate":
			return Outcome{OK: true, Value: "http://127.0.0.1/"}, nil
		case "wait_for":
			assert.Check(t, !ReturnWanted(ctx))
			<-ctx.Done() // a wait that would outlast the run
			return Outcome{OK: false, Text: ctx.Err().Error()}, nil
		}
		t.Errorf("%s ran after the time limit", tool)
		return Outcome{OK: true}, nil
	}
	inspect := func(context.Context, string, map[string]any) *PageState {
		return &PageState{URL: "http://127.0.0.1/", Similar: []Control{{Role: "button", Name: "Go", Locator: `button:"Go"`}}}
	}
	// A wait the limit did not stop would hold the test to its deadline.
	rep, err := Run(context.Background(), f, nil, call, nil, WithTimeLimit(200*time.Millisecond), WithInspector(inspect))
	assert.NilError(t, err)
	assert.Check(t, !rep.OK)
	assert.Check(t, is.DeepEqual(rep.Values, map[string]any{"total": "42", "where": "http://127.0.0.1/"}))
	assert.Check(t, is.Equal(rep.TimeLimit, 0.2))
	assert.Check(t, is.Contains(rep.Failed, "step 3 (wait_for) failed: the run reached its time limit of 0.2 s"))
	assert.Check(t, is.Contains(rep.Failed, "time_limit"))
	assert.Check(t, is.Equal(rep.Steps[3].Status, "skipped"))
	assert.Assert(t, rep.Steps[2].Page != nil)
	assert.Check(t, is.Equal(rep.Steps[2].Page.Similar[0].Locator, `button:"Go"`))
	b, err := json.Marshal(rep)
	assert.NilError(t, err)
	assert.Check(t, strings.Contains(string(b), `"values":{"total":"42","where":"http://127.0.0.1/"}`), string(b))
}
