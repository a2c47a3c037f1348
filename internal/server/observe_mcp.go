package server

// Every MCP request mcp-go answers, whatever its method and transport,
// counted and logged through mcp-go's hooks. tools/call has its own, richer
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

// requestTimer remembers when each request began, by its context and id.
type requestTimer struct {
	mu    sync.Mutex
	start map[requestKey]time.Time
}

type requestKey struct {
	ctx context.Context
	id  string
}

// mcpHooks adds the hooks that time, count and log every request.
func (o *observer) mcpHooks(h *mcpserver.Hooks) {
	t := &requestTimer{start: map[requestKey]time.Time{}}
	key := func(ctx context.Context, id any) requestKey { return requestKey{ctx, fmt.Sprint(id)} }
	h.AddBeforeAny(func(ctx context.Context, id any, method mcp.MCPMethod, _ any) {
		if method == mcp.MethodToolsCall {
			return
		}
		t.mu.Lock()
		t.start[key(ctx, id)] = time.Now()
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
			d = time.Since(began)
		}
		name := "other"
		if slices.Contains(mcpMethods, method) {
			name = string(method)
		}
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
