// Package eval measures how well a model uses this server: it mounts the
// server alone over stdio, offers a model behind an OpenAI-compatible
// chat-completions endpoint the server's tools (and, when resources are on,
// a host's resource tools), asks it tasks phrased as a caller would ask, and
// scores each answer by a substring, a regular expression or a tool call —
// no judge model. A task passes only if it passes every repeat.
package eval

import (
	_ "embed"
	"fmt"
	"os"
	"regexp"
	"strings"

	"gopkg.in/yaml.v2"
)

// Task is one question a caller would ask, and how its answer is scored.
type Task struct {
	// ID names the task in the table.
	ID string `yaml:"id"`
	// Ask is the caller's message, phrased as a caller would phrase it: it
	// names no tool.
	Ask string `yaml:"ask"`
	// Expect is what a passing attempt shows; every field set must hold.
	Expect Expect `yaml:"expect"`
	// AllowWrites lets the model call tools that are not read-only; without
	// it such a call fails the attempt.
	AllowWrites bool `yaml:"allow_writes"`
	// MaxTurns bounds the model's replies in one attempt; DefaultMaxTurns
	// when zero.
	MaxTurns int `yaml:"max_turns"`
}

// DefaultMaxTurns is how many replies a model gets to answer a task.
const DefaultMaxTurns = 12

// Expect is how an attempt is scored. Every field that is set must hold.
type Expect struct {
	// Substring must occur in the final answer, ignoring case.
	Substring string `yaml:"substring"`
	// Regex must match the final answer (RE2; add (?i) to ignore case).
	Regex string `yaml:"regex"`
	// Tool must have been called, with at least Args (compared as text).
	Tool string            `yaml:"tool"`
	Args map[string]string `yaml:"args"`
	// Read is a resource URI the model must have read, through the host's
	// read tool or the server's read_resource mirror.
	Read string `yaml:"read"`
}

func (e Expect) empty() bool {
	return e.Substring == "" && e.Regex == "" && e.Tool == "" && e.Read == ""
}

//go:embed tasks.yaml
var defaultTasks []byte

// DefaultTasks are the shipped knowledge tasks for this server.
func DefaultTasks() ([]Task, error) { return ParseTasks(defaultTasks) }

// LoadTasks reads a tasks file.
func LoadTasks(path string) ([]Task, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading tasks: %w", err)
	}
	ts, err := ParseTasks(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ts, nil
}

// ParseTasks reads a tasks document, `tasks:` and a list of tasks, and
// refuses one that could not be scored.
func ParseTasks(data []byte) ([]Task, error) {
	var doc struct {
		Tasks []Task `yaml:"tasks"`
	}
	if err := yaml.UnmarshalStrict(data, &doc); err != nil {
		return nil, fmt.Errorf("tasks are not valid YAML of the expected shape: %w", err)
	}
	if len(doc.Tasks) == 0 {
		return nil, fmt.Errorf("no tasks: the document needs a tasks: list")
	}
	seen := map[string]bool{}
	for i, t := range doc.Tasks {
		where := fmt.Sprintf("task %d (%s)", i+1, t.ID)
		switch {
		case strings.TrimSpace(t.ID) == "":
			return nil, fmt.Errorf("task %d has no id", i+1)
		case seen[t.ID]:
			return nil, fmt.Errorf("%s: the id is used twice", where)
		case strings.TrimSpace(t.Ask) == "":
			return nil, fmt.Errorf("%s has nothing to ask", where)
		case len(t.Expect.Args) > 0 && t.Expect.Tool == "":
			return nil, fmt.Errorf("%s gives args without the tool they belong to", where)
		case t.Expect.empty():
			return nil, fmt.Errorf("%s expects nothing; give it a substring, regex, tool or read", where)
		case t.MaxTurns < 0:
			return nil, fmt.Errorf("%s: max_turns cannot be negative", where)
		}
		if t.Expect.Regex != "" {
			if _, err := regexp.Compile(t.Expect.Regex); err != nil {
				return nil, fmt.Errorf("%s: regex: %w", where, err)
			}
		}
		seen[t.ID] = true
	}
	return doc.Tasks, nil
}

// namedTool finds a tool name a task's question gives away: any offered
// name with an underscore used as a word, or any offered name in backticks
// or called as name(.
func namedTool(ask string, tools []string) (string, bool) {
	for _, name := range tools {
		q := regexp.QuoteMeta(name)
		pattern := "`" + q + "`|\\b" + q + `\(`
		if strings.Contains(name, "_") {
			pattern += `|\b` + q + `\b`
		}
		if regexp.MustCompile(pattern).MatchString(ask) {
			return name, true
		}
	}
	return "", false
}
