package tools

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/resources"
)

// flowTools holds what the flow family needs.
type flowTools struct {
	store   *flows.Store
	secrets *secrets.Store
	steps   map[string]server.ToolHandlerFunc

	mu   sync.Mutex
	last map[string]flows.Report // principal + "/" + flow: the last failed run, for repair_flow
}

// Flows returns save_flow, run_flow and delete_flow. steps are the page
// tools a flow may call, the same handlers tools/call reaches.
func Flows(store *flows.Store, sec *secrets.Store, steps []Tool) ([]Tool, *FlowPrompts) {
	f := &flowTools{store: store, secrets: sec, steps: map[string]server.ToolHandlerFunc{}, last: map[string]flows.Report{}}
	for _, t := range steps {
		f.steps[t.Def.Name] = t.Handler
	}
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
	if red := f.secrets.Redact(principal, string(doc)); red != string(doc) {
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
	flow, _, err := f.store.Get(principal, name)
	if err != nil {
		return nil, err
	}
	progress, delivered := progressSender(ctx, req)
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
		return nil, refusal.New(fmt.Sprintf("run_flow %s stopped: %s", name, rep.Failed),
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

// call runs one step through the page tool's own handler.
func (f *flowTools) call(ctx context.Context, tool string, args map[string]any) (flows.Outcome, error) {
	h, ok := f.steps[tool]
	if !ok {
		return flows.Outcome{}, fmt.Errorf("%s is not a page tool; steps may call %s", tool, strings.Join(Page, ", "))
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	// The report, the progress messages and the failure repair_flow quotes
	// carry step results: redact the caller's secrets from them here, as
	// the server does for every tool result.
	principal := auth.Principal(ctx)
	res, err := h(ctx, req)
	if err != nil {
		return flows.Outcome{OK: false, Text: f.secrets.Redact(principal, refusal.Text(err))}, nil
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return flows.Outcome{OK: !res.IsError, Text: f.secrets.Redact(principal, strings.Join(parts, "\n"))}, nil
}

// progressSender sends notifications/progress for a request that asked for
// them with a progress token. The second function waits, briefly, until
// the notifications sent have been written to the client, so that the
// result neither overtakes one (stdio) nor drops one (Streamable HTTP);
// call it before returning the result.
func progressSender(ctx context.Context, req mcp.CallToolRequest) (flows.Progress, func()) {
	none := func() {}
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil, none
	}
	token := req.Params.Meta.ProgressToken
	srv := server.ServerFromContext(ctx)
	if srv == nil {
		return nil, none
	}
	tr, _ := ctx.Value(trackerKey{}).(tracker)
	last := 0 // the ticket of the last notification queued
	send := func(done, total int, message string) {
		err := srv.SendNotificationToClient(ctx, "notifications/progress", map[string]any{
			"progressToken": token, "progress": done, "total": total, "message": message,
		})
		if err == nil {
			last = -1
			if tr != nil {
				last = tr.queued()
			}
		}
	}
	return send, func() {
		if last != 0 {
			awaitDelivery(ctx, tr, last)
		}
	}
}

// deliveryWait bounds how long run_flow holds its result for its progress
// notifications to be written.
const deliveryWait = 100 * time.Millisecond

// awaitDelivery returns once the session's notification queue is empty and
// the transport's tracker has seen the notification of ticket written, or
// after deliveryWait.
//
// mcp-go (v1.2.1) writes notifications from a goroutine of its own, apart
// from the result, and neither transport orders the two:
//
//   - Streamable HTTP (handlePost): the forwarder takes a notification off
//     the session's queue and then waits for the response lock; when the
//     handler returns first, the response path takes the lock, finds the
//     queue empty, marks the request done, and the forwarder drops what it
//     holds. That lost the last progress notification of nearly every run.
//   - stdio: the notification writer and the result race for stdout, and
//     in about one run in five the last notification came after the result,
//     for a request the client considers finished.
//
// TrackProgress (HTTP: flushes of the POST, which the forwarder makes after
// each notification) and CountProgress (stdio: progress lines written) tell
// when the notifications are on the wire. When they fall short (a
// standalone GET stream took a notification, say) the wait ends at
// deliveryWait.
func awaitDelivery(ctx context.Context, tr tracker, ticket int) {
	deadline := time.Now().Add(deliveryWait)
	if s := server.ClientSessionFromContext(ctx); s != nil {
		for len(s.NotificationChannel()) > 0 && time.Now().Before(deadline) && ctx.Err() == nil {
			time.Sleep(time.Millisecond)
		}
	}
	if tr != nil && ticket > 0 {
		tr.wait(ctx, ticket, deadline)
	}
}

type trackerKey struct{}

// tracker counts the progress notifications a transport was given and has
// written.
type tracker interface {
	// queued records one more notification and returns its ticket.
	queued() int
	// wait returns once the notification of ticket (and the ones before
	// it) was written, ctx ended or the deadline passed.
	wait(ctx context.Context, ticket int, deadline time.Time)
}

// counter is a tracker: queued and written counts, and a channel closed
// and replaced at every write.
type counter struct {
	mu      sync.Mutex
	q, n    int
	changed chan struct{}
}

func newCounter() *counter { return &counter{changed: make(chan struct{})} }

func (c *counter) queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.q++
	return c.q
}

func (c *counter) written() {
	c.mu.Lock()
	c.n++
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

func (c *counter) wait(ctx context.Context, ticket int, deadline time.Time) {
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	for {
		c.mu.Lock()
		n, changed := c.n, c.changed
		c.mu.Unlock()
		if n >= ticket {
			return
		}
		select {
		case <-changed:
		case <-t.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// flushWriter counts the flushes of one HTTP response.
type flushWriter struct {
	http.ResponseWriter
	flusher http.Flusher
	count   *counter
}

func (w *flushWriter) Flush() {
	w.flusher.Flush()
	w.count.written()
}

// Unwrap lets http.ResponseController reach the connection (write deadlines).
func (w *flushWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// TrackProgress wraps the Streamable HTTP endpoint so that run_flow can
// tell when its progress notifications have been written to the POST's
// event stream (see awaitDelivery). Only notifications are streamed while
// a tool runs, and the stream is flushed after each.
func TrackProgress(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := w.(http.Flusher)
		if !ok || r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		c := newCounter()
		next.ServeHTTP(&flushWriter{ResponseWriter: w, flusher: f, count: c}, r.WithContext(context.WithValue(r.Context(), trackerKey{}, tracker(c))))
	})
}

// progressLine is how mcp-go's stdio server starts the line of a progress
// notification (one Write per message). Should that change, run_flow only
// waits deliveryWait longer.
var progressLine = []byte(`{"jsonrpc":"2.0","method":"notifications/progress"`)

type lineWriter struct {
	w     io.Writer
	count *counter
}

func (l *lineWriter) Write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if bytes.HasPrefix(p, progressLine) {
		l.count.written()
	}
	return n, err
}

// CountProgress wraps the stdio server's output so that run_flow can tell
// when its progress notifications have been written (see awaitDelivery);
// the context function adds the count to each request's context.
func CountProgress(w io.Writer) (io.Writer, func(context.Context) context.Context) {
	c := newCounter()
	return &lineWriter{w: w, count: c}, func(ctx context.Context) context.Context {
		return context.WithValue(ctx, trackerKey{}, tracker(c))
	}
}

// Bind attaches flow://flows and flow://flows/{name} to the table.
func (p *FlowPrompts) Bind(t *resources.Table) {
	f := p.f
	t.Bind("flow.list", func(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
		list := f.store.List(auth.Principal(ctx))
		if list == nil {
			list = []flows.Summary{}
		}
		return resources.JSON(map[string]any{"flows": list})
	})
	t.Bind("flow.one", func(ctx context.Context, _ string, vars map[string]string) (resources.Content, error) {
		flow, _, err := f.store.Get(auth.Principal(ctx), vars["name"])
		if err != nil {
			return resources.Content{}, err
		}
		return resources.JSON(flow)
	})
	t.BindCompleter("flow.name", func(ctx context.Context, _, _ string) ([]string, error) {
		return f.store.Names(auth.Principal(ctx)), nil
	})
}

// FlowPrompts are the build_flow and repair_flow prompts and the flow
// resources, which share the flow family's store.
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
	} else {
		b.WriteString("It has no failed run recorded on this server yet: run it with run_flow first to see which step fails.\n\n")
	}
	fmt.Fprintf(&b, "The document:\n```json\n%s\n```\n\n", doc)
	b.WriteString("1. Run the steps before the failing one (or run_flow and let it stop), then call outline to see the page as it is now.\n")
	b.WriteString("2. Find why the step fails: a changed label or text, a missing wait_for before it, or a page that moved. Prefer label and role locators over css.\n")
	b.WriteString("3. Correct only what is wrong, keep the rest, and call save_flow with the whole corrected document; then run_flow again to confirm.\n")
	if owner != principal {
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
