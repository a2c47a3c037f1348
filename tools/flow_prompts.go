package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
)

// FlowPrompts are the build_flow, record_flow and repair_flow prompts,
// which share the flow family's store.
type FlowPrompts struct{ f *flowTools }

// Prompts returns the prompts with their handlers.
func (p *FlowPrompts) Prompts() []server.ServerPrompt {
	return []server.ServerPrompt{
		{
			Prompt: mcp.NewPrompt("build_flow",
				mcp.WithPromptTitle("Build a Flow"),
				mcp.WithPromptDescription("Work out a browser task once with the page tools, then save it as a replayable flow."),
				mcp.WithArgument("goal", mcp.RequiredArgument(), mcp.ArgumentDescription("what the flow should do, e.g. sign in and download this month's invoice")),
			),
			Handler: p.buildFlow,
		},
		{
			Prompt: mcp.NewPrompt("record_flow",
				mcp.WithPromptTitle("Record a Flow"),
				mcp.WithPromptDescription("Record what you do in the browser from here on and turn it into a saved flow: start_recording, the task, stop_recording, draft_flow, review, save_flow."),
				mcp.WithArgument("goal", mcp.RequiredArgument(), mcp.ArgumentDescription("what the flow should do, e.g. add a customer and read back its number")),
				mcp.WithArgument("name", mcp.ArgumentDescription("the flow's name, e.g. add-customer")),
			),
			Handler: p.recordFlow,
		},
		{
			Prompt: mcp.NewPrompt("repair_flow",
				mcp.WithPromptTitle("Repair a Flow"),
				mcp.WithPromptDescription("Fix a saved flow whose run failed: find the failing step, look at the page, correct the document and save it."),
				mcp.WithArgument("flow", mcp.RequiredArgument(), mcp.ArgumentDescription("the flow's name, from flow://flows")),
			),
			Handler: p.repairFlow,
		},
	}
}

func userMessage(text string) *mcp.GetPromptResult {
	return &mcp.GetPromptResult{Messages: []mcp.PromptMessage{{Role: mcp.RoleUser, Content: mcp.NewTextContent(text)}}}
}

func (p *FlowPrompts) buildFlow(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	goal := strings.TrimSpace(req.Params.Arguments["goal"])
	if goal == "" {
		return nil, refusal.New("build_flow needs a goal.", "Pass goal, e.g. \"sign in and download this month's invoice\".")
	}
	r := userMessage(fmt.Sprintf(`Build a replayable browser flow for this goal: %s

1. Read flow://schema for the document's shape and skill://selenium-flow/references/FLOWS.md for how flows are written.
2. Call open_session (with url), then outline, and carry out the goal one step at a time with navigate, click, write, select, press_key and wait_for, copying locators from outline. Type passwords with write(secret=name); secret://secrets lists the names.
3. After each step that matters, check it with assert, so the saved flow proves its own success.
4. When the goal is reached, call save_flow with a document whose steps are exactly the calls that worked. Turn values that change between runs into parameters and use them as {{name}}.
5. Run it once with run_flow to confirm it replays.`, goal))
	r.Description = "Build a flow for: " + goal
	return r, nil
}

func (p *FlowPrompts) recordFlow(_ context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	goal := strings.TrimSpace(req.Params.Arguments["goal"])
	if goal == "" {
		return nil, refusal.New("record_flow needs a goal.", "Pass goal, e.g. \"add a customer and read back its number\".")
	}
	name := strings.TrimSpace(req.Params.Arguments["name"])
	if name == "" {
		name = "recorded-flow"
	}
	r := userMessage(fmt.Sprintf(`Record a replayable browser flow for this goal: %s

1. Call open_session (with url) if no session is open, then start_recording.
2. Carry out the goal once with navigate, click, write, select, press_key and wait_for, copying locators from outline. Type passwords with write and a secret's name instead of text; secret://secrets lists the names. Check what matters with assert. Mistakes are fine: a field typed over and repeated calls are dropped from the draft.
3. Call stop_recording, then draft_flow with name=%q. It returns a document: looks dropped, each locator the page's stable one, waits where pages changed, typed values proposed as parameters with their value as default (a secret stays a name).
4. Review it: give parameters clear names and types (string, number, integer, boolean, enum with values, secret), make a value that must change between runs required, add "return": "name" to a read_text step whose text the caller needs, and keep an assert that proves success.
5. Call save_flow with the document, then run_flow once with other values to confirm it replays (flow://schema is the full shape).`, goal, name))
	r.Description = "Record a flow for: " + goal
	return r, nil
}

func (p *FlowPrompts) repairFlow(ctx context.Context, req mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	name := strings.TrimSpace(req.Params.Arguments["flow"])
	if name == "" {
		return nil, refusal.New("repair_flow needs the flow's name.", "Pass flow, a name from flow://flows.")
	}
	principal := auth.Principal(ctx)
	flow, owner, err := p.f.store.Get(principal, name)
	if err != nil {
		return nil, err
	}
	doc, _ := json.MarshalIndent(flow, "", "  ")
	p.f.mu.Lock()
	rep, failed := p.f.last[principal+"/"+name]
	p.f.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "Repair the saved flow %s (%s).\n\n", name, flows.URI(name))
	if failed {
		fmt.Fprintf(&b, "Its last run stopped: %s\n\n", rep.Failed)
		for _, st := range rep.Steps {
			if st.Page == nil {
				continue
			}
			fmt.Fprintf(&b, "When step %d failed the browser was at %s (%q).", st.Step, st.Page.URL, st.Page.Title)
			if len(st.Page.Similar) > 0 {
				b.WriteString(" The page's closest controls were:\n")
				for _, c := range st.Page.Similar {
					fmt.Fprintf(&b, "- %s %q: %s\n", c.Role, c.Name, c.Locator)
				}
			}
			b.WriteString("\n")
		}
	} else {
		b.WriteString("It has no failed run recorded on this server yet: run it with run_flow first to see which step fails.\n\n")
	}
	fmt.Fprintf(&b, "The document:\n```json\n%s\n```\n\n", doc)
	b.WriteString("1. Run the steps before the failing one (or run_flow and let it stop), then call outline to see the page as it is now.\n")
	b.WriteString("2. Find why the step fails: a changed label or text (the closest controls above are candidates), a missing wait_for before it, a page that moved, or a parameter of the wrong type (string, number, integer, boolean, enum, secret: save_flow checks each against where it is used). Prefer label and role locators over css.\n")
	b.WriteString("3. Correct only what is wrong, keep the rest, and call save_flow with the whole corrected document; then run_flow again to confirm.\n")
	switch {
	case owner == flows.LibraryOwner:
		b.WriteString("\nThe flow is in the shared library, which only an operator can change: save your corrected copy under a new name, or ask an operator to publish the fix (save_flow with library: true).\n")
	case owner != principal:
		fmt.Fprintf(&b, "\nThe flow is shared by %s and only they can change it: save your corrected copy under a new name.\n", owner)
	}
	r := userMessage(b.String())
	r.Description = "Repair the flow " + name
	return r, nil
}

// CompletePromptArgument completes repair_flow's flow argument from the
// caller's flows.
func (p *FlowPrompts) CompletePromptArgument(ctx context.Context, prompt string, arg mcp.CompleteArgument, _ mcp.CompleteContext) (*mcp.Completion, error) {
	vals := []string{}
	if prompt == "repair_flow" && arg.Name == "flow" {
		for _, n := range p.f.store.Names(auth.Principal(ctx)) {
			if strings.HasPrefix(n, arg.Value) {
				vals = append(vals, n)
			}
		}
	}
	return &mcp.Completion{Values: vals, Total: len(vals)}, nil
}
