package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// Recording: every page action an agent makes that works is kept in its
// session's history (sessions.Action), with the stable locator of the
// element it acted on, so that draft_flow can turn what just worked into a
// flow without the model retyping it. Flow steps are not recorded: a
// replay is not new work, and its steps pay nothing for the history.

type replayKey struct{}

// replaying marks ctx as a flow step's.
func replaying(ctx context.Context) context.Context { return context.WithValue(ctx, replayKey{}, true) }

func isReplay(ctx context.Context) bool { v, _ := ctx.Value(replayKey{}).(bool); return v }

// urlSlot is where an action's report leaves the URL it read (noteURL), so
// the recorder does not ask the browser for it a second time.
type urlSlot struct{ url string }

type urlSlotKey struct{}

// noteURL tells the recorder, if one waits, where the action left the page.
func noteURL(ctx context.Context, u string) {
	if slot, ok := ctx.Value(urlSlotKey{}).(*urlSlot); ok {
		slot.url = u
	}
}

// unrecorded are the page tools whose calls only look: the draft would
// drop them, so they cost no look at the page either.
var unrecorded = []string{"outline", "screenshot", "list_windows"}

// recorded wraps the page tools (and open_session, whose url is the
// recording's first page) so that each call that works is recorded.
func (p *pageTools) recorded(ts []Tool) []Tool {
	for i, t := range ts {
		if (slices.Contains(Page, t.Def.Name) || t.Def.Name == "open_session") && !slices.Contains(unrecorded, t.Def.Name) {
			ts[i].Handler = p.recorder(t.Def.Name, t.Shape.readOnly, t.Handler)
		}
	}
	return ts
}

// recorder records each call of tool that works. A check (a read-only
// tool) does not move the page, so it costs no look at it: its place is
// where the previous action left the browser. An action takes the URL
// after it, and a locator's stable form, which comes with the URL before.
func (p *pageTools) recorder(tool string, readOnly bool, inner func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error)) func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if isReplay(ctx) {
			return inner(ctx, req)
		}
		principal := auth.Principal(ctx)
		args := req.GetArguments()
		a := sessions.Action{Tool: tool}
		s := p.sessions.Peek(sessions.OwnerOf(ctx))
		if s != nil {
			a.URLBefore = s.RecordedURL()
			if !readOnly && tool != "open_session" {
				if u, loc := p.lookBefore(s, args); u != "" {
					a.URLBefore, a.Locator = u, loc
				}
			}
		}
		a.Started = time.Now()
		slot := &urlSlot{}
		res, err := inner(context.WithValue(ctx, urlSlotKey{}, slot), req)
		if err != nil || res == nil || res.IsError {
			return res, err
		}
		a.Took = time.Since(a.Started)
		if s = p.sessions.Peek(sessions.OwnerOf(ctx)); s == nil {
			return res, err
		}
		a.URLAfter = a.URLBefore
		switch {
		case slot.url != "":
			a.URLAfter = slot.url
		case !readOnly:
			a.URLAfter, _ = s.CurrentURL()
		}
		a.Args = p.redactedArgs(principal, args)
		if a.Locator != nil {
			// The page's own locator names what the page shows, which may
			// be a secret the caller typed: then the typed one is kept.
			if b, _ := json.Marshal(a.Locator); p.secrets.Contains(principal, string(b)) {
				a.Locator = nil
			}
		}
		s.Record(a)
		return res, err
	}
}

// lookBefore takes, for a call with a locator, the stable locator of the
// element it will act on and the page's address, in one script call; ""
// for a call without one. A locator that finds nothing yet (a url
// argument goes elsewhere first) is recorded as the agent typed it.
func (p *pageTools) lookBefore(s *sessions.Session, args map[string]any) (string, *browser.Locator) {
	if _, goes := args["url"]; goes {
		return "", nil
	}
	loc, err := locatorFrom(args, "locator")
	if err != nil || loc == nil {
		return "", nil
	}
	pref, u, err := s.Preferred(*loc)
	if err != nil {
		return "", nil
	}
	return u, &pref
}

// redactedArgs is a copy of args with the caller's secret values taken
// out: a value typed as text by mistake never reaches the history.
func (p *pageTools) redactedArgs(principal string, args map[string]any) map[string]any {
	b, err := json.Marshal(args)
	if err != nil {
		return nil
	}
	var out map[string]any
	_ = json.Unmarshal([]byte(p.secrets.Redact(principal, string(b))), &out)
	return out
}

// recordingTools are start_recording, stop_recording and draft_flow.
func (f *flowTools) recordingTools() []Tool {
	return []Tool{
		New("start_recording", "Start Recording", Upsert,
			"Mark the start of a recording in your browser session: the page actions you make from here on (navigate, click, write, select, wait_for, assert …) are what draft_flow turns into a flow. "+
				"Use it when a person says \"from here, record\". Without it draft_flow drafts from the whole recent history instead. "+
				"Calling it again starts over; stop_recording ends it; closing the session ends the history. Only calls that worked are kept, secrets by name only.",
			f.startRecording,
		),
		New("stop_recording", "Stop Recording", Upsert,
			"End the recording start_recording began, so that what you do next (checking the result, cleaning up) stays out of the flow; draft_flow then drafts the stopped recording. "+
				"It says which actions the recording holds. Stopping when none runs changes nothing and names the last recording, if any. "+
				"Your actions are still kept in the session's recent history, which draft_flow can draft from with from and to.",
			f.stopRecording,
		),
		New("draft_flow", "Draft Flow From History", ReadOnly,
			"Turn what you just did in your browser session into a draft flow document: the recording since start_recording (or the recent history, or from/to action numbers). "+
				"Looks (outline, screenshot), repeats and no-op navigations are dropped, each locator is the page's stable one for the element you acted on, waits go where pages changed, and typed values become parameters with their value as default (a secret stays a name). "+
				"Nothing is saved: review the document, then call save_flow with it.",
			f.draftFlow,
			mcp.WithString("name", mcp.Description("the flow's name, e.g. add-user; default recorded-flow")),
			mcp.WithNumber("from", mcp.Description("first action number to include (drafts and stop_recording name them); default the recording's start")),
			mcp.WithNumber("to", mcp.Description("last action number to include; default the latest")),
		),
	}
}

func (f *flowTools) session(ctx context.Context) (*sessions.Session, error) {
	if f.sessions == nil {
		return nil, refusal.New("This server keeps no browser history.", "Write the flow document by hand and save it with save_flow (shape: flow://schema).")
	}
	s := f.sessions.Peek(sessions.OwnerOf(ctx))
	if s == nil {
		return nil, refusal.New("You have no browser session, so there is nothing to record.", "Call open_session first, then start_recording, then do the task with the page tools.")
	}
	return s, nil
}

func (f *flowTools) startRecording(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	s, err := f.session(ctx)
	if err != nil {
		return nil, err
	}
	n := s.StartRecording()
	return mcp.NewToolResultText(fmt.Sprintf("Recording from action %d on. Do the task with the page tools; then call draft_flow to turn it into a flow document, and save_flow to keep it.", n)), nil
}

func (f *flowTools) stopRecording(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	s, err := f.session(ctx)
	if err != nil {
		return nil, err
	}
	running := s.Recording() != 0
	from, to := s.StopRecording()
	switch {
	case from == 0:
		return mcp.NewToolResultText("No recording was running, and none was made in this session. Call start_recording first, or draft_flow with from and to to draft from the recent history."), nil
	case !running:
		return mcp.NewToolResultText(fmt.Sprintf("No recording was running; the last one holds actions %d–%d. Call draft_flow to turn it into a flow document.", from, to)), nil
	case to < from:
		return mcp.NewToolResultText("Stopped the recording; it holds no actions that worked. Call start_recording and do the task again."), nil
	}
	return mcp.NewToolResultText(fmt.Sprintf("Stopped the recording: actions %d–%d. Call draft_flow to turn them into a flow document.", from, to)), nil
}

// Draft is draft_flow's structured result.
type Draft struct {
	Document flows.Flow `json:"document"`
	From     int        `json:"from"`
	To       int        `json:"to"`
	Notes    []string   `json:"notes"`
}

func (f *flowTools) draftFlow(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	s, err := f.session(ctx)
	if err != nil {
		return nil, err
	}
	name := req.GetString("name", "recorded-flow")
	from, to := int(req.GetFloat("from", 0)), int(req.GetFloat("to", 0))
	if from == 0 && to == 0 {
		// The running recording, else the last one stopped, else all.
		if r := s.Recording(); r != 0 {
			from = r
		} else {
			from, to = s.LastRecording()
		}
	}
	acts := s.History(from, to)
	if len(acts) == 0 {
		return nil, refusal.New("There are no recorded page actions in that range.",
			"Do the task with the page tools first (only calls that worked are kept), or call draft_flow without from and to for the whole recent history.")
	}
	calls := make([]flows.Recorded, len(acts))
	for i, a := range acts {
		calls[i] = flows.Recorded{Tool: a.Tool, Args: a.Args, URLBefore: a.URLBefore, URLAfter: a.URLAfter}
		if a.Locator != nil {
			b, _ := json.Marshal(a.Locator)
			_ = json.Unmarshal(b, &calls[i].Locator)
		}
	}
	doc, notes := flows.Draft(name, calls)
	if notes == nil {
		notes = []string{}
	}
	d := Draft{Document: doc, From: acts[0].Seq, To: acts[len(acts)-1].Seq, Notes: notes}
	if len(doc.Steps) == 0 {
		why := ""
		if len(notes) > 0 {
			why = " (" + strings.Join(notes, "; ") + ")"
		}
		return nil, refusal.New(fmt.Sprintf("Actions %d–%d hold nothing a flow can replay%s: a flow of them would do nothing.", d.From, d.To, why),
			"Act on the page (navigate, click, write, select) and call draft_flow again.")
	}
	body, _ := json.MarshalIndent(doc, "", "  ")
	text := fmt.Sprintf("A draft flow of %d steps from actions %d–%d (%s). Review it — rename parameters, add assert steps that prove success, mark values to return with \"return\" — then call save_flow with the document. Nothing is saved yet.\n%s",
		len(doc.Steps), d.From, d.To, strings.Join(notes, "; "), body)
	return mcp.NewToolResultStructured(d, text), nil
}
