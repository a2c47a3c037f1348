package server

// Every MCP request mcp-go answers, whatever its method and transport,
// timed, traced, counted and logged through mcp-go's hooks. tools/call has its own, richer
// line and series from observe (the tool and its outcome), so it is left
// out here.

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/telemetry"
)

// mcpMethods are the methods a label may name; any other a client sends
// is "other", so a label never holds a caller's text.
var mcpMethods = []mcp.MCPMethod{
	mcp.MethodInitialize, mcp.MethodPing, mcp.MethodServerDiscover,
	mcp.MethodResourcesList, mcp.MethodResourcesTemplatesList, mcp.MethodResourcesRead,
	mcp.MethodPromptsList, mcp.MethodPromptsGet, mcp.MethodToolsList,
	mcp.MethodSetLogLevel, mcp.MethodCompletionComplete,
}

// requestTimer remembers when each request began and its span, by its
// context and id. The hooks cannot hand mcp-go a new context, so the span
// has no children; a tool call's span is observe's.
type requestTimer struct {
	mu    sync.Mutex
	start map[requestKey]begun
}

type begun struct {
	at   time.Time
	span trace.Span
}

// maxPending and pendingTTL bound the requests remembered: past that many,
// those older than the TTL are dropped.
const (
	maxPending = 1024
	pendingTTL = 10 * time.Minute
)

type requestKey struct {
	ctx context.Context
	id  string
}

// mcpHooks adds the hooks that time, count and log every request.
func (o *observer) mcpHooks(h *mcpserver.Hooks) {
	t := &requestTimer{start: map[requestKey]begun{}}
	key := func(ctx context.Context, id any) requestKey { return requestKey{ctx, fmt.Sprint(id)} }
	h.AddBeforeAny(func(ctx context.Context, id any, method mcp.MCPMethod, _ any) {
		if method == mcp.MethodToolsCall {
			return
		}
		_, span := o.tracer.Start(ctx, methodName(method), trace.WithAttributes(attribute.String("mcp.method.name", methodName(method))))
		now := time.Now()
		t.mu.Lock()
		t.start[key(ctx, id)] = begun{at: now, span: span}
		if len(t.start) > maxPending {
			// A request mcp-go never finished (no success, no error hook)
			// must not stay forever.
			for k, b := range t.start {
				if now.Sub(b.at) > pendingTTL {
					b.span.End()
					delete(t.start, k)
				}
			}
		}
		t.mu.Unlock()
	})
	done := func(ctx context.Context, id any, method mcp.MCPMethod, outcome telemetry.Outcome) {
		if method == mcp.MethodToolsCall {
			return
		}
		t.mu.Lock()
		began, ok := t.start[key(ctx, id)]
		delete(t.start, key(ctx, id))
		t.mu.Unlock()
		var d time.Duration
		if ok {
			d = time.Since(began.at)
			if outcome != telemetry.OK {
				began.span.SetStatus(codes.Error, string(outcome))
			}
			began.span.End()
		}
		name := methodName(method)
		o.metrics.MCPRequest(name, outcome, d)
		o.log.LogAttrs(ctx, slog.LevelInfo, "mcp request", slog.String("method", name), slog.Duration("duration", d),
			slog.String("outcome", string(outcome)), slog.String("principal", PrincipalID(auth.Principal(ctx))))
	}
	h.AddOnSuccess(func(ctx context.Context, id any, method mcp.MCPMethod, _ any, _ any) {
		done(ctx, id, method, telemetry.OK)
	})
	h.AddOnError(func(ctx context.Context, id any, method mcp.MCPMethod, _ any, _ error) {
		done(ctx, id, method, telemetry.Refused)
	})
}

// methodName is the method as a label may name it.
func methodName(m mcp.MCPMethod) string {
	if slices.Contains(mcpMethods, m) {
		return string(m)
	}
	return "other"
}
