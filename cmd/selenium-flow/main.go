// Command selenium-flow is the selenium-flow MCP server and its companions:
// serve (stdio or Streamable HTTP) and version.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// command is one subcommand.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"serve", "serve MCP on stdio (default) or Streamable HTTP", runServe},
		{"install", "install the skills into a client's skills directory, or print its MCP config", runInstall},
		{"eval", "ask a model tasks against this server and score its answers", runEval},
		{"version", "print the version", runVersion},
	}
}

// envVars are the environment variables the server reads, for --help.
var envVars = [][2]string{
	{"FLOW_DATA_DIR", "folder for kept files and flows (default: $XDG_DATA_HOME/selenium-flow or ~/.local/share/selenium-flow)"},
	{"SELENIUM_URL", "a Selenium Grid 4 or W3C WebDriver endpoint (default: start chromedriver from PATH)"},
	{"FLOW_IDLE_TIMEOUT", "close a caller's browser unused for this long (default 15m)"},
	{"FLOW_STORE", "where workspaces are kept: empty for files under FLOW_DATA_DIR, or redis://host:port/db shared by several replicas"},
	{"FLOW_STORE_PREFIX", "prefix of every Redis key (default selenium-flow:), so servers can share one database"},
	{"FLOW_WORKSPACE_TTL", "keep a workspace nobody used for this long (default 24h)"},
	{"FLOW_TOKENS", "file of \"token principal\" lines; HTTP callers send Authorization: Bearer <token>"},
	{"FLOW_SECRETS", "file of \"principal name[/key] site[,site] value\" lines typed by write(secret=name)"},
	{"FLOW_SECRETS_DIR", "folder of <principal>/<name>/<key> files, with _allowed_sites and _description, one folder per secret"},
	{"FLOW_SECRET_<principal>__<name>[__<key>]", "a secret's value, with ..._SITES (required) and ..._DESCRIPTION; removed from the environment at start"},
	{"FLOW_ALLOWED_HOSTS", "comma-separated Host names the HTTP server answers for besides localhost, 127.0.0.1 and [::1]"},
	{"FLOW_ALLOWED_ORIGINS", "comma-separated browser origins (https://app.example.com) that may call the HTTP server"},
	{"FLOW_BROWSER_ARGS", "extra Chromium arguments, each starting with --, e.g. a closed network's host-resolver rules"},
	{"FLOW_BROWSER_DENY", "comma-separated addresses and CIDR ranges local browsers may not connect to (the server's own ports and link-local addresses are always closed)"},
	{"FLOW_BROWSER_ALLOW", "comma-separated addresses and CIDR ranges opened despite a default refusal, e.g. a link-local device"},
	{"FLOW_EXCLUDE_TOOLS", "comma-separated tool names to leave out of the tool list"},
	{"FLOW_NO_SCRIPTS", "1 leaves out execute_script, which runs a caller's JavaScript in the page"},
	{"FLOW_RESOURCES", "default surface: on, off or auto (same as --resources)"},
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "selenium-flow:", err)
		os.Exit(2)
	}
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		usage(stdout)
		return nil
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	usage(stderr)
	return fmt.Errorf("unknown command %q; run selenium-flow --help", args[0])
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "Usage: selenium-flow <command> [flags]")
	fmt.Fprintln(w, "\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun selenium-flow <command> --help for a command's flags.")
	printEnv(w)
}

func printEnv(w io.Writer) {
	fmt.Fprintln(w, "\nEnvironment:")
	for _, e := range envVars {
		fmt.Fprintf(w, "  %-20s %s\n", e[0], e[1])
	}
}
