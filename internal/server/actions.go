package server

// The action API: every tool is also an HTTP endpoint (POST /browser/{tool}
// for the page tools, the flow and resource routes for the others; see
// routes.go). A request reaches the very handler tools/call reaches,
// behind the same middleware (Server.handle), so validation, redaction and
// refusal sentences are the same on both surfaces; only the envelope
// differs: JSON in, JSON out, and an HTTP status from the refusal's Kind.

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/tools"
)

// BrowserPrefix is where the page tools are served: POST /browser/navigate
// takes navigate's arguments as its JSON body.
const BrowserPrefix = "/browser/"

// ToolAnswer is what an action endpoint answers when the tool succeeded.
type ToolAnswer struct {
	// Tool is the tool that ran.
	Tool string `json:"tool"`
	// Text is the tool's text, as an MCP client reads it.
	Text string `json:"text"`
	// Result is the tool's structured result, when it has one (run_flow's
	// per-step report).
	Result any `json:"result,omitempty"`
	// Images describe the images the tool answered (a screenshot); ask
	// with Accept: image/png for the bytes themselves.
	Images []ImageInfo `json:"images,omitempty"`
	// Files are the files the tool kept, each with a signed link that
	// works without a token until it expires.
	Files []FileLinkInfo `json:"files,omitempty"`
}

// FileLinkInfo is a file a tool kept.
type FileLinkInfo struct {
	URI      string `json:"uri"`
	Name     string `json:"name"`
	MIMEType string `json:"mimeType,omitempty"`
	Link     string `json:"link,omitempty"`
}

// ImageInfo is an image of a tool's result, without its bytes.
type ImageInfo struct {
	MIMEType string `json:"mimeType"`
	Bytes    int    `json:"bytes"`
}

// ErrorAnswer is the JSON body of every refused action: the same sentence
// an MCP client reads in the isError result, and the status it came with.
type ErrorAnswer struct {
	Error  string `json:"error"`
	Tool   string `json:"tool,omitempty"`
	Status int    `json:"status"`
}

// refusalNote carries, for one HTTP call, the error the refusals
// middleware turned into an isError result, so that the status follows
// from its type. MCP calls carry none and see only the sentence.
type refusalNote struct {
	mu  sync.Mutex
	err error
}

type refusalNoteKey struct{}

// noteRefusal records err for the HTTP call whose context asked for it.
func noteRefusal(ctx context.Context, err error) {
	if n, ok := ctx.Value(refusalNoteKey{}).(*refusalNote); ok {
		n.mu.Lock()
		n.err = err
		n.mu.Unlock()
	}
}

// pageTool serves POST /browser/{tool}.
func (s *Server) servePageTool(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("tool")
	route, ok := s.route(name)
	if !ok || route.Path != BrowserPrefix+name {
		writeError(w, ErrorAnswer{Tool: excerpt(name), Status: http.StatusNotFound,
			Error: fmt.Sprintf("There is no page tool %q. POST to %s{tool} with one of: %s; GET %s lists every endpoint.", excerpt(name), BrowserPrefix, strings.Join(s.pageToolNames(), ", "), OpenAPIPath)})
		return
	}
	if name == "upload_file" {
		s.uploadFile(w, r) // the file may travel in the request (uploadapi.go)
		return
	}
	args, err := jsonArgs(r)
	if err != nil {
		writeError(w, ErrorAnswer{Tool: name, Status: http.StatusBadRequest, Error: err.Error()})
		return
	}
	s.answerTool(w, r, name, args)
}

// jsonArgs reads a request body that is a JSON object of arguments; an
// empty body is no arguments.
func jsonArgs(r *http.Request) (map[string]any, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return nil, errors.New("The request body could not be read. Send the tool's arguments as a JSON object.")
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return map[string]any{}, nil
	}
	// curl -d sends application/x-www-form-urlencoded unless told
	// otherwise: a JSON body under that type is taken as JSON. A browser
	// page cannot use this to call across sites: guardHTTP refuses its
	// Origin.
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "" && mt != "application/json" && !strings.HasSuffix(mt, "+json") &&
		mt != "application/x-www-form-urlencoded" && mt != "text/plain" {
		return nil, fmt.Errorf("The body is %s, not JSON. Send the tool's arguments as a JSON object with Content-Type: application/json.", excerpt(mt))
	}
	var args map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&args); err != nil || args == nil || dec.More() {
		return nil, errors.New(`The body is not a JSON object. Send the tool's arguments as one object, e.g. {"url": "https://example.com"}; ` + OpenAPIPath + " gives each tool's schema.")
	}
	return normalizeNumbers(args).(map[string]any), nil
}

// normalizeNumbers makes json.Numbers float64, as tools/call's decoding
// gives them to handlers; UseNumber only kept big integers exact while
// decoding.
func normalizeNumbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String()
		}
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = normalizeNumbers(e)
		}
	}
	return v
}

// callTool runs one tool as the HTTP caller, through Server.handle, and
// returns its result and the error a refusal was made from.
func (s *Server) callTool(ctx context.Context, name string, args map[string]any) (*mcp.CallToolResult, error) {
	i := slices.IndexFunc(s.tools, func(t tools.Tool) bool { return t.Def.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("the tool %s is not served here", name)
	}
	note := &refusalNote{}
	ctx = context.WithValue(ctx, refusalNoteKey{}, note)
	req := mcp.CallToolRequest{}
	req.Params.Name = name
	req.Params.Arguments = args
	res, err := s.handle(s.tools[i].Handler)(ctx, req)
	if err == nil && res != nil && res.IsError {
		note.mu.Lock()
		err = note.err
		note.mu.Unlock()
		err = &toolError{text: resultText(res), cause: err}
	}
	return res, err
}

// toolError is a refused call: the sentence the client reads (scrubbed
// and redacted by the middleware) with the error it was made from, whose
// type gives the status.
type toolError struct {
	text  string
	cause error
}

func (e *toolError) Error() string { return e.text }
func (e *toolError) Unwrap() error { return e.cause }

// requestContext is an HTTP request's context as the MCP endpoint builds
// it: the principal (from the token middleware) and the surface setting.
func requestContext(r *http.Request) context.Context {
	set, _ := surface.SettingFromRequest(r)
	return surface.WithSetting(r.Context(), set)
}

// answerTool runs a tool for an HTTP request and writes its answer: the
// image's bytes when the caller accepts only its type, else JSON.
func (s *Server) answerTool(w http.ResponseWriter, r *http.Request, name string, args map[string]any) {
	res, err := s.callTool(requestContext(r), name, args)
	if err != nil {
		s.writeToolError(w, name, err)
		return
	}
	ans := ToolAnswer{Tool: name, Text: resultText(res), Result: res.StructuredContent}
	var img *mcp.ImageContent
	for _, c := range res.Content {
		if l, ok := c.(mcp.ResourceLink); ok {
			ans.Files = append(ans.Files, FileLinkInfo{URI: l.URI, Name: l.Name, MIMEType: l.MIMEType, Link: s.sessions.Link(principalOf(r), l.Name)})
		}
		if ic, ok := c.(mcp.ImageContent); ok {
			data, _ := base64.StdEncoding.DecodeString(ic.Data)
			ans.Images = append(ans.Images, ImageInfo{MIMEType: ic.MIMEType, Bytes: len(data)})
			if img == nil {
				img = &ic
			}
		}
	}
	if img != nil && wantsImage(r, img.MIMEType) {
		data, _ := base64.StdEncoding.DecodeString(img.Data)
		h := w.Header()
		h.Set("Content-Type", img.MIMEType)
		h.Set("Content-Length", strconv.Itoa(len(data)))
		h.Set("X-Content-Type-Options", "nosniff")
		_, _ = w.Write(data)
		return
	}
	writeJSON(w, http.StatusOK, ans)
}

// wantsImage reports whether the caller asked for the image's bytes
// (Accept names its type, or image/*) rather than JSON.
func wantsImage(r *http.Request, typ string) bool {
	for _, part := range strings.Split(r.Header.Get("Accept"), ",") {
		mt, _, _ := mime.ParseMediaType(strings.TrimSpace(part))
		if mt == typ || mt == "image/*" {
			return true
		}
	}
	return false
}

// writeToolError answers a refused call with its sentence and the status
// its Kind gives; a failure nobody's mistake is 502 when the browser
// failed and 500 only for a server bug.
func (s *Server) writeToolError(w http.ResponseWriter, name string, err error) {
	status := statusOf(err)
	text := s.scrub.Text(err)
	if te, ok := errors.AsType[*toolError](err); ok {
		text = te.text
		if status == http.StatusInternalServerError && te.cause != nil {
			// Not the caller's mistake and not a panic (which leaves no
			// cause): the browser or its driver failed.
			status = http.StatusBadGateway
		}
	}
	writeError(w, ErrorAnswer{Error: text, Tool: name, Status: status})
}

func resultText(res *mcp.CallToolResult) string {
	if res == nil {
		return ""
	}
	var parts []string
	for _, c := range res.Content {
		if t, ok := c.(mcp.TextContent); ok {
			parts = append(parts, t.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		http.Error(w, "the answer could not be encoded", http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

func writeError(w http.ResponseWriter, e ErrorAnswer) { writeJSON(w, e.Status, e) }

// mountActions adds the action, flow, file, secret and operational routes
// to the mux that serves /mcp, behind the same token check.
func (s *Server) mountActions(mux *http.ServeMux) {
	mux.HandleFunc("POST "+BrowserPrefix+"{tool}", s.servePageTool)
	s.mountFlowsAPI(mux)
	s.mountOps(mux)
}

// principalOf is the principal an HTTP request is served as.
func principalOf(r *http.Request) string { return auth.Principal(r.Context()) }
