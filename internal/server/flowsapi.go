package server

// The flow, file and secret routes of the HTTP surface. Reads answer the
// resource that shows the same thing (flow://flows, session://files,
// secret://secrets), so both surfaces show one view; writes and runs call
// the flow tools through actions.go.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/flows"
)

// The collection paths of the HTTP surface.
const (
	FlowsPath   = "/flows"
	FilesPath   = "/files"
	SecretsPath = "/secrets"
)

// mountFlowsAPI adds the flow, file and secret routes to mux.
func (s *Server) mountFlowsAPI(mux *http.ServeMux) {
	mux.HandleFunc("GET "+FlowsPath, s.resourceRoute(func(*http.Request) string { return "flow://flows" }))
	mux.HandleFunc("GET "+FlowsPath+"/{name}", s.resourceRoute(func(r *http.Request) string { return flows.URI(r.PathValue("name")) }))
	mux.HandleFunc("PUT "+FlowsPath+"/{name}", s.putFlow)
	mux.HandleFunc("DELETE "+FlowsPath+"/{name}", s.deleteFlow)
	mux.HandleFunc("POST "+FlowsPath+"/{name}/runs", s.runFlow)
	mux.HandleFunc("GET "+FilesPath, s.resourceRoute(func(*http.Request) string { return "session://files" }))
	mux.HandleFunc("DELETE "+FilesPath+"/{name}", s.deleteFile)
	mux.HandleFunc("POST "+FilesPath, s.postFile)
	mux.HandleFunc("GET "+SecretsPath, s.resourceRoute(func(*http.Request) string { return "secret://secrets" }))
	mux.HandleFunc("GET "+strings.TrimSuffix(ReadPrefix, "/"), s.listResources)
	mux.HandleFunc("GET "+ReadPrefix+"{$}", s.listResources)
}

// resourceRoute answers a GET with the resource uri names.
func (s *Server) resourceRoute(uri func(*http.Request) string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		s.writeResource(w, r.WithContext(requestContext(r)), uri(r))
	}
}

// putFlow serves PUT /flows/{name}: the body is the flow document, saved
// with save_flow. A document without a name takes the path's; one with
// another name is refused rather than saved under either.
func (s *Server) putFlow(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	doc, err := jsonArgs(r)
	if err != nil {
		writeError(w, ErrorAnswer{Tool: "save_flow", Status: http.StatusBadRequest, Error: err.Error() + " The body of PUT " + FlowsPath + "/{name} is the flow document (shape: flow://schema)."})
		return
	}
	switch given := doc["name"].(type) {
	case nil:
		doc["name"] = name
	case string:
		if given != name {
			writeError(w, ErrorAnswer{Tool: "save_flow", Status: http.StatusBadRequest,
				Error: fmt.Sprintf("The document is named %q but was sent to %s/%s. PUT it to %s/%s, or change its name to %q.", excerpt(given), FlowsPath, excerpt(name), FlowsPath, url.PathEscape(excerpt(given)), excerpt(name))})
			return
		}
	}
	s.answerTool(w, r, "save_flow", map[string]any{"document": doc})
}

// deleteFlow serves DELETE /flows/{name} with delete_flow.
func (s *Server) deleteFlow(w http.ResponseWriter, r *http.Request) {
	s.answerTool(w, r, "delete_flow", map[string]any{"name": r.PathValue("name")})
}

// runFlow serves POST /flows/{name}/runs with run_flow: the body is
// {"params": {...}} (or empty), the answer the per-step report. A caller
// that accepts text/event-stream gets each step as a progress event as it
// finishes, then the result (or error) event.
func (s *Server) runFlow(w http.ResponseWriter, r *http.Request) {
	args, err := jsonArgs(r)
	if err != nil {
		writeError(w, ErrorAnswer{Tool: "run_flow", Status: http.StatusBadRequest, Error: err.Error() + ` The body of a run is {"params": {...}} or empty.`})
		return
	}
	if _, given := args["name"]; given {
		writeError(w, ErrorAnswer{Tool: "run_flow", Status: http.StatusBadRequest, Error: `The flow's name goes in the path, not the body. POST ` + FlowsPath + `/{name}/runs with {"params": {...}}.`})
		return
	}
	args["name"] = r.PathValue("name")
	if !acceptsEvents(r) {
		s.answerTool(w, r, "run_flow", args)
		return
	}
	st := &eventStream{w: w}
	ctx := withStreamProgress(requestContext(r), func(done, total int, message string) {
		st.send("progress", map[string]any{"progress": done, "total": total, "message": message})
	})
	res, err := s.callTool(ctx, "run_flow", args)
	if err != nil && !st.started() {
		s.writeToolError(w, "run_flow", err) // refused before any step ran: a plain status
		return
	}
	if err != nil {
		text := s.scrub.Text(err)
		if te, ok := errors.AsType[*toolError](err); ok {
			text = te.text
		}
		st.send("error", ErrorAnswer{Error: text, Tool: "run_flow", Status: statusOf(err)})
		return
	}
	st.send("result", ToolAnswer{Tool: "run_flow", Text: resultText(res), Result: res.StructuredContent})
}

// acceptsEvents reports whether the caller asked for Server-Sent Events.
func acceptsEvents(r *http.Request) bool {
	for _, v := range r.Header.Values("Accept") {
		for _, part := range strings.Split(v, ",") {
			if mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part)); mt == "text/event-stream" {
				return true
			}
		}
	}
	return false
}

// eventStream writes Server-Sent Events, starting the response (200,
// text/event-stream) at the first event.
type eventStream struct {
	mu    sync.Mutex
	w     http.ResponseWriter
	begun bool
}

func (e *eventStream) started() bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.begun
}

func (e *eventStream) send(event string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if !e.begun {
		h := e.w.Header()
		h.Set("Content-Type", "text/event-stream")
		h.Set("Cache-Control", "no-store")
		h.Set("X-Content-Type-Options", "nosniff")
		e.w.WriteHeader(http.StatusOK)
		e.begun = true
	}
	_, _ = fmt.Fprintf(e.w, "event: %s\ndata: %s\n\n", event, data)
	_ = http.NewResponseController(e.w).Flush()
}

type streamProgressKey struct{}

// withStreamProgress makes run_flow report its steps to p (progressFor
// looks for it first).
func withStreamProgress(ctx context.Context, p flows.Progress) context.Context {
	return context.WithValue(ctx, streamProgressKey{}, p)
}

// deleteFile serves DELETE /files/{name}: one of the caller's kept files.
func (s *Server) deleteFile(w http.ResponseWriter, r *http.Request) {
	box, err := s.sessions.Files(auth.Principal(r.Context()))
	if err == nil {
		err = box.Delete(r.PathValue("name"))
	}
	if err != nil {
		writeError(w, ErrorAnswer{Error: s.scrub.Text(err), Status: statusOf(err)})
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// ResourceItem is one resource in GET /resources, the list_resources of
// the HTTP surface.
type ResourceItem struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MIMEType    string `json:"mimeType,omitempty"`
	Template    bool   `json:"template,omitempty"`
	Path        string `json:"path"`
}

// listResources serves GET /resources: every resource and template the
// table serves, with the path that reads each.
func (s *Server) listResources(w http.ResponseWriter, _ *http.Request) {
	var out []ResourceItem
	for _, e := range s.table.Entries() {
		if e.Hidden || e.Unlisted {
			continue
		}
		out = append(out, ResourceItem{URI: e.URI, Name: e.Name, Title: e.Title, Description: e.Description, MIMEType: e.MIMEType, Template: e.Template, Path: ReadPrefix + e.URI})
	}
	writeJSON(w, http.StatusOK, map[string]any{"resources": out})
}
