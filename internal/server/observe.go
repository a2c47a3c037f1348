package server

// What an operator sees of the server at work: the metrics of /metrics,
// the spans of a tool call and its WebDriver commands, and one log line
// per tool call and per HTTP request (package telemetry). Everything is
// recorded here, in the one tool middleware chain (handle) and the
// outermost HTTP handler, so no tool and no route needs code of its own.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/telemetry"
)

// MetricsPath is where the Prometheus metrics are served.
const MetricsPath = "/metrics"

// observer holds one server's metrics, tracer and logger.
type observer struct {
	metrics  *telemetry.Metrics
	tracer   trace.Tracer
	actions  *telemetry.Actions
	log      *slog.Logger
	endpoint string // "local" or "grid", the open-browsers label
}

// newObserver makes the server's observer; open counts the callers with a
// browser open, at each scrape.
func newObserver(cfg Config, open func() int) *observer {
	o := &observer{endpoint: "local", log: cfg.Logger, actions: telemetry.NewActions()}
	if cfg.SeleniumURL != "" {
		o.endpoint = "grid"
	}
	if o.log == nil {
		o.log = slog.Default()
	}
	tp := cfg.TracerProvider
	if tp == nil {
		tp = noop.NewTracerProvider()
	}
	o.tracer = tp.Tracer(telemetry.TracerName)
	o.metrics = telemetry.NewMetrics(telemetry.WithOpenBrowsers(o.endpoint, open), telemetry.WithProcessMetrics())
	return o
}

// webDriver wraps the WebDriver client's transport (browser.WithTransport).
func (o *observer) webDriver(next http.RoundTripper) http.RoundTripper {
	return telemetry.WebDriver{Next: next, Metrics: o.metrics, Endpoint: o.endpoint, Tracer: o.tracer, Actions: o.actions}
}

// PrincipalID is the id log lines give a principal: the first 12 hex digits
// of the SHA-256 of its name, so an operator who knows a name can find its
// lines (printf %s NAME | sha256sum) and a log shows no one's name.
func PrincipalID(name string) string {
	if name == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(name))
	return hex.EncodeToString(sum[:6])
}

type flowRunKey struct{}

// observe records a tool call: its span (with the WebDriver commands it
// sends as children), its count and time by tool and outcome, a flow
// step's outcome when it runs inside run_flow, and one log line. It sits
// inside refusals, so it sees the error a handler returned (a refusal or
// not) and a panic as an error.
func (s *Server) observe(next mcpserver.ToolHandlerFunc) mcpserver.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
		o, tool := s.obs, req.Params.Name
		step := ctx.Value(flowRunKey{}) != nil
		if tool == "run_flow" {
			ctx = context.WithValue(ctx, flowRunKey{}, true)
		}
		ctx, span := o.tracer.Start(ctx, "tools/call "+tool, trace.WithAttributes(
			attribute.String("mcp.method.name", "tools/call"), attribute.String("gen_ai.tool.name", tool), attribute.Bool("selenium_flow.flow_step", step)))
		principal := auth.Principal(ctx)
		if open := s.sessions.Peek(sessions.OwnerOf(ctx)); open != nil {
			defer o.actions.Begin(open.ID(), ctx)()
		}
		start := time.Now()
		outcome := telemetry.Error // a panic leaves it so; refusals recovers
		defer func() {
			d := time.Since(start)
			o.metrics.ToolCall(tool, outcome, d)
			if step {
				o.metrics.FlowStep(tool, outcome)
			}
			if tool == "run_flow" {
				o.metrics.FlowRun(outcome)
			}
			if outcome != telemetry.OK {
				span.SetStatus(codes.Error, string(outcome))
			}
			span.SetAttributes(attribute.String("selenium_flow.outcome", string(outcome)))
			span.End()
			method := "tools/call"
			if step {
				method = "flow step"
			}
			o.log.LogAttrs(ctx, slog.LevelInfo, "tool call", slog.String("method", method), slog.String("tool", tool),
				slog.Duration("duration", d), slog.String("outcome", string(outcome)), slog.String("principal", PrincipalID(principal)))
		}()
		res, err = next(ctx, req)
		outcome = outcomeOf(res, err)
		return res, err
	}
}

// outcomeOf is how a handler's answer ended: a refusal (an isError result,
// or a refusal.Error) says what to do next; any other error is one the
// server did not foresee.
func outcomeOf(res *mcp.CallToolResult, err error) telemetry.Outcome {
	var r *refusal.Error
	switch {
	case err != nil && errors.As(err, &r):
		return telemetry.Refused
	case err != nil:
		return telemetry.Error
	case res != nil && res.IsError:
		return telemetry.Refused
	}
	return telemetry.OK
}

// principalSlot carries the principal auth found back out to the access
// log, which runs outside the auth middleware.
type principalSlot struct{ name string }

type principalSlotKey struct{}

// notePrincipal, just inside the auth middleware, writes the request's
// principal into the access log's slot.
func notePrincipal(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if slot, ok := r.Context().Value(principalSlotKey{}).(*principalSlot); ok {
			slot.name = auth.Principal(r.Context())
		}
		next.ServeHTTP(w, r)
	})
}

// observeHTTP is the outermost HTTP handler: a span per request, its count
// and time by route template and status, and one access log line with the
// route template (never the path: file and workspace names stay out).
func (s *Server) observeHTTP(mux *http.ServeMux, next http.Handler) http.Handler {
	o := s.obs
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		route, method := routeOf(mux, r), methodOf(r)
		slot := &principalSlot{}
		ctx, span := o.tracer.Start(context.WithValue(r.Context(), principalSlotKey{}, slot), method+" "+route,
			trace.WithSpanKind(trace.SpanKindServer), trace.WithAttributes(attribute.String("http.route", route), attribute.String("http.request.method", method)))
		defer span.End()
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		start := time.Now()
		next.ServeHTTP(rec, r.WithContext(ctx))
		d := time.Since(start)
		span.SetAttributes(attribute.Int("http.response.status_code", rec.status))
		if rec.status >= 500 {
			span.SetStatus(codes.Error, http.StatusText(rec.status))
		}
		o.metrics.HTTPRequest(route, method, rec.status, d)
		o.log.LogAttrs(ctx, slog.LevelInfo, "http request", slog.String("method", method), slog.String("route", route),
			slog.Int("status", rec.status), slog.Duration("duration", d), slog.String("principal", PrincipalID(slot.name)))
	})
}

// methodOf is the request's method when HTTP defines it, else "other": a
// client's made-up method is no label.
func methodOf(r *http.Request) string {
	switch r.Method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		return r.Method
	}
	return "other"
}

// routeOf is the mux pattern a request reaches, "unmatched" for none.
func routeOf(mux *http.ServeMux, r *http.Request) string {
	if strings.HasPrefix(r.URL.Path, ReadPrefix) && r.Method == http.MethodGet {
		return "GET " + ReadPrefix + "{uri...}" // keepURIPaths's, whatever the mux makes of "//"
	}
	if _, pattern := mux.Handler(r); pattern != "" {
		return pattern
	}
	return "unmatched"
}

// statusRecorder remembers the status a handler wrote. It passes Flush
// on: Streamable HTTP streams its answers.
type statusRecorder struct {
	http.ResponseWriter
	status int
	wrote  bool
}

func (r *statusRecorder) WriteHeader(code int) {
	if !r.wrote {
		r.status, r.wrote = code, true
	}
	r.ResponseWriter.WriteHeader(code)
}

func (r *statusRecorder) Write(b []byte) (int, error) {
	r.wrote = true
	return r.ResponseWriter.Write(b)
}

func (r *statusRecorder) Flush() {
	if f, ok := r.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection.
func (r *statusRecorder) Unwrap() http.ResponseWriter { return r.ResponseWriter }

// metricsAuth serves /metrics before the token check when the operator
// made it public (FLOW_METRICS_PUBLIC=1); otherwise it needs a token like
// every other path.
func (s *Server) metricsAuth(next http.Handler) http.Handler {
	if !s.cfg.MetricsPublic {
		return next
	}
	metrics := s.obs.metrics.Handler()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == MetricsPath && r.Method == http.MethodGet {
			metrics.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// StoreOp is the hook a store calls for each operation (store kind, verb,
// outcome), counted in /metrics; no name of what is stored.
func (s *Server) StoreOp(store, op string, o telemetry.Outcome) { s.obs.metrics.StoreOp(store, op, o) }
