// Command cmd writes selenium-flow's manual under docs/ (docs/manual in
// Markdown, docs/site in HTML) from the server built in-process. With
// -check it writes nothing and fails when docs/ is stale. `make docs` and
// `go generate ./internal/manual` run it; `make test` runs it with -check.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/selenium-flow/selenium-flow/internal/manual"
)

func main() {
	root := flag.String("root", ".", "the repository root; the manual goes to its docs/")
	check := flag.Bool("check", false, "write nothing; exit 1 when docs/ is not what the server generates")
	flag.Parse()
	if err := run(*root, *check); err != nil {
		fmt.Fprintln(os.Stderr, "manual:", err)
		os.Exit(1)
	}
}

func run(root string, check bool) error {
	m, err := manual.Build(context.Background())
	if err != nil {
		return err
	}
	files, err := m.Files()
	if err != nil {
		return err
	}
	docs := filepath.Join(root, "docs")
	if check {
		stale, err := manual.Stale(docs, files)
		if err != nil {
			return err
		}
		if len(stale) > 0 {
			return &manual.StaleError{Files: stale}
		}
		return nil
	}
	if err := manual.Write(docs, files); err != nil {
		return errors.Join(errors.New("cannot write docs/"), err)
	}
	return nil
}
