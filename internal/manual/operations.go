package manual

import (
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/config"
	"github.com/selenium-flow/selenium-flow/internal/telemetry"
)

// operationsPage is the operator's page: every setting from the one table
// in internal/config, the metrics of /metrics, tracing and logs.
func operationsPage() Page {
	const at = "operations.md"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# Running selenium-flow for a team\n\n")
	b.WriteString("## Configuration\n\n")
	b.WriteString("Every setting is an environment variable, a flag of `selenium-flow serve` and a key of a YAML file named by `--config` or `FLOW_CONFIG`, one to one. A flag beats the environment, which beats the file, which beats the default; an empty variable sets nothing. A key the table does not declare stops the start with the file and its line (a key spelt as its flag or variable is told the right spelling). A list setting may be a YAML list in the file; a relative path in the file is taken from the working directory, as in the environment.\n\n")
	fenced(&b, "yaml", "# /etc/selenium-flow.yaml\nhttp: 0.0.0.0:8765\ntokens: /etc/selenium-flow/tokens\nselenium_url: http://grid.internal:4444\nidle_timeout: 30m\nexclude_tools: [execute_script]\nlog_level: info\n")
	b.WriteString("`selenium-flow config` (with the same flags, environment and file as `serve`) prints each setting's effective value and where it came from — default, file, environment or flag — with secrets masked and a URL's password hidden; it fails as `serve` would on a bad file. The admin page's Settings view shows the same list.\n\n")
	b.WriteString(config.MarkdownTable())
	b.WriteString("\nAdding a setting is one line of `internal/config/table.go`; this table, the README's, `--help` and `selenium-flow config` follow.\n\n")

	b.WriteString("## Metrics\n\n")
	b.WriteString("`GET /metrics` serves Prometheus's text format from a registry of the server's own (with the Go runtime's `go_*` and the process's `process_*`). It needs a bearer token like every other path unless `FLOW_METRICS_PUBLIC=1`, for a scraper inside the operator's network that holds no token; the server's `Host` and `Origin` checks apply either way. No label carries a principal, a URL, a file, flow or workspace name, or a secret: tools by their declared names, routes by their templates, WebDriver commands with every id replaced by `{id}`.\n\n")
	var rows [][]string
	for _, h := range telemetry.Help() {
		rows = append(rows, []string{code(h[0]), text(h[1])})
	}
	table(&b, []string{"metric", "what it counts"}, rows)
	b.WriteString("Outcomes are `ok`, `refused` (an `isError` result that says what to do next) and `error` (a failure the server did not foresee, a panic included). A flow's steps count as tool calls too, and once more under the flow metrics. `selenium_flow_store_operations_total` is fed by `Server.StoreOp`, the hook stores call.\n\n")

	b.WriteString("## Traces\n\n")
	b.WriteString("Tracing is off unless the standard OpenTelemetry variables turn it on: `OTEL_TRACES_EXPORTER=otlp`, or an `OTEL_EXPORTER_OTLP_ENDPOINT` (or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`) with `OTEL_TRACES_EXPORTER` unset, exports over OTLP/HTTP to that endpoint; `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` keeps it off. The exporter reads its other `OTEL_EXPORTER_OTLP_*` variables (headers, timeout, TLS) as the SDK reads them; `OTEL_SERVICE_NAME` and `OTEL_RESOURCE_ATTRIBUTES` name the service (`selenium-flow` by default). Another exporter or the gRPC protocol stops the start with the values that work.\n\n")
	b.WriteString("Each HTTP request is a server span named by its method and route template (`POST /mcp`); each MCP request other than a tool call is a span named by its method (`resources/read`); each tool call — a flow step too — is a span `tools/call <tool>` under it; and each WebDriver command a page action sends while it holds its browser is a client span `webdriver <command>` under the action. Commands that open a browser (the first `open_session`) come before the browser is known and are not traced under the action. Over stdio the tool call's span is the root.\n\n")

	b.WriteString("## Logs\n\n")
	b.WriteString("The server logs to stderr with `log/slog`, as `key=value` text, from `--log-level` / `FLOW_LOG_LEVEL` (`debug`, `info`, `warn`, `error`) up. At `info` there is one line per tool call (`method`, `tool`, `duration`, `outcome`, `principal`) and one per HTTP request (`method`, `route` — the template, never the path, so file names stay out — `status`, `duration`, `principal`). No line holds a value typed, a secret, a token or a principal's name: `principal` is the first 12 hex digits of the SHA-256 of the name, so an operator who knows a name finds its lines with `printf %s NAME | sha256sum | cut -c1-12`.\n")
	return Page{Path: at, Title: "Running selenium-flow for a team", Markdown: b.String()}
}
