// Package telemetry is what an operator watches selenium-flow with:
// Prometheus metrics on a registry of the server's own (metrics.go),
// OpenTelemetry traces off unless the standard OTEL_* variables turn
// them on (tracing.go), and an http.RoundTripper that counts and traces
// the WebDriver commands a page action sends (webdriver.go).
//
// No label and no span attribute carries a principal name, a URL, a file
// or workspace name, a typed value or a secret: tools, route templates,
// outcomes, WebDriver command templates and endpoint kinds only.
//
// The server makes one Metrics per server value:
//
//	m := telemetry.NewMetrics(telemetry.WithOpenBrowsers("local", sessions.Len))
//	m.ToolCall("navigate", telemetry.OK, time.Since(start))
//	mux.Handle("GET /metrics", m.Handler())
package telemetry
