package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/selenium-flow/selenium-flow/internal/config"
)

// runConfig prints the configuration serve would start with, given the
// same flags, environment and file: each value with its source, secrets
// masked. It checks the file as serve would (an unknown key stops it).
func runConfig(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("config", flag.ContinueOnError)
	fs.SetOutput(stderr)
	flags := config.NewFlags(fs)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: selenium-flow config [--config FILE] [any serve flag]…")
		fmt.Fprintln(fs.Output(), "Prints every setting's effective value and its source (default, file, environment, flag); secrets masked.")
		fs.PrintDefaults()
		config.PrintEnv(fs.Output())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("config takes flags only, not %q; run selenium-flow config --help", fs.Arg(0))
	}
	c, err := config.Load(flags, os.Environ())
	if err != nil {
		return err
	}
	if _, err := serverConfig(c); err != nil {
		return fmt.Errorf("serve would not start: %w", err)
	}
	return c.Print(stdout)
}
