package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
)

// flowTools holds what the flow family needs.
type flowTools struct {
	store    *flows.Store
	secrets  *secrets.Store
	steps    map[string]server.ToolHandlerFunc
	progress ProgressFunc

	mu   sync.Mutex
	last map[string]flows.Report // principal + "/" + flow: the last failed run, for repair_flow
}

// ProgressFunc gives run_flow what reports its progress to the client
// that asked for it with a progress token: a function to report each step
// with, and one to call before returning the result, which waits until the
// reports are on the wire. The server provides it, since delivery depends
// on the transport; nil reports nothing.
type ProgressFunc func(ctx context.Context, req mcp.CallToolRequest) (report flows.Progress, delivered func())

// Flows returns save_flow, run_flow and delete_flow, and the flow prompts.
// steps are the page tools a flow may call by name: the same handlers,
// behind the same middleware, that tools/call reaches, so a step is
// checked, redacted and recovered exactly like a call.
func Flows(store *flows.Store, sec *secrets.Store, steps map[string]server.ToolHandlerFunc, progress ProgressFunc) ([]Tool, *FlowPrompts) {
	f := &flowTools{store: store, secrets: sec, steps: steps, progress: progress, last: map[string]flows.Report{}}
	return []Tool{
		New("save_flow", "Save Flow", Upsert,
			"Save a flow: the page-tool calls that just worked, as a document of name, description, parameters and steps (the shape is flow://schema), so run_flow can replay it without you. "+
				"Saving a name you already have replaces it. Use {{param}} in step arguments for values that change between runs, and secret in write steps for passwords, never the value. "+
				"A document that does not fit the schema is refused with the JSON path of each problem. shared: true lets every caller run it.",
			f.save,
			mcp.WithObject("document", mcp.Required(), mcp.Description("the flow document, e.g. {\"name\": \"login\", \"parameters\": [...], \"steps\": [{\"tool\": \"navigate\", \"args\": {\"url\": \"{{base_url}}/login\"}}]}")),
		),
		New("run_flow", "Run Flow", Create.OnPage(),
			"Replay a saved flow in your browser session, step by step, on the server: no model round trip per step. "+
				"params fills the flow's parameters (flow://flows lists each flow's). Progress is reported after every step and the result is a per-step report. "+
				"It stops at the first failing step unless that step says onError: continue, and names the step, its id and the error; the repair_flow prompt helps fix it. "+
				"Open a session with open_session first.",
			f.run,
			mcp.WithString("name", mcp.Required(), mcp.Description("the flow's name, from flow://flows")),
			mcp.WithObject("params", mcp.Description("parameter values by name, e.g. {\"email\": \"a@example.com\"}")),
		),
		New("delete_flow", "Delete Flow", Upsert,
			"Delete one of your saved flows by name; flow://flows lists them. "+
				"A flow another caller shared with you cannot be deleted or changed by you, only by its owner: save your own copy under another name instead. "+
				"Deleting cannot be undone, but a flow is only a document: save_flow with the same document brings it back.",
			f.delete,
			mcp.WithString("name", mcp.Required(), mcp.Description("the flow's name")),
		),
	}, &FlowPrompts{f: f}
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
	created, err := f.store.Save(principal, flow)
	if err != nil {
		return nil, err
	}
	verb := "Updated"
	if created {
		verb = "Saved"
	}
	return mcp.NewToolResultText(fmt.Sprintf("%s the flow %s (%d steps) at %s. Run it with run_flow name=%q.", verb, flow.Name, len(flow.Steps), flows.URI(flow.Name), flow.Name)), nil
}

func (f *flowTools) delete(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name, err := req.RequireString("name")
	if err != nil {
		return nil, missing("name", "a flow name from flow://flows")
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
	rep, err := flows.Run(ctx, flow, params, f.call, progress)
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
	res, err := h(ctx, req)
	if err != nil {
		return flows.Outcome{}, err
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return flows.Outcome{OK: !res.IsError, Text: strings.Join(parts, "\n")}, nil
}
