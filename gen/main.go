// Command gen writes the server's resource table.
//
// It reads the skills (skills/), the knowledge documents and scope
// (knowledge/), the flow schema and the runtime manifest (resources/), checks
// them against each other, and writes one Go file of typed entries with the
// published bytes embedded. It is run by go generate in package resources;
// with -check it writes nothing and fails when the file on disk is stale.
//
// Every problem is reported as file:line: message, all of them at once.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	out := flag.String("out", "resources/table_gen.go", "the file to write, relative to the current directory")
	check := flag.Bool("check", false, "write nothing; exit 1 when the output file is missing or stale")
	flag.Parse()

	src, err := Generate(*root)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *check {
		have, err := os.ReadFile(*out)
		if err != nil || !bytes.Equal(have, src) {
			fmt.Fprintf(os.Stderr, "%s is stale: run go generate ./resources (or make generate) and commit the result\n", filepath.ToSlash(*out))
			os.Exit(1)
		}
		return
	}
	if err := atomicfile.Write(*out, src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// Generate reads the corpus under root and returns the table's Go source.
func Generate(root string) ([]byte, error) {
	c, err := Load(root)
	if err != nil {
		return nil, err
	}
	if err := c.Check(); err != nil {
		return nil, err
	}
	return c.Emit()
}
