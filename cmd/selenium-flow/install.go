package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/selenium-flow/selenium-flow/internal/install"
	"github.com/selenium-flow/selenium-flow/resources"
)

func runInstall(_ context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	clientName := fs.String("client", "", "the client whose skills directory to write: "+install.Names())
	dir := fs.String("dir", "", "write into this skills directory instead of the client's own")
	project := fs.Bool("project", false, "use the client's project skills directory under the current directory, not the personal one under your home")
	force := fs.Bool("force", false, "overwrite files that differ from what this server serves")
	dryRun := fs.Bool("dry-run", false, "list what would be written and write nothing")
	printConfig := fs.String("print-config", "", "print the MCP configuration that adds this server to `CLIENT` ("+install.Names()+"), then exit")
	fs.Usage = func() {
		out := fs.Output()
		fmt.Fprintln(out, "Usage: selenium-flow install --client "+install.Names()+" [--project] [--force] [--dry-run]")
		fmt.Fprintln(out, "       selenium-flow install --dir DIR [--force] [--dry-run]")
		fmt.Fprintln(out, "       selenium-flow install --print-config CLIENT")
		fmt.Fprintln(out, "\nWrites every skill this server publishes (SKILL.md and its references) into a skills directory,")
		fmt.Fprintln(out, "byte for byte as skill://… serves it. Directories, as each client documents them:")
		for _, c := range install.Clients {
			fmt.Fprintf(out, "  %-8s ~/%s (--project: ./%s)\n", c.Name, c.User, c.Project)
		}
		fmt.Fprintln(out)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("install takes no arguments, found %q; name the client with --client", fs.Arg(0))
	}
	if *printConfig != "" {
		return install.PrintConfig(stdout, *printConfig)
	}

	target, err := installDir(*clientName, *dir, *project)
	if err != nil {
		return err
	}
	files, err := install.Files(resources.Generated())
	if err != nil {
		return err
	}
	results, err := install.Install(target, files, install.WithForce(*force), install.WithDryRun(*dryRun))
	for _, r := range results {
		fmt.Fprintf(stdout, "%-11s %s\n", r.Action, r.Path)
	}
	return err
}

// installDir is --dir, or else the client's directory.
func installDir(clientName, dir string, project bool) (string, error) {
	if dir != "" {
		if project {
			return "", errors.New("--project picks a client's project directory; with --dir, name that directory itself")
		}
		return dir, nil
	}
	if clientName == "" {
		return "", fmt.Errorf("name the client with --client %s, or the skills directory with --dir", install.Names())
	}
	c, err := install.Lookup(clientName)
	if err != nil {
		return "", err
	}
	if project {
		root, err := os.Getwd()
		if err != nil {
			return "", fmt.Errorf("cannot find the current directory for --project: %w", err)
		}
		return c.Dir("", root, true), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("cannot find your home directory for %s's skills (%w); pass --dir or --project", c.Title, err)
	}
	return c.Dir(home, "", false), nil
}
