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
// masked. It checks the file and the values as serve would.
func runConfig(_ context.Context, args []string, stdout, stderr io.Writer) error {
	c, err := loadSettings("config", args, stderr,
		"Usage: selenium-flow config [--config FILE] [any serve flag]…",
		"Prints every setting's effective value and its source (default, file, environment, flag); secrets masked.")
	if c == nil || err != nil {
		return err
	}
	if _, err := serverConfig(c); err != nil {
		return fmt.Errorf("serve would not start: %w", err)
	}
	return c.Print(stdout)
}

// loadSettings parses a command's flags — one per setting — and loads the
// effective configuration. It returns nil and no error when --help was
// asked for and printed.
func loadSettings(name string, args []string, stderr io.Writer, usage ...string) (*config.Config, error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	flags := config.NewFlags(fs)
	fs.Usage = func() {
		for _, line := range usage {
			fmt.Fprintln(fs.Output(), line)
		}
		fs.PrintDefaults()
		config.PrintEnv(fs.Output())
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, nil
		}
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, fmt.Errorf("%s takes flags only, not %q; run selenium-flow %s --help", name, fs.Arg(0), name)
	}
	return config.Load(flags, os.Environ())
}
