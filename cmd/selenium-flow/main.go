// Command selenium-flow is the selenium-flow MCP server and its companions:
// serve (stdio or Streamable HTTP), config, install, eval and version.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/selenium-flow/selenium-flow/internal/config"
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
		{"config", "print the effective configuration and where each value came from (secrets masked)", runConfig},
		{"install", "install the skills into a client's skills directory, or print its MCP config", runInstall},
		{"eval", "ask a model tasks against this server and score its answers", runEval},
		{"version", "print the version", runVersion},
	}
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
	config.PrintEnv(w)
}
