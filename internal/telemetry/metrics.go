package telemetry

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Outcome is how a tool call or flow step ended.
type Outcome string

// The outcomes: done, refused with a next step (an isError result), or
// failed with an error the server did not foresee.
const (
	OK      Outcome = "ok"
	Refused Outcome = "refused"
	Error   Outcome = "error"
)

// The metric names, for the operator manual and tests.
const (
	MetricToolCalls    = "selenium_flow_tool_calls_total"
	MetricToolSeconds  = "selenium_flow_tool_call_duration_seconds"
	MetricMCPRequests  = "selenium_flow_mcp_requests_total"
	MetricMCPSeconds   = "selenium_flow_mcp_request_duration_seconds"
	MetricHTTPRequests = "selenium_flow_http_requests_total"
	MetricHTTPSeconds  = "selenium_flow_http_request_duration_seconds"
	MetricFlowRuns     = "selenium_flow_flow_runs_total"
	MetricFlowSteps    = "selenium_flow_flow_steps_total"
	MetricBrowsers     = "selenium_flow_open_browsers"
	MetricStoreOps     = "selenium_flow_store_operations_total"
	MetricDriverErrors = "selenium_flow_webdriver_errors_total"
	MetricDriverCalls  = "selenium_flow_webdriver_commands_total"
)

// Help is every metric's name and help text, in the order the manual
// lists them.
var help = [][2]string{
	{MetricToolCalls, "Tool calls by tool and outcome (ok, refused, error), flow steps included."},
	{MetricToolSeconds, "Time a tool call took, by tool."},
	{MetricMCPRequests, "MCP requests other than tools/call by method and outcome (ok, refused: a JSON-RPC error), on every transport."},
	{MetricMCPSeconds, "Time an MCP request other than tools/call took, by method."},
	{MetricHTTPRequests, "HTTP requests by route template, method and status."},
	{MetricHTTPSeconds, "Time an HTTP request took, by route template."},
	{MetricFlowRuns, "run_flow calls by outcome."},
	{MetricFlowSteps, "Flow steps by tool and outcome."},
	{MetricBrowsers, "Callers with a browser open, by endpoint kind (local or grid)."},
	{MetricStoreOps, "Store operations by store, operation and outcome."},
	{MetricDriverErrors, "WebDriver commands that failed at the endpoint (5xx or no answer), by endpoint kind and command."},
	{MetricDriverCalls, "WebDriver commands sent, by endpoint kind and command."},
}

// Help is every metric's name and help text, for the operator manual.
func Help() [][2]string { return append([][2]string(nil), help...) }

func helpOf(name string) string {
	for _, h := range help {
		if h[0] == name {
			return h[1]
		}
	}
	return ""
}

// Metrics is one server's Prometheus metrics, on a registry of its own.
// Its methods are safe for concurrent use; a nil *Metrics records nothing.
type Metrics struct {
	reg          *prometheus.Registry
	toolCalls    *prometheus.CounterVec
	toolSeconds  *prometheus.HistogramVec
	mcpRequests  *prometheus.CounterVec
	mcpSeconds   *prometheus.HistogramVec
	httpRequests *prometheus.CounterVec
	httpSeconds  *prometheus.HistogramVec
	flowRuns     *prometheus.CounterVec
	flowSteps    *prometheus.CounterVec
	storeOps     *prometheus.CounterVec
	driverErrors *prometheus.CounterVec
	driverCalls  *prometheus.CounterVec
}

// MetricsOption configures NewMetrics.
type MetricsOption func(*Metrics)

// WithOpenBrowsers reports count() as the open browsers of an endpoint
// kind ("local" or "grid") at each scrape.
func WithOpenBrowsers(kind string, count func() int) MetricsOption {
	return func(m *Metrics) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: MetricBrowsers, Help: helpOf(MetricBrowsers), ConstLabels: prometheus.Labels{"endpoint": kind},
		}, func() float64 { return float64(count()) }))
	}
}

// WithProcessMetrics adds the Go runtime's and the process's standard
// metrics (go_*, process_*).
func WithProcessMetrics() MetricsOption {
	return func(m *Metrics) {
		m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	}
}

// NewMetrics makes the metrics on a new registry.
func NewMetrics(opts ...MetricsOption) *Metrics {
	counter := func(name string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: helpOf(name)}, labels)
	}
	histogram := func(name string, labels ...string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: name, Help: helpOf(name),
			// A tool call is milliseconds (an outline) to a minute (a
			// page that loads slowly, a flow).
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60},
		}, labels)
	}
	m := &Metrics{
		reg:          prometheus.NewRegistry(),
		toolCalls:    counter(MetricToolCalls, "tool", "outcome"),
		toolSeconds:  histogram(MetricToolSeconds, "tool"),
		mcpRequests:  counter(MetricMCPRequests, "method", "outcome"),
		mcpSeconds:   histogram(MetricMCPSeconds, "method"),
		httpRequests: counter(MetricHTTPRequests, "route", "method", "status"),
		httpSeconds:  histogram(MetricHTTPSeconds, "route"),
		flowRuns:     counter(MetricFlowRuns, "outcome"),
		flowSteps:    counter(MetricFlowSteps, "tool", "outcome"),
		storeOps:     counter(MetricStoreOps, "store", "op", "outcome"),
		driverErrors: counter(MetricDriverErrors, "endpoint", "command"),
		driverCalls:  counter(MetricDriverCalls, "endpoint", "command"),
	}
	m.reg.MustRegister(m.toolCalls, m.toolSeconds, m.mcpRequests, m.mcpSeconds, m.httpRequests, m.httpSeconds, m.flowRuns, m.flowSteps, m.storeOps, m.driverErrors, m.driverCalls)
	for _, o := range opts {
		o(m)
	}
	return m
}

// Handler serves the registry in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ToolCall records one tool call (a flow step's too). tool is a tool's
// declared name, never a caller's text.
func (m *Metrics) ToolCall(tool string, o Outcome, d time.Duration) {
	if m == nil {
		return
	}
	m.toolCalls.WithLabelValues(tool, string(o)).Inc()
	m.toolSeconds.WithLabelValues(tool).Observe(d.Seconds())
}

// MCPRequest records one MCP request other than tools/call; method is
// one of the protocol's, never a caller's text.
func (m *Metrics) MCPRequest(method string, o Outcome, d time.Duration) {
	if m == nil {
		return
	}
	m.mcpRequests.WithLabelValues(method, string(o)).Inc()
	m.mcpSeconds.WithLabelValues(method).Observe(d.Seconds())
}

// HTTPRequest records one HTTP request by its route template (the mux
// pattern, "GET /files/{name}"), never its path.
func (m *Metrics) HTTPRequest(route, method string, status int, d time.Duration) {
	if m == nil {
		return
	}
	m.httpRequests.WithLabelValues(route, method, statusText(status)).Inc()
	m.httpSeconds.WithLabelValues(route).Observe(d.Seconds())
}

// FlowRun records one run_flow call.
func (m *Metrics) FlowRun(o Outcome) {
	if m != nil {
		m.flowRuns.WithLabelValues(string(o)).Inc()
	}
}

// FlowStep records one step of a flow run.
func (m *Metrics) FlowStep(tool string, o Outcome) {
	if m != nil {
		m.flowSteps.WithLabelValues(tool, string(o)).Inc()
	}
}

// StoreOp is the hook a store calls for each operation: store is its kind
// ("flows", "files", "workspaces"), op a verb ("save", "delete"), never a
// name of what was stored.
func (m *Metrics) StoreOp(store, op string, o Outcome) {
	if m != nil {
		m.storeOps.WithLabelValues(store, op, string(o)).Inc()
	}
}

func statusText(code int) string {
	const digits = "0123456789"
	if code < 100 || code > 999 {
		return "other"
	}
	return string([]byte{digits[code/100], digits[code/10%10], digits[code%10]})
}
