package telemetry

import (
	"context"
	"fmt"
	"strings"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"go.opentelemetry.io/otel/trace/noop"
)

// TracerName is the instrumentation scope of every span the server makes.
const TracerName = "github.com/selenium-flow/selenium-flow"

// Tracing is the tracer provider the standard OpenTelemetry variables ask
// for (getenv is os.Getenv). It is off — a provider that records nothing —
// unless OTEL_TRACES_EXPORTER is "otlp", or is unset while an OTLP endpoint
// is (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
// OTEL_SDK_DISABLED=true turns it off whatever else is set. Spans go over
// OTLP/HTTP with the exporter's other OTEL_EXPORTER_OTLP_* variables as the
// SDK reads them, named by OTEL_SERVICE_NAME. shutdown flushes what is
// pending; call it once, at exit.
func Tracing(ctx context.Context, getenv func(string) string) (tp trace.TracerProvider, shutdown func(), err error) {
	exp := strings.TrimSpace(getenv("OTEL_TRACES_EXPORTER"))
	if exp == "" && (getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "") {
		exp = "otlp"
	}
	if strings.EqualFold(strings.TrimSpace(getenv("OTEL_SDK_DISABLED")), "true") {
		exp = "none"
	}
	switch exp {
	case "", "none":
		return noop.NewTracerProvider(), func() {}, nil
	case "otlp":
		p := getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
		if p == "" {
			p = getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
		}
		if p != "" && p != "http/protobuf" {
			return nil, nil, fmt.Errorf("OTEL_EXPORTER_OTLP_PROTOCOL=%q is not served; selenium-flow exports traces over http/protobuf: unset it or set http/protobuf", p)
		}
		exporter, err := otlptracehttp.New(ctx)
		if err != nil {
			return nil, nil, fmt.Errorf("the OTLP trace exporter (OTEL_EXPORTER_OTLP_*) cannot start: %w", err)
		}
		return Provider(sdktrace.NewBatchSpanProcessor(exporter))
	default:
		return nil, nil, fmt.Errorf("OTEL_TRACES_EXPORTER=%q is not served; use otlp (with OTEL_EXPORTER_OTLP_ENDPOINT) or none", exp)
	}
}

// Provider is an SDK tracer provider sending every span to processor,
// named by OTEL_SERVICE_NAME or else "selenium-flow"; tests give it a
// tracetest exporter through sdktrace.NewSimpleSpanProcessor.
func Provider(processor sdktrace.SpanProcessor) (trace.TracerProvider, func(), error) {
	res, err := resource.Merge(resource.Default(), resource.NewSchemaless(semconv.ServiceName("selenium-flow")))
	if err != nil {
		return nil, nil, err
	}
	// The environment's OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES win
	// over the default name.
	if env, err := resource.New(context.Background(), resource.WithFromEnv()); err == nil {
		if merged, err := resource.Merge(res, env); err == nil {
			res = merged
		}
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(processor), sdktrace.WithResource(res))
	return tp, func() { _ = tp.Shutdown(context.Background()) }, nil
}
