package flows

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
)

// Outcome is what one step's tool call answered.
type Outcome struct {
	// OK is false when the tool refused or failed.
	OK bool
	// Text is the tool's text answer (its refusal when not OK).
	Text string
	// Value is the step's result when the step returns one (see
	// ReturnWanted): a read text, a script's value, the page's URL.
	Value any
}

type returnKey struct{}

// ReturnWanted tells a Caller that the step it runs returns its result,
// so Outcome.Value is worth the look at the page it may cost.
func ReturnWanted(ctx context.Context) bool {
	v, _ := ctx.Value(returnKey{}).(bool)
	return v
}

// PageState is where the browser was when a step failed, and the controls
// on the page most like what the step looked for: what repair_flow needs
// to correct the step without another look.
type PageState struct {
	URL     string    `json:"url,omitempty"`
	Title   string    `json:"title,omitempty"`
	Similar []Control `json:"similar,omitempty"`
}

// Control is one control of the page, as outline shows it.
type Control struct {
	Role    string `json:"role,omitempty"`
	Name    string `json:"name,omitempty"`
	Locator string `json:"locator"`
}

// Inspector looks at the page after a step failed; tool and args are the
// step's, substituted.
type Inspector func(ctx context.Context, tool string, args map[string]any) *PageState

// Time limits of a run.
const (
	DefaultTimeLimit = 120 * time.Second
	MaxTimeLimit     = time.Hour
)

// RunOption adjusts one run.
type RunOption func(*runConfig)

type runConfig struct {
	limit   time.Duration
	types   ArgTypes
	inspect Inspector
}

// WithTimeLimit overrides the flow's time limit for this run; 0 keeps it.
func WithTimeLimit(d time.Duration) RunOption {
	return func(c *runConfig) {
		if d > 0 {
			c.limit = d
		}
	}
}

// WithArgTypes gives the runner the tools' argument types, so a number
// parameter in a text argument is typed as its text (SubstituteTyped).
func WithArgTypes(t ArgTypes) RunOption { return func(c *runConfig) { c.types = t } }

// WithInspector looks at the page when a step fails, for the report.
func WithInspector(i Inspector) RunOption { return func(c *runConfig) { c.inspect = i } }

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
	// Page is where a failed step left the browser and what it had
	// instead of what the step looked for.
	Page *PageState `json:"page,omitempty"`
}

// Report is the outcome of a run: run_flow's structuredContent on success
// and the JSON after the first line of its isError text on failure, so any
// surface built on run_flow (an HTTP run endpoint) hands on the same
// document. Every field is plain JSON: values hold what steps marked
// return gave (strings, numbers, lists), keyed as the flow says.
type Report struct {
	Flow   string       `json:"flow"`
	OK     bool         `json:"ok"`
	Steps  []StepReport `json:"steps"`
	Failed string       `json:"failed,omitempty"` // the sentence naming the failed step
	// Continued counts failed steps marked onError: continue.
	Continued int   `json:"continued,omitempty"`
	Millis    int64 `json:"ms"`
	// Values are the results of the steps marked return, by key.
	Values map[string]any `json:"values,omitempty"`
	// TimeLimit is the run's limit in seconds.
	TimeLimit float64 `json:"timeLimitSeconds"`
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
		return nil, fmt.Errorf("run_flow %s was refused before any step ran: %s. Its parameters are %s; call run_flow again with params that fit", f.Name, strings.Join(probs, "; "), describeParams(f))
	}
	return vals, nil
}

func describeParams(f Flow) string {
	if len(f.Parameters) == 0 {
		return "none: call it with params {}"
	}
	var parts []string
	for _, p := range f.Parameters {
		t := typeOf(p)
		s := p.Name + " (" + t
		if t == TypeEnum {
			s += " of " + quoteAll(p.Values)
		}
		if p.Required {
			s += ", required"
		} else if p.Default != nil {
			s += fmt.Sprintf(", default %v", p.Default)
		}
		parts = append(parts, s+")")
	}
	return strings.Join(parts, ", ")
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
// in order. A wrong or missing parameter is refused before the first step.
// It stops at the first failing step unless that step says onError:
// continue. A cancelled ctx stops between steps; the time limit (the
// flow's, or WithTimeLimit's) stops inside a step too, through the ctx the
// step is called with.
func Run(ctx context.Context, f Flow, params map[string]any, call Caller, progress Progress, opts ...RunOption) (Report, error) {
	vals, err := Bind(f, params)
	if err != nil {
		return Report{}, err
	}
	cfg := runConfig{limit: DefaultTimeLimit}
	if f.TimeLimit > 0 {
		cfg.limit = time.Duration(f.TimeLimit * float64(time.Second))
	}
	for _, o := range opts {
		o(&cfg)
	}
	cfg.limit = min(cfg.limit, MaxTimeLimit)
	limited, cancel := context.WithTimeoutCause(ctx, cfg.limit, errTimeLimit)
	defer cancel()
	start := time.Now()
	rep := Report{Flow: f.Name, OK: true, Steps: make([]StepReport, 0, len(f.Steps)), TimeLimit: cfg.limit.Seconds()}
	total := len(f.Steps)
	for i, st := range f.Steps {
		if err := ctx.Err(); err != nil {
			return rep, fmt.Errorf("run_flow %s was cancelled before %s", f.Name, f.Label(i))
		}
		key := f.ReturnKey(i)
		stepCtx := limited
		if key != "" {
			stepCtx = context.WithValue(limited, returnKey{}, true)
		}
		args := SubstituteTyped(st.Tool, st.Args, vals, cfg.types)
		t0 := time.Now()
		var out Outcome
		if limited.Err() == nil {
			out, err = call(stepCtx, st.Tool, args)
			if err != nil {
				out = Outcome{OK: false, Text: err.Error()}
			}
		}
		overTime := errors.Is(context.Cause(limited), errTimeLimit) && ctx.Err() == nil
		if overTime {
			out = Outcome{OK: false, Text: fmt.Sprintf("the run reached its time limit of %s during this step. Raise it with run_flow's time_limit (seconds) or the flow's timeLimit, or add a wait_for with a shorter timeout where the page is slow", seconds(cfg.limit))}
		}
		sr := StepReport{Step: i + 1, ID: st.ID, Tool: st.Tool, Status: "ok", Result: firstLine(out.Text), Millis: time.Since(t0).Milliseconds()}
		if !out.OK {
			sr.Status = "failed"
			sr.Result = out.Text
			if st.OnError == "continue" && !overTime {
				sr.Status = "failed-continued"
			}
			if cfg.inspect != nil && ctx.Err() == nil {
				// The time limit may have run out: the look at the page
				// gets a moment of its own.
				ictx, icancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
				sr.Page = cfg.inspect(ictx, st.Tool, args)
				icancel()
			}
		} else if key != "" {
			if rep.Values == nil {
				rep.Values = map[string]any{}
			}
			rep.Values[key] = out.Value
		}
		rep.Steps = append(rep.Steps, sr)
		if progress != nil {
			progress(i+1, total, fmt.Sprintf("%s %s: %s", f.Label(i), sr.Status, firstLine(sr.Result)))
		}
		if !out.OK {
			if sr.Status == "failed-continued" {
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

var errTimeLimit = errors.New("the flow's time limit ran out")

func seconds(d time.Duration) string {
	return fmt.Sprintf("%g s", d.Seconds())
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}
