package telemetry

import (
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/otel/trace/noop"
)

// BenchmarkToolCallRecord is what observing one tool call costs with
// tracing off: a no-op span, a counter and a histogram.
func BenchmarkToolCallRecord(b *testing.B) {
	m := NewMetrics()
	tr := noop.NewTracerProvider().Tracer(TracerName)
	ctx := context.Background()
	for b.Loop() {
		_, span := tr.Start(ctx, "tools/call click")
		m.ToolCall("click", OK, time.Millisecond)
		span.End()
	}
}

// BenchmarkCommand is the template of one WebDriver command, made for
// each command a page action sends.
func BenchmarkCommand(b *testing.B) {
	for b.Loop() {
		Command("POST", "/session/3f2a9c0e5b7d41e6a8c9d0e1f2a3b4c5/element/f.5E2B.d.1A.e.42/click")
	}
}
