package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// flowTools holds what the flow family needs.
type flowTools struct {
	store    *flows.Store
	secrets  *secrets.Store
	steps    map[string]server.ToolHandlerFunc
	progress ProgressFunc
	sessions *sessions.Manager // the history draft_flow reads and the page a failed step left
	argTypes flows.ArgTypes
	library  bool // an operator may publish flows to the read-only library

	mu   sync.Mutex
	last map[string]flows.Report // principal + "/" + flow: the last failed run, for repair_flow
}

// ProgressFunc gives run_flow what reports its progress to the client
// that asked for it with a progress token: a function to report each step
// with, and one to call before returning the result, which waits until the
// reports are on the wire. The server provides it, since delivery depends
// on the transport; nil reports nothing.
type ProgressFunc func(ctx context.Context, req mcp.CallToolRequest) (report flows.Progress, delivered func())

// FlowOption configures the flow family.
type FlowOption func(*flowTools)

// WithPage gives the flow family the page tools (whose argument types
// save_flow checks parameters against) and the session manager (whose
// history draft_flow drafts from, and whose page a failed step's report
// looks at). Without it there is no start_recording or draft_flow.
func WithPage(page []Tool, m *sessions.Manager) FlowOption {
	return func(f *flowTools) {
		types := map[string]map[string]string{}
		for _, t := range page {
			types[t.Def.Name] = map[string]string{}
			for arg, prop := range t.Def.InputSchema.Properties {
				if m, ok := prop.(map[string]any); ok {
					typ, _ := m["type"].(string)
					types[t.Def.Name][arg] = typ
				}
			}
		}
		f.argTypes = func(tool, arg string) string { return types[tool][arg] }
		f.sessions = m
	}
}

// Flows returns save_flow, run_flow and delete_flow (and, WithPage,
// start_recording and draft_flow), and the flow prompts. steps are the
// page tools a flow may call by name: the same handlers, behind the same
// middleware, that tools/call reaches, so a step is checked, redacted and
// recovered exactly like a call.
func Flows(store *flows.Store, sec *secrets.Store, steps map[string]server.ToolHandlerFunc, progress ProgressFunc, opts ...FlowOption) ([]Tool, *FlowPrompts) {
	f := &flowTools{store: store, secrets: sec, steps: steps, progress: progress, last: map[string]flows.Report{}}
	for _, o := range opts {
		o(f)
	}
	ts := f.flowTools()
	if f.sessions != nil {
		ts = append(ts, f.recordingTools()...)
	}
	return ts, &FlowPrompts{f: f}
}

func (f *flowTools) flowTools() []Tool {
	return []Tool{
		New("save_flow", "Save Flow", Upsert,
			"Save a flow: the page-tool calls that just worked, as a document of name, description, parameters and steps (the shape is flow://schema), so run_flow can replay it without you. "+
				"Saving a name you already have replaces it. Use {{param}} in step arguments for values that change between runs, and secret in write steps for passwords, never the value. "+
				"A document that does not fit the schema, or a parameter that does not fit where a step uses it, is refused with the JSON path of each problem. shared: true lets every caller run it; an operator's library: true publishes it read-only to all.",
			f.save,
			mcp.WithObject("document", mcp.Required(), mcp.Description("the flow document, e.g. {\"name\": \"login\", \"parameters\": [...], \"steps\": [{\"tool\": \"navigate\", \"args\": {\"url\": \"{{base_url}}/login\"}}]}")),
			mcp.WithBoolean("library", mcp.Description("operators only: publish to the shared library, which every caller can run and none can change")),
		),
		New("run_flow", "Run Flow", Create.OnPage(),
			"Replay a saved flow in your browser session, step by step, on the server: no model round trip per step. "+
				"params fills the flow's parameters (flow://flows lists each flow's). Progress is reported after every step and the result is a per-step report. "+
				"It stops at the first failing step unless that step says onError: continue, and names the step, its id and the error; the repair_flow prompt helps fix it. "+
				"Parameters are checked against their types before any step runs. Values of steps marked return come back structured in values. time_limit overrides the flow's (default 120 s). Open a session with open_session first.",
			f.run,
			mcp.WithString("name", mcp.Required(), mcp.Description("the flow's name, from flow://flows")),
			mcp.WithObject("params", mcp.Description("parameter values by name, e.g. {\"email\": \"a@example.com\"}")),
			mcp.WithNumber("time_limit", mcp.Description("seconds the whole run may take, 1 to 3600; default the flow's timeLimit, else 120")),
		),
		New("delete_flow", "Delete Flow", Upsert,
			"Delete one of your saved flows by name; flow://flows lists them. "+
				"A flow another caller shared with you cannot be deleted or changed by you, only by its owner: save your own copy under another name instead. "+
				"Deleting cannot be undone, but a flow is only a document: save_flow with the same document brings it back.",
			f.delete,
			mcp.WithString("name", mcp.Required(), mcp.Description("the flow's name")),
			mcp.WithBoolean("library", mcp.Description("operators only: delete the library's flow of that name")),
		),
	}
}

// documentArg reads save_flow's document: an object, or JSON in a string.
func documentArg(args map[string]any) ([]byte, error) {
	switch d := args["document"].(type) {
	case map[string]any:
		return json.Marshal(d)
	case string:
		if json.Valid([]byte(d)) {
			return []byte(d), nil
		}
		return nil, refusal.New("The document is a string that is not JSON.", "Pass the flow document as a JSON object in the shape of flow://schema.")
	case nil:
		return nil, missing("document", "the flow document as a JSON object (shape: flow://schema)")
	}
	return nil, refusal.New("The document is not a JSON object.", "Pass the flow document as a JSON object in the shape of flow://schema.")
}

func (f *flowTools) save(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	doc, err := documentArg(req.GetArguments())
	if err != nil {
		return nil, err
	}
	principal := auth.Principal(ctx)
	if f.secrets.Contains(principal, string(doc)) {
		return nil, refusal.New("The document contains the value of one of your secrets.", `Type secrets with a write step of {"secret": "name"} instead of the value; secret://secrets lists the names.`)
	}
	flow, err := f.store.Parse(doc)
	if err != nil {
		return nil, err
	}
	for i, st := range flow.Steps {
		if _, ok := f.steps[st.Tool]; !ok {
			return nil, refusal.New(fmt.Sprintf("%s calls %s, which this server does not offer.", flow.Label(i), st.Tool), "Use one of: "+strings.Join(Page, ", ")+".")
		}
	}
	if err := flows.CheckTypes(flow, f.argTypes); err != nil {
		return nil, err
	}
	var created bool
	switch {
	case req.GetBool("library", false):
		if !auth.IsOperator(ctx) {
			return nil, refusal.New("Only an operator can publish to the flow library.", "Save it as your own with save_flow without library, and shared: true to let every caller run it.")
		}
		created, err = f.store.Publish(flow)
	case f.store.InLibrary(flow.Name) && !auth.IsOperator(ctx):
		return nil, &flows.LibraryError{Name: flow.Name}
	default:
		created, err = f.store.Save(principal, flow)
	}
	if err != nil {
		return nil, err
	}
	verb := "Updated"
	if created {
		verb = "Saved"
	}
	if req.GetBool("library", false) {
		verb += " in the library"
	}
	return mcp.NewToolResultText(fmt.Sprintf("%s the flow %s (%d steps) at %s. Run it with run_flow name=%q.", verb, flow.Name, len(flow.Steps), flows.URI(flow.Name), flow.Name)), nil
}

func (f *flowTools) delete(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, err := req.RequireString("name")
	if err != nil {
		return nil, missing("name", "a flow name from flow://flows")
	}
	if req.GetBool("library", false) {
		if !auth.IsOperator(ctx) {
			return nil, &flows.LibraryError{Name: name}
		}
		if err := f.store.Unpublish(name); err != nil {
			return nil, err
		}
		return mcp.NewToolResultText(fmt.Sprintf("Deleted the flow %s from the library.", name)), nil
	}
	if err := f.store.Delete(auth.Principal(ctx), name); err != nil {
		return nil, err
	}
	return mcp.NewToolResultText(fmt.Sprintf("Deleted the flow %s.", name)), nil
}

func (f *flowTools) run(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, err := req.RequireString("name")
	if err != nil {
		return nil, missing("name", "a flow name from flow://flows")
	}
	params, _ := req.GetArguments()["params"].(map[string]any)
	var limit time.Duration
	if v, ok := req.GetArguments()["time_limit"]; ok && v != nil {
		n, ok := v.(float64)
		if !ok || n < 1 || n > flows.MaxTimeLimit.Seconds() {
			return nil, refusal.New("time_limit is not a number of seconds from 1 to 3600.", `Pass e.g. {"time_limit": 300}, or leave it out for the flow's own limit (120 s unless it sets timeLimit).`)
		}
		limit = time.Duration(n * float64(time.Second))
	}
	principal := auth.Principal(ctx)
	flow, owner, err := f.store.Get(principal, name)
	if err != nil {
		return nil, err
	}
	if owner != principal {
		if steps := flow.UnpassedSecrets(); len(steps) > 0 {
			return nil, flows.ForeignSecretsError(flow, owner, steps)
		}
	}
	var progress flows.Progress
	delivered := func() {}
	if f.progress != nil {
		progress, delivered = f.progress(ctx, req)
	}
	rep, err := flows.Run(ctx, flow, params, f.call, progress,
		flows.WithTimeLimit(limit), flows.WithArgTypes(f.argTypes), flows.WithInspector(f.inspect))
	delivered()
	if err != nil {
		return nil, err
	}
	body, _ := json.MarshalIndent(rep, "", "  ")
	key := principal + "/" + name
	f.mu.Lock()
	if rep.OK {
		delete(f.last, key)
	} else {
		f.last[key] = rep
	}
	f.mu.Unlock()
	if !rep.OK {
		// Conflict: the page was not as the flow expected (HTTP 409).
		return nil, refusal.Of(refusal.Conflict, fmt.Sprintf("run_flow %s stopped: %s", name, rep.Failed),
			fmt.Sprintf("Get the repair_flow prompt with flow=%q to fix it, then save_flow the corrected document.\n%s", name, body))
	}
	done := fmt.Sprintf("all %d steps done", len(rep.Steps))
	if rep.Continued > 0 {
		// "all steps done" would hide a failure the flow chose to step over.
		var failed []string
		for i, st := range rep.Steps {
			if st.Status == "failed-continued" {
				failed = append(failed, flow.Label(i))
			}
		}
		done = fmt.Sprintf("%d steps done; %s failed and the run continued (onError: continue)", len(rep.Steps), strings.Join(failed, ", "))
	}
	return mcp.NewToolResultStructured(rep, fmt.Sprintf("run_flow %s: %s in %d ms.\n%s", name, done, rep.Millis, body)), nil
}

// call runs one step through the page tool's handler as tools/call would
// reach it: the middleware it comes behind turns errors and panics into
// isError results and redacts the caller's secrets, so the report, the
// progress messages and the failure repair_flow quotes carry only what a
// client may see.
func (f *flowTools) call(ctx context.Context, tool string, args map[string]any) (flows.Outcome, error) {
	h, ok := f.steps[tool]
	if !ok {
		return flows.Outcome{}, fmt.Errorf("%s is not a page tool; steps may call %s", tool, strings.Join(Page, ", "))
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := h(replaying(ctx), req)
	if err != nil {
		return flows.Outcome{}, err
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	out := flows.Outcome{OK: !res.IsError, Text: strings.Join(parts, "\n")}
	if out.OK && flows.ReturnWanted(ctx) {
		out.Value = f.value(ctx, tool, out.Text)
	}
	return out, nil
}

// value is what a step marked return gives the report: the text read_text
// read, the value execute_script returned, else the page's address after
// the step. The text is the redacted one the client would have seen.
func (f *flowTools) value(ctx context.Context, tool, text string) any {
	switch tool {
	case "read_text":
		if i := strings.LastIndex(text, "\n[cut: "); i >= 0 {
			text = text[:i]
		}
		return text
	case ScriptTool:
		if _, v, ok := strings.Cut(text, " It returned:\n"); ok {
			var x any
			if json.Unmarshal([]byte(v), &x) == nil {
				return x
			}
			return v
		}
		return nil
	}
	if f.sessions == nil {
		return nil
	}
	var u string
	_ = f.sessions.Do(ctx, sessions.OwnerOf(ctx), func(s *sessions.Session) (err error) { u, err = s.CurrentURL(); return err })
	return f.secrets.Redact(auth.Principal(ctx), u)
}

// inspect looks at the page a failed step left: its address and title and
// the controls most like what the step looked for, for the report and
// repair_flow. Secrets are redacted from it like from any result.
func (f *flowTools) inspect(ctx context.Context, _ string, args map[string]any) *flows.PageState {
	if f.sessions == nil {
		return nil
	}
	loc, _ := locatorFrom(args, "locator")
	principal := auth.Principal(ctx)
	var pc browser.PageControls
	if err := f.sessions.Do(ctx, sessions.OwnerOf(ctx), func(s *sessions.Session) (err error) { pc, err = s.Similar(loc, 5); return err }); err != nil {
		return nil
	}
	red := func(s string) string { return f.secrets.Redact(principal, s) }
	st := &flows.PageState{URL: red(pc.URL), Title: red(pc.Title)}
	for _, c := range pc.Controls {
		st.Similar = append(st.Similar, flows.Control{Role: c.Role, Name: red(c.Name), Locator: red(c.Locator)})
	}
	return st
}
