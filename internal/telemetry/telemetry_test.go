package telemetry

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"go.opentelemetry.io/otel/trace"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

func TestCommand(t *testing.T) {
	tests := []struct{ method, path, want string }{
		{"POST", "/session", "POST /session"},
		{"GET", "/status", "GET /status"},
		{"POST", "/wd/hub/session", "POST /session"},
		{"DELETE", "/session/3f2a9c0e5b7d41e6a8c9d0e1f2a3b4c5", "DELETE /session/{id}"},
		{"POST", "/session/3f2a9c0e5b7d41e6a8c9d0e1f2a3b4c5/url", "POST /session/{id}/url"},
		{"POST", "/session/3f2a/element/f.5E2B.d.1A.e.42/click", "POST /session/{id}/element/{id}/click"},
		{"GET", "/session/3f2a/element/active", "GET /session/{id}/element/active"},
		{"GET", "/session/3f2a/element/F1E2/attribute/value", "GET /session/{id}/element/{id}/attribute/{id}"},
		{"GET", "/session/3f2a/cookie/session_token", "GET /session/{id}/cookie/{id}"},
		{"POST", "/session/3f2a/window", "POST /session/{id}/window"},
		{"GET", "/session/3f2a/window/handles", "GET /session/{id}/window/handles"},
		{"GET", "/session/3f2a/se/files/report-alice.csv", "GET /session/{id}/se/files/{id}"},
		{"GET", "/session/3f2a/se/files/alice_report", "GET /session/{id}/se/files/{id}"},
		{"GET", "/session/3f2a/chromium/send_command_and_get_result", "GET /session/{id}/chromium/send_command_and_get_result"},
		{"GET", "/elsewhere/alice", "GET /{other}"},
	}
	for _, tt := range tests {
		if got := Command(tt.method, tt.path); got != tt.want {
			t.Errorf("Command(%s, %s) = %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}

func TestTracingFromEnvironment(t *testing.T) {
	tests := []struct {
		env     map[string]string
		wantErr string
		on      bool
	}{
		{env: nil},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "none"}},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, on: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318"}, on: true},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_SDK_DISABLED": "true"}},
		{env: map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4318", "OTEL_TRACES_EXPORTER": "none"}},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "zipkin"}, wantErr: `OTEL_TRACES_EXPORTER="zipkin" is not served; use otlp`},
		{env: map[string]string{"OTEL_TRACES_EXPORTER": "otlp", "OTEL_EXPORTER_OTLP_PROTOCOL": "grpc"}, wantErr: "exports traces over http/protobuf"},
	}
	for _, tt := range tests {
		tp, shutdown, err := Tracing(context.Background(), func(k string) string { return tt.env[k] })
		if tt.wantErr != "" {
			assert.Check(t, err != nil && strings.Contains(err.Error(), tt.wantErr), "%v: err = %v", tt.env, err)
			continue
		}
		assert.NilError(t, err)
		_, sdk := tp.(*sdktrace.TracerProvider)
		assert.Check(t, is.Equal(sdk, tt.on), "%v: an SDK provider is %v", tt.env, sdk)
		shutdown()
	}
}

// TestWebDriverChildren: a command sent while an action holds its session
// is a child span of the action; one of another session is not traced;
// both are counted, a 5xx as an error.
func TestWebDriverChildren(t *testing.T) {
	endpoint := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/fail") {
			w.WriteHeader(http.StatusInternalServerError)
		}
	}))
	defer endpoint.Close()
	exp := tracetest.NewInMemoryExporter()
	tp, shutdown, err := Provider(sdktrace.NewSimpleSpanProcessor(exp))
	assert.NilError(t, err)
	defer shutdown()
	m := NewMetrics()
	actions := NewActions()
	client := &http.Client{Transport: WebDriver{Next: http.DefaultTransport, Metrics: m, Endpoint: "grid", Tracer: tp.Tracer(TracerName), Actions: actions}}

	ctx, action := tp.Tracer(TracerName).Start(context.Background(), "tools/call click")
	end := actions.Begin("s1", ctx)
	for _, p := range []string{"/session/s1/url", "/session/s1/fail", "/session/s2/url"} {
		resp, err := client.Get(endpoint.URL + p)
		assert.NilError(t, err)
		resp.Body.Close()
	}
	end()
	action.End()
	spans := exp.GetSpans().Snapshots()
	var children []string
	for _, s := range spans {
		if s.Parent().SpanID() == action.SpanContext().SpanID() {
			children = append(children, s.Name())
			assert.Check(t, s.SpanKind() == trace.SpanKindClient)
		}
	}
	assert.Check(t, is.DeepEqual(children, []string{"webdriver GET /session/{id}/url", "webdriver GET /session/{id}/fail"}))
	assert.Check(t, is.Len(spans, 3))

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	scrape := rec.Body.String()
	assert.Check(t, is.Contains(scrape, `selenium_flow_webdriver_commands_total{command="GET /session/{id}/url",endpoint="grid"} 2`))
	assert.Check(t, is.Contains(scrape, `selenium_flow_webdriver_errors_total{command="GET /session/{id}/fail",endpoint="grid"} 1`))
}

// TestOTLPExport: with the standard variables pointing at a collector on
// 127.0.0.1, a span reaches it over OTLP/HTTP as protobuf when the
// provider shuts down.
func TestOTLPExport(t *testing.T) {
	got := make(chan string, 4)
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		got <- r.Method + " " + r.URL.Path + " " + r.Header.Get("Content-Type") + " " + strconv.FormatBool(bytes.Contains(body, []byte("tools/call click")))
	}))
	defer collector.Close()
	env := map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": collector.URL, "OTEL_SERVICE_NAME": "flow-under-test"}
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL) // the SDK reads its own variables
	t.Setenv("OTEL_SERVICE_NAME", "flow-under-test")
	tp, shutdown, err := Tracing(testenv.Context(t), func(k string) string { return env[k] })
	assert.NilError(t, err)
	_, span := tp.Tracer(TracerName).Start(context.Background(), "tools/call click")
	span.End()
	shutdown()
	select {
	case req := <-got:
		assert.Equal(t, req, "POST /v1/traces application/x-protobuf true")
	default:
		t.Fatal("the collector received nothing by the provider's shutdown")
	}
}
