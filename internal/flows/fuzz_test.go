package flows

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// fuzzDocs are flow documents near the edges of what save_flow accepts.
var fuzzDocs = []string{
	login,
	`{"name":"x","steps":[{"tool":"outline"}]}`,
	`{"name":"a.b-c_9","shared":true,"description":"\u2028\u0085\u00a0","steps":[{"tool":"navigate","args":{"url":"{{ u }}"},"id":"go","onError":"continue"}],"parameters":[{"name":"u","default":"about:blank"}]}`,
	`{"name":"t","parameters":[{"name":"n","type":"number","default":1.5},{"name":"b","type":"boolean","default":false},{"name":"s","type":"secret","required":true},{"name":"w","type":"string","default":""}],"steps":[{"tool":"write","args":{"locator":{"label":"{{w}}"},"secret":"{{s}}","x":[1,"{{n}}",{"y":"{{b}}"}]}}]}`,
	`{"name":"dup","name":"x","steps":[{"tool":"outline"}]}`,
	`{"name":"x","steps":[{"tool":"outline","args":{"a":1e400}}]}`,
	`{"name":"x","steps":[{"tool":"outline","args":{"\u0000":"{{_}}"}}],"parameters":[{"name":"_"}]}`,
	`{"name":"x","Name":"../y","steps":[{"tool":"outline"}]}`,
	` {"steps":[{"tool":"click","args":{}}],"name":"0"} `,
	`{"name":"typed","timeLimit":0.5,"parameters":[{"name":"q","type":"integer","default":3},{"name":"e","type":"enum","values":["a","b"],"default":"b"}],"steps":[{"tool":"read_text","return":true,"id":"r"},{"tool":"write","args":{"text":"{{q}}{{e}}"},"return":"w"}]}`,
}

// FuzzParse reads any document as save_flow does: nothing panics, a
// refusal is an InvalidError, and a document accepted once is accepted
// again, as the same flow, after JSON re-encoding — as Save stores it and
// as the caller's own JSON library would send it back. An accepted name
// is one the store can use as a file name.
func FuzzParse(f *testing.F) {
	for _, d := range fuzzDocs {
		f.Add(d)
	}
	s := fuzzStore(f)
	f.Fuzz(func(t *testing.T, doc string) {
		fl, err := s.Parse([]byte(doc))
		if err != nil {
			if _, ok := err.(*InvalidError); !ok {
				t.Fatalf("Parse(%q) refuses with a %T, not an *InvalidError: %v", doc, err, err)
			}
			return
		}
		// The type check save_flow makes next reads any accepted flow.
		if err := CheckTypes(fl, func(tool, arg string) string {
			return map[string]string{"timeout": "number", "text": "string", "append": "boolean"}[arg]
		}); err != nil {
			if _, ok := err.(*InvalidError); !ok {
				t.Fatalf("CheckTypes(%q) refuses with a %T, not an *InvalidError: %v", doc, err, err)
			}
		}
		if !validName(fl.Name) {
			t.Fatalf("Parse(%q) accepts the name %q, which the store cannot keep", doc, fl.Name)
		}
		stored, err := json.MarshalIndent(fl, "", "  ")
		if err != nil {
			t.Fatalf("the flow Parse(%q) accepted does not encode: %v", doc, err)
		}
		again, err := s.Parse(stored)
		if err != nil {
			t.Fatalf("Parse(%q) accepts, but refuses its stored form %s: %v", doc, stored, err)
		}
		// Compared as stored: an empty args object and none are the same.
		if restored, _ := json.MarshalIndent(again, "", "  "); !bytes.Equal(restored, stored) {
			t.Fatalf("Parse(%q) stores as %s, but that parses to a flow stored as %s", doc, stored, restored)
		}
		var compact bytes.Buffer
		if err := json.Compact(&compact, []byte(doc)); err != nil {
			t.Fatalf("Parse accepts %q, which encoding/json cannot read: %v", doc, err)
		}
		if _, err := s.Parse(compact.Bytes()); err != nil {
			t.Fatalf("Parse(%q) accepts, but refuses its compact form %s: %v", doc, compact.Bytes(), err)
		}
	})
}

// FuzzBind binds a value to a parameter of any type, default and
// requiredness that save_flow accepts, as run_flow does: nothing panics,
// only declared parameters are bound, each to a value of its declared
// type (a number JSON can carry, a bool, a string, or for secret the name
// of one of the runner's secrets), and a secret is bound only when the
// runner passed it: a flow's own default never picks which of the
// runner's secrets it types. The default and the value passed are JSON
// texts; an empty one is left out.
func FuzzBind(f *testing.F) {
	for kind := range paramTypes {
		for _, v := range []struct{ def, given string }{
			{"", ""}, {"", `"x"`}, {"", `"2.5"`}, {"", `"TRUE"`}, {"", `"pw/key"`}, {"", `7`}, {"", `false`},
			{"", `"bad ref"`}, {"", `"0x1p-2"`}, {"", `null`}, {"", `[1]`}, {"", `{"a":1}`}, {`""`, `"a.b-c_9"`},
			{`1.5`, `"1e3"`}, {`true`, `"t"`}, {`"x"`, `3`},
		} {
			f.Add(uint8(kind), v.def, kind%2 == 0, v.given)
		}
	}
	s := fuzzStore(f)
	f.Fuzz(func(t *testing.T, kind uint8, def string, required bool, given string) {
		p := map[string]any{"name": "p"}
		if typ := paramTypes[int(kind)%len(paramTypes)]; typ != "" {
			p["type"] = typ
		}
		if required {
			p["required"] = true
		}
		if def != "" {
			var d any
			if json.Unmarshal([]byte(def), &d) != nil {
				return
			}
			p["default"] = d
		}
		doc, err := json.Marshal(map[string]any{
			"name": "f", "shared": true, "parameters": []any{p},
			"steps": []any{map[string]any{"tool": "write", "args": map[string]any{"locator": map[string]any{"css": "#p"}, "text": "{{p}}"}}},
		})
		if err != nil {
			return
		}
		fl, err := s.Parse(doc)
		if err != nil {
			return
		}
		params := map[string]any{}
		if given != "" {
			var g any
			if json.Unmarshal([]byte(given), &g) != nil {
				return
			}
			params["p"] = g
		}
		vals, err := Bind(fl, params)
		if err != nil {
			return
		}
		for name, v := range vals {
			if name != "p" {
				t.Fatalf("Bind(%s, %v) binds %q, which the flow does not declare", doc, params, name)
			}
			if why := wrongType(fl.Parameters[0], v); why != "" {
				t.Fatalf("Bind(%s, %v) binds p to %#v: %s", doc, params, v, why)
			}
			if _, passed := params[name]; fl.Parameters[0].Type == "secret" && !passed {
				t.Fatalf("Bind(%s, %v) binds the secret parameter p to %#v, which the runner did not pass", doc, params, v)
			}
		}
	})
}

// paramTypes are the parameter types of flow://schema; "" is none given.
var paramTypes = []string{"", "string", "number", "boolean", "secret"}

// wrongType says what is wrong with v as a value of p's type, or "".
func wrongType(p Param, v any) string {
	switch p.Type {
	case "number":
		switch x := v.(type) {
		case float64:
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return "not a number JSON can carry"
			}
		case int:
		default:
			return "not a number"
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return "not a boolean"
		}
	case "secret":
		if x, ok := v.(string); !ok || !secretRefRE.MatchString(x) {
			return "not the name of a secret"
		}
	default:
		if _, ok := v.(string); !ok {
			return "not a string"
		}
	}
	return ""
}

// fuzzStore is a store over the repository's flow schema.
func fuzzStore(f *testing.F) *Store {
	s, err := Open(f.TempDir(), schema(f))
	if err != nil {
		f.Fatal(err)
	}
	return s
}

// draftTools are the tools a recorded call can be of.
var draftTools = []string{"open_session", "navigate", "outline", "click", "write", "press_key", "select", "wait_for", "assert", "screenshot", "read_text", "hover", "scroll"}

// FuzzDraft drafts any recorded calls (draft_flow's input is what callers
// passed the page tools): nothing panics, and a draft within the schema's
// limits is a document save_flow accepts, types included.
func FuzzDraft(f *testing.F) {
	f.Add([]byte{1, 4, 4, 9}, `{"url":"http://127.0.0.1:8000/a","locator":{"label":"Email"},"text":"42","option":"x"}`, "http://127.0.0.1:8000/a", "http://127.0.0.1:8000/b")
	f.Add([]byte{4, 4, 6, 8}, `{"locator":{"css":"#id_name"},"text":"{{x}}"}`, "", "")
	f.Add([]byte{1, 10, 10}, `{"url":"https://example.com/","text":"Name"}`, "https://example.com/", "https://example.com/")
	s := fuzzStore(f)
	f.Fuzz(func(t *testing.T, picks []byte, args, before, after string) {
		var a map[string]any
		if json.Unmarshal([]byte(args), &a) != nil {
			return
		}
		if len(picks) > 300 {
			picks = picks[:300]
		}
		calls := make([]Recorded, len(picks))
		for i, p := range picks {
			calls[i] = Recorded{Tool: draftTools[int(p)%len(draftTools)], Args: a, URLBefore: before, URLAfter: after}
			if p%3 == 0 {
				calls[i].URLBefore, calls[i].URLAfter = after, before
			}
		}
		fl, _ := Draft("drafted", calls)
		if len(fl.Steps) == 0 || len(fl.Steps) > maxSteps {
			return
		}
		doc, err := json.Marshal(fl)
		if err != nil {
			t.Fatalf("the draft does not encode: %v", err)
		}
		parsed, err := s.Parse(doc)
		if err != nil {
			if strings.Contains(err.Error(), "is not a declared parameter") && strings.Contains(args, "{{") {
				return // the page held a placeholder's braces as text
			}
			t.Fatalf("save_flow would refuse the draft %s: %v", doc, err)
		}
		if err := CheckTypes(parsed, func(tool, arg string) string {
			return map[string]string{"text": "string", "option": "string", "url": "string", "timeout": "number"}[arg]
		}); err != nil {
			t.Fatalf("save_flow's type check refuses the draft %s: %v", doc, err)
		}
	})
}
