package server

// Progress delivery for run_flow. It lives with the transports because
// whether a notification has reached the client depends on how the
// transport writes it; tools only report steps (tools.ProgressFunc).

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/flows"
)

// progressFor sends notifications/progress for a request that asked for
// them with a progress token. The second function waits, briefly, until
// the notifications sent have been written to the client, so that the
// result neither overtakes one (stdio) nor drops one (Streamable HTTP);
// call it before returning the result.
func progressFor(ctx context.Context, req mcp.CallToolRequest) (flows.Progress, func()) {
	none := func() {}
	if p, ok := ctx.Value(streamProgressKey{}).(flows.Progress); ok {
		return p, none // an HTTP run streaming Server-Sent Events (flowsapi.go)
	}
	if req.Params.Meta == nil || req.Params.Meta.ProgressToken == nil {
		return nil, none
	}
	token := req.Params.Meta.ProgressToken
	srv := mcpserver.ServerFromContext(ctx)
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
// trackProgress (HTTP: flushes of the POST, which the forwarder makes after
// each notification) and countProgress (stdio: progress lines written) tell
// when the notifications are on the wire. When they fall short (a
// standalone GET stream took a notification, say) the wait ends at
// deliveryWait.
func awaitDelivery(ctx context.Context, tr tracker, ticket int) {
	deadline := time.Now().Add(deliveryWait)
	if s := mcpserver.ClientSessionFromContext(ctx); s != nil {
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

// trackProgress wraps the Streamable HTTP endpoint so that run_flow can
// tell when its progress notifications have been written to the POST's
// event stream (see awaitDelivery). Only notifications are streamed while
// a tool runs, and the stream is flushed after each.
func trackProgress(next http.Handler) http.Handler {
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

// countProgress wraps the stdio server's output so that run_flow can tell
// when its progress notifications have been written (see awaitDelivery);
// the context function adds the count to each request's context.
func countProgress(w io.Writer) (io.Writer, func(context.Context) context.Context) {
	c := newCounter()
	return &lineWriter{w: w, count: c}, func(ctx context.Context) context.Context {
		return context.WithValue(ctx, trackerKey{}, tracker(c))
	}
}
