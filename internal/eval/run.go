package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"text/tabwriter"
)

// Config is one evaluation run.
type Config struct {
	// Model answers the tasks.
	Model *Model
	// Host offers the model the mounted server's tools.
	Host *Host
	// Instructions are the server's, from initialize; they open the system
	// message as a host puts them there.
	Instructions string
	// Repeats is how many times each task is asked; 1 when zero.
	Repeats int
	// Progress, when set, gets a line per attempt.
	Progress io.Writer
}

// Call is one tool call a model made in an attempt.
type Call struct {
	Tool     string
	Args     map[string]any
	ReadOnly bool
	// Error is why the call could not be made, when it could not.
	Error string
}

// Attempt is one asking of a task.
type Attempt struct {
	Passed bool
	// Why says what failed, when the attempt failed.
	Why    string
	Answer string
	Calls  []Call
	// Transcript is the conversation as the model saw it.
	Transcript []Message
}

// Result is a task and its attempts.
type Result struct {
	Task     Task
	Attempts []Attempt
}

// Passed reports whether the task passed every repeat.
func (r Result) Passed() bool {
	return len(r.Attempts) > 0 && !slices.ContainsFunc(r.Attempts, func(a Attempt) bool { return !a.Passed })
}

// Passes counts the attempts that passed.
func (r Result) Passes() int {
	n := 0
	for _, a := range r.Attempts {
		if a.Passed {
			n++
		}
	}
	return n
}

// AllPassed reports whether every task passed every repeat.
func AllPassed(rs []Result) bool {
	return len(rs) > 0 && !slices.ContainsFunc(rs, func(r Result) bool { return !r.Passed() })
}

// systemPrompt is what the host says before the server's instructions.
const systemPrompt = "You are an assistant in a chat host connected to one MCP server, selenium-flow. Use its tools when they help, then answer the user in plain text."

// Run asks every task Repeats times. A task whose question names an offered
// tool is refused before anything is asked: tasks are phrased as a caller
// would ask. An error is returned only when the run itself cannot go on
// (the model endpoint fails); a failed attempt is a result.
func Run(ctx context.Context, cfg Config, tasks []Task) ([]Result, error) {
	if cfg.Model == nil || cfg.Host == nil {
		return nil, errors.New("eval: a run needs a model and a host")
	}
	names := cfg.Host.ToolNames()
	for _, t := range tasks {
		if n, ok := namedTool(t.Ask, names); ok {
			return nil, fmt.Errorf("task %s names the tool %s; phrase it as a caller would ask, without tool names", t.ID, n)
		}
	}
	repeats := max(cfg.Repeats, 1)
	var out []Result
	for _, t := range tasks {
		r := Result{Task: t}
		for i := range repeats {
			a, err := attempt(ctx, cfg, t)
			if err != nil {
				return out, fmt.Errorf("task %s, repeat %d: %w", t.ID, i+1, err)
			}
			if cfg.Progress != nil {
				status := "pass"
				if !a.Passed {
					status = "FAIL: " + a.Why
				}
				fmt.Fprintf(cfg.Progress, "%s %d/%d: %s\n", t.ID, i+1, repeats, status)
			}
			r.Attempts = append(r.Attempts, a)
		}
		out = append(out, r)
	}
	return out, nil
}

// attempt runs one conversation: the model replies, the host makes the
// calls it asks for, until it answers in text or runs out of turns.
func attempt(ctx context.Context, cfg Config, t Task) (Attempt, error) {
	system := systemPrompt
	if cfg.Instructions != "" {
		system += "\n\nThe server's instructions:\n" + cfg.Instructions
	}
	msgs := []Message{{Role: "system", Content: system}, {Role: "user", Content: t.Ask}}
	specs := cfg.Host.Specs()
	turns := t.MaxTurns
	if turns == 0 {
		turns = DefaultMaxTurns
	}
	var a Attempt
	finish := func() Attempt { a.Transcript = msgs; return a }
	for range turns {
		reply, err := cfg.Model.Chat(ctx, msgs, specs)
		if err != nil {
			return finish(), err
		}
		msgs = append(msgs, reply)
		if len(reply.ToolCalls) == 0 {
			a.Answer = reply.Content
			a.Passed, a.Why = t.Expect.Score(a.Answer, a.Calls)
			return finish(), nil
		}
		for _, tc := range reply.ToolCalls {
			c := Call{Tool: tc.Function.Name, ReadOnly: cfg.Host.ReadOnly(tc.Function.Name)}
			var text string
			if err := json.Unmarshal([]byte(cmpOr(tc.Function.Arguments, "{}")), &c.Args); err != nil {
				c.Error = "arguments are not a JSON object: " + err.Error()
				text = "Error: " + c.Error
			} else if cfg.Host.Offers(c.Tool) && !c.ReadOnly && !t.AllowWrites {
				c.Error = "not read-only, and this task may change nothing"
				a.Calls = append(a.Calls, c)
				a.Why = fmt.Sprintf("called %s, which is not read-only (its readOnlyHint is not true), in a task that may change nothing", c.Tool)
				return finish(), nil
			} else if text, err = cfg.Host.Call(ctx, c.Tool, c.Args); err != nil {
				if ctx.Err() != nil {
					return finish(), ctx.Err()
				}
				c.Error = err.Error()
				text = "Error: " + c.Error
			}
			a.Calls = append(a.Calls, c)
			msgs = append(msgs, Message{Role: "tool", ToolCallID: tc.ID, Content: text})
		}
	}
	a.Why = fmt.Sprintf("no answer in text after %d turns", turns)
	return finish(), nil
}

func cmpOr(a, b string) string {
	if strings.TrimSpace(a) != "" {
		return a
	}
	return b
}

// Score judges an attempt's final answer and calls against the expectation;
// the reason names the first expectation that failed.
func (e Expect) Score(answer string, calls []Call) (bool, string) {
	if e.Substring != "" && !strings.Contains(strings.ToLower(answer), strings.ToLower(e.Substring)) {
		return false, fmt.Sprintf("the answer does not contain %q", e.Substring)
	}
	if e.Regex != "" {
		re, err := regexp.Compile(e.Regex)
		if err != nil {
			return false, fmt.Sprintf("regex %q: %v", e.Regex, err)
		}
		if !re.MatchString(answer) {
			return false, fmt.Sprintf("the answer does not match %s", e.Regex)
		}
	}
	if e.Tool != "" && !slices.ContainsFunc(calls, func(c Call) bool { return c.Tool == e.Tool && c.Error == "" && argsHave(c.Args, e.Args) }) {
		if len(e.Args) > 0 {
			return false, fmt.Sprintf("no call of %s with %v", e.Tool, e.Args)
		}
		return false, fmt.Sprintf("no call of %s", e.Tool)
	}
	if e.Read != "" && !slices.ContainsFunc(calls, func(c Call) bool {
		return slices.Contains(readTools, c.Tool) && c.Error == "" && fmt.Sprint(c.Args["uri"]) == e.Read
	}) {
		return false, fmt.Sprintf("no read of %s", e.Read)
	}
	return true, ""
}

// argsHave reports whether args hold every wanted value, compared as text.
func argsHave(args map[string]any, want map[string]string) bool {
	for k, v := range want {
		got, ok := args[k]
		if !ok {
			return false
		}
		s, isString := got.(string)
		if !isString {
			b, _ := json.Marshal(got)
			s = string(b)
		}
		if s != v {
			return false
		}
	}
	return true
}

// Table prints one line per task: passes over repeats, the verdict, and why
// the first failing repeat failed; then a summary.
func Table(w io.Writer, rs []Result) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "TASK\tPASSED\tRESULT\tWHY")
	passed := 0
	for _, r := range rs {
		verdict, why := "pass", ""
		if r.Passed() {
			passed++
		} else {
			verdict = "FAIL"
			for i, a := range r.Attempts {
				if !a.Passed {
					why = fmt.Sprintf("repeat %d: %s", i+1, a.Why)
					break
				}
			}
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%s\t%s\n", r.Task.ID, r.Passes(), len(r.Attempts), verdict, why)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "%d of %d tasks passed every repeat\n", passed, len(rs))
}
