package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/selenium-flow/selenium-flow/internal/eval"
)

// runEval mounts this server alone, asks a model the tasks and prints the
// table; it fails unless every task passed every repeat.
func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	fs.SetOutput(stderr)
	modelURL := fs.String("model", "", "base URL of an OpenAI-compatible chat-completions API, e.g. http://127.0.0.1:8080/v1 (required)")
	modelName := fs.String("model-name", "", "model name sent with each request")
	repeats := fs.Int("repeats", 3, "times each task is asked; a task passes only if it passes every time")
	res := fs.String("resources", "on", "on: the host reads resources with its own tools; off: the server's list_resources/read_resource mirror")
	verbose := fs.Bool("v", false, "print a line per attempt as it finishes")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "Usage: selenium-flow eval --model URL [--model-name N] [--repeats 3] [--resources on|off] [TASKS.yaml]")
		fmt.Fprintln(fs.Output(), "\nWithout TASKS.yaml the shipped knowledge tasks are asked. The API key, if the endpoint needs one, is read from OPENAI_API_KEY.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil
		}
		return err
	}
	if *modelURL == "" {
		fs.Usage()
		return errors.New("eval needs --model URL")
	}
	if !slices.Contains([]string{"on", "off"}, *res) {
		return fmt.Errorf("--resources is on or off, not %q", *res)
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("eval takes one tasks file, not %d", fs.NArg())
	}
	tasks, err := loadTasks(fs.Arg(0))
	if err != nil {
		return err
	}
	bin, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding this program to serve: %w", err)
	}
	dir, err := os.MkdirTemp("", "selenium-flow-eval-")
	if err != nil {
		return err
	}
	var env []string
	if os.Getenv("FLOW_DATA_DIR") == "" {
		env = append(env, "FLOW_DATA_DIR="+filepath.Join(dir, "data"))
	}
	if os.Getenv("FLOW_LOG_LEVEL") == "" {
		// A line per request would bury the score table.
		env = append(env, "FLOW_LOG_LEVEL=warn")
	}
	m, err := eval.Mount(ctx, bin, *res, env, stderr)
	if err != nil {
		return err
	}
	defer m.Close()
	host, err := eval.NewHost(ctx, m.Client, *res == "on", dir)
	if err != nil {
		return err
	}
	cfg := eval.Config{
		Model:        &eval.Model{URL: *modelURL, Name: *modelName, APIKey: os.Getenv("OPENAI_API_KEY")},
		Host:         host,
		Instructions: m.Init.Instructions,
		Repeats:      *repeats,
	}
	if *verbose {
		cfg.Progress = stderr
	}
	results, err := eval.Run(ctx, cfg, tasks)
	if len(results) > 0 {
		eval.Table(stdout, results)
		fmt.Fprintf(stdout, "model %s, resources %s, %d repeat(s); cut text and binaries are in %s\n", cmp.Or(*modelName, *modelURL), *res, max(*repeats, 1), dir)
	}
	if err != nil {
		return err
	}
	if !eval.AllPassed(results) {
		return errors.New("not every task passed every repeat")
	}
	return nil
}

func loadTasks(path string) ([]eval.Task, error) {
	if path == "" {
		return eval.DefaultTasks()
	}
	return eval.LoadTasks(path)
}
