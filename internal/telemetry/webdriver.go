package telemetry

import (
	"context"
	"net/http"
	"strings"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
)

// WebDriver is an http.RoundTripper for the WebDriver client: each
// command is counted by its template (POST /session/{id}/element/{id}/click),
// a failure at the endpoint (5xx, no answer) counted as a driver error,
// and, when the command belongs to a page action the Actions know, traced
// as a child span of that action. The zero value of each field turns its
// part off.
type WebDriver struct {
	// Next sends the request.
	Next http.RoundTripper
	// Metrics counts commands and errors; Endpoint is their kind label
	// ("local" or "grid").
	Metrics  *Metrics
	Endpoint string
	// Tracer makes a span per command under the action Actions knows for
	// the command's WebDriver session.
	Tracer  trace.Tracer
	Actions *Actions
}

// RoundTrip sends one WebDriver command.
func (w WebDriver) RoundTrip(r *http.Request) (*http.Response, error) {
	cmd := Command(r.Method, r.URL.Path)
	if parent, ok := w.Actions.parent(r.URL.Path); ok && w.Tracer != nil {
		ctx, span := w.Tracer.Start(parent, "webdriver "+cmd, trace.WithSpanKind(trace.SpanKindClient),
			trace.WithAttributes(attribute.String("webdriver.command", cmd), attribute.String("webdriver.endpoint", w.Endpoint)))
		defer span.End()
		// The request keeps its own deadline; only the span is the
		// action's.
		r = r.WithContext(trace.ContextWithSpan(r.Context(), trace.SpanFromContext(ctx)))
		resp, err := w.send(r, cmd)
		switch {
		case err != nil:
			span.SetStatus(codes.Error, "no answer")
		case resp.StatusCode >= 400:
			span.SetAttributes(attribute.Int("http.response.status_code", resp.StatusCode))
			span.SetStatus(codes.Error, http.StatusText(resp.StatusCode))
		}
		return resp, err
	}
	return w.send(r, cmd)
}

func (w WebDriver) send(r *http.Request, cmd string) (*http.Response, error) {
	resp, err := w.Next.RoundTrip(r)
	if w.Metrics != nil {
		w.Metrics.driverCalls.WithLabelValues(w.Endpoint, cmd).Inc()
		if err != nil || resp.StatusCode >= 500 {
			w.Metrics.driverErrors.WithLabelValues(w.Endpoint, cmd).Inc()
		}
	}
	return resp, err
}

// Command is a WebDriver request's template: the method and the path
// from /session on, every session, element, shadow root and file id
// replaced by {id}, so it names the command and nothing of the caller's.
func Command(method, path string) string {
	segs := strings.Split(strings.Trim(path, "/"), "/")
	start := len(segs)
	for i, s := range segs {
		if s == "session" || s == "status" {
			start = i
			break
		}
	}
	if start == len(segs) {
		return method + " /{other}"
	}
	out := make([]string, 0, len(segs)-start)
	for i := start; i < len(segs); i++ {
		s := segs[i]
		if i > start {
			switch segs[i-1] {
			case "session", "element", "shadow", "window", "frame", "cookie", "attribute", "property", "css", "files":
				if s != "" && s != "active" && s != "rect" && s != "parent" && s != "new" && s != "handles" {
					s = "{id}"
				}
			}
		}
		if !known(s) && s != "{id}" {
			s = "{id}"
		}
		out = append(out, s)
	}
	return method + " /" + strings.Join(out, "/")
}

// known reports a path segment that is a word of the WebDriver protocol
// (or a vendor extension's), not an id.
func known(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c == '_' || c == '-' || c == ':') {
			return false
		}
	}
	return true
}

// Actions maps WebDriver sessions to the page action using each now, so
// the commands it sends are traced under it. The server makes one per
// server value. The WebDriver client sends its commands without the
// action's context; this is how they find it.
type Actions struct {
	mu     sync.Mutex
	active map[string]context.Context // WebDriver session id -> the action's context
}

// NewActions makes an empty map.
func NewActions() *Actions { return &Actions{active: map[string]context.Context{}} }

// Begin marks ctx as the action using the WebDriver session id until the
// returned end is called.
func (a *Actions) Begin(id string, ctx context.Context) (end func()) {
	if a == nil || id == "" {
		return func() {}
	}
	a.mu.Lock()
	a.active[id] = ctx
	a.mu.Unlock()
	return func() {
		a.mu.Lock()
		if a.active[id] == ctx {
			delete(a.active, id)
		}
		a.mu.Unlock()
	}
}

// parent is the context of the action using the session a command's path
// names.
func (a *Actions) parent(path string) (context.Context, bool) {
	if a == nil {
		return nil, false
	}
	_, rest, ok := strings.Cut(path, "/session/")
	if !ok {
		return nil, false
	}
	id, _, _ := strings.Cut(rest, "/")
	a.mu.Lock()
	defer a.mu.Unlock()
	ctx, ok := a.active[id]
	return ctx, ok
}
