package flows

import (
	"context"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Outcome is what one step's tool call answered.
type Outcome struct {
	// OK is false when the tool refused or failed.
	OK bool
	// Text is the tool's text answer (its refusal when not OK).
	Text string
}

// Caller runs one page tool with its arguments, through the same handler a
// client's tools/call reaches.
type Caller func(ctx context.Context, tool string, args map[string]any) (Outcome, error)

// Progress is told after each step: steps done, steps in all, and a line.
type Progress func(done, total int, message string)

// StepReport is one line of a run's report.
type StepReport struct {
	Step   int    `json:"step"`
	ID     string `json:"id,omitempty"`
	Tool   string `json:"tool"`
	Status string `json:"status"` // ok, failed, failed-continued, skipped
	Result string `json:"result,omitempty"`
	Millis int64  `json:"ms"`
}

// Report is the outcome of a run.
type Report struct {
	Flow   string       `json:"flow"`
	OK     bool         `json:"ok"`
	Steps  []StepReport `json:"steps"`
	Failed string       `json:"failed,omitempty"` // the sentence naming the failed step
	// Continued counts failed steps marked onError: continue.
	Continued int   `json:"continued,omitempty"`
	Millis    int64 `json:"ms"`
}

// Bind resolves run_flow's params against the flow's parameters: unknown
// names and missing required ones are refused, defaults fill the rest,
// and values are checked against their type.
func Bind(f Flow, given map[string]any) (map[string]any, error) {
	vals := map[string]any{}
	var probs []string
	declared := map[string]Param{}
	for _, p := range f.Parameters {
		declared[p.Name] = p
	}
	for name := range given {
		if _, ok := declared[name]; !ok {
			probs = append(probs, fmt.Sprintf("%q is not a parameter of %s", name, f.Name))
		}
	}
	for _, p := range f.Parameters {
		v, ok := given[p.Name]
		if !ok {
			// A secret parameter is the runner's to pass, never a default
			// (Parse refuses one; a document saved before that rule
			// existed does not get it used either).
			if p.Default != nil && p.Type != "secret" {
				v, ok = p.Default, true
			} else {
				if p.Required {
					probs = append(probs, fmt.Sprintf("%q is required", p.Name))
				}
				continue
			}
		}
		cv, err := convert(p, v)
		if err != nil {
			probs = append(probs, err.Error())
			continue
		}
		vals[p.Name] = cv
	}
	if len(probs) > 0 {
		return nil, fmt.Errorf("run_flow %s: %s. Its parameters are %s", f.Name, strings.Join(probs, "; "), describeParams(f))
	}
	return vals, nil
}

func describeParams(f Flow) string {
	if len(f.Parameters) == 0 {
		return "none: call it with params {}"
	}
	var parts []string
	for _, p := range f.Parameters {
		t := p.Type
		if t == "" {
			t = "string"
		}
		s := p.Name + " (" + t
		if p.Required {
			s += ", required"
		} else if p.Default != nil {
			s += fmt.Sprintf(", default %v", p.Default)
		}
		parts = append(parts, s+")")
	}
	return strings.Join(parts, ", ")
}

func convert(p Param, v any) (any, error) {
	switch p.Type {
	case "number":
		switch x := v.(type) {
		case float64, int:
			return x, nil
		case string:
			// Inf and NaN parse, but no JSON carries them.
			if n, err := strconv.ParseFloat(x, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
				return n, nil
			}
		}
		return nil, fmt.Errorf("%q must be a number", p.Name)
	case "boolean":
		switch x := v.(type) {
		case bool:
			return x, nil
		case string:
			if b, err := strconv.ParseBool(x); err == nil {
				return b, nil
			}
		}
		return nil, fmt.Errorf("%q must be true or false", p.Name)
	case "secret":
		if x, ok := v.(string); ok && secretRefRE.MatchString(x) {
			return x, nil
		}
		return nil, fmt.Errorf("%q must name one of your secrets, as name or name/key (secret://secrets lists them)", p.Name)
	default:
		switch x := v.(type) {
		case string:
			return x, nil
		case float64, bool, int:
			return fmt.Sprint(x), nil
		}
		return nil, fmt.Errorf("%q must be a string", p.Name)
	}
}

// Substitute fills {{name}} placeholders in every string of args. A string
// that is exactly one placeholder takes the value's own type.
func Substitute(args map[string]any, vals map[string]any) map[string]any {
	out, _ := subst(args, vals).(map[string]any)
	if out == nil {
		out = map[string]any{}
	}
	return out
}

func subst(v any, vals map[string]any) any {
	switch x := v.(type) {
	case string:
		if m := placeholder.FindStringSubmatch(x); m != nil && m[0] == x {
			if val, ok := vals[m[1]]; ok {
				return val
			}
		}
		return placeholder.ReplaceAllStringFunc(x, func(ph string) string {
			name := placeholder.FindStringSubmatch(ph)[1]
			if val, ok := vals[name]; ok {
				return fmt.Sprint(val)
			}
			return ""
		})
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) {
			out[k] = subst(x[k], vals)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = subst(e, vals)
		}
		return out
	}
	return v
}

// Run replays a flow: each step's arguments filled from params and called
// in order. It stops at the first failing step unless that step says
// onError: continue. A cancelled ctx stops between steps.
func Run(ctx context.Context, f Flow, params map[string]any, call Caller, progress Progress) (Report, error) {
	vals, err := Bind(f, params)
	if err != nil {
		return Report{}, err
	}
	start := time.Now()
	rep := Report{Flow: f.Name, OK: true, Steps: make([]StepReport, 0, len(f.Steps))}
	total := len(f.Steps)
	for i, st := range f.Steps {
		if err := ctx.Err(); err != nil {
			return rep, fmt.Errorf("run_flow %s was cancelled before %s", f.Name, f.Label(i))
		}
		t0 := time.Now()
		out, err := call(ctx, st.Tool, Substitute(st.Args, vals))
		if err != nil {
			out = Outcome{OK: false, Text: err.Error()}
		}
		sr := StepReport{Step: i + 1, ID: st.ID, Tool: st.Tool, Status: "ok", Result: firstLine(out.Text), Millis: time.Since(t0).Milliseconds()}
		if !out.OK {
			sr.Status = "failed"
			sr.Result = out.Text
			if st.OnError == "continue" {
				sr.Status = "failed-continued"
			}
		}
		rep.Steps = append(rep.Steps, sr)
		if progress != nil {
			progress(i+1, total, fmt.Sprintf("%s %s: %s", f.Label(i), sr.Status, sr.Result))
		}
		if !out.OK {
			if st.OnError == "continue" {
				rep.Continued++
			} else {
				rep.OK = false
				rep.Failed = fmt.Sprintf("%s failed: %s", f.Label(i), out.Text)
				for j := i + 1; j < total; j++ {
					rep.Steps = append(rep.Steps, StepReport{Step: j + 1, ID: f.Steps[j].ID, Tool: f.Steps[j].Tool, Status: "skipped"})
				}
				break
			}
		}
	}
	rep.Millis = time.Since(start).Milliseconds()
	return rep, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
