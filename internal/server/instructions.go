package server

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	mcpserver "github.com/mark3labs/mcp-go/server"

	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/resources"
	"github.com/selenium-flow/selenium-flow/tools"
)

// instructions are what a client is told on initialize and server/discover:
// how to start, by the surface it has, naming only what this server
// serves — the pages the index says to read first, and tools that were not
// excluded (FLOW_EXCLUDE_TOOLS).
func (s *Server) instructions(c surface.Caller) string {
	has := func(names ...string) bool {
		return !slices.ContainsFunc(names, s.table.Excluded)
	}
	first := s.readFirst()
	var b strings.Builder
	b.WriteString("selenium-flow gives you a knowledge base")
	if has(pageTools...) {
		b.WriteString(" and real browsers")
	}
	b.WriteString(". ")
	switch {
	case c.ReadsResources():
		fmt.Fprintf(&b, "Start by reading the resource %s; %s. ", strings.Join(first, ", then "), routes(len(first)))
	case has(tools.Mirror...):
		b.WriteString("Your client does not let you read resources directly, so use the mirror tools: call read_resource with uri " + first[0] + " first")
		for _, u := range first[1:] {
			b.WriteString(", then read_resource with uri " + u)
		}
		b.WriteString("; list_resources lists every other URI. ")
	default:
		b.WriteString("Your client does not let you read resources directly, and this server does not offer the mirror tools that would, so its documents cannot be read here; work from the tool descriptions. ")
	}
	if has("open_session", "outline") {
		fmt.Fprintf(&b, "To drive a page: open_session, then outline to see its controls and their locators, then %s. ", and(offered(s.table, "click", "write", "select", "press_key", "wait_for", "assert")))
	}
	if has("save_flow", "run_flow") {
		save := "save it with save_flow"
		if _, ok := s.table.Lookup(resources.FlowSchemaURI); ok {
			save += " (the shape is " + resources.FlowSchemaURI + ")"
		}
		fmt.Fprintf(&b, "Once a sequence works, %s and replay it with run_flow instead of repeating the calls. ", save)
	}
	if has("write") {
		b.WriteString("Type credentials with write(secret=name), never as text")
		if _, ok := s.table.Lookup("secret://secrets"); ok {
			b.WriteString("; secret://secrets lists the names")
		}
		b.WriteString(". ")
	}
	b.WriteString("Every refusal says what was wrong and which call would work.")
	return b.String()
}

// pageTools are the tools that drive a browser.
var pageTools = []string{"open_session", "navigate", "outline", "click", "write", "press_key", "select", "wait_for", "assert", "screenshot", "print", "upload_file", "close_session"}

// readFirst is what the index says to read first.
func (s *Server) readFirst() []string {
	e, ok := s.table.Lookup(resources.IndexURI)
	if !ok {
		return []string{resources.IndexURI}
	}
	var idx resources.Index
	if json.Unmarshal([]byte(e.Body), &idx) != nil {
		return []string{resources.IndexURI}
	}
	return idx.ReadFirst
}

func routes(n int) string {
	if n > 1 {
		return "they route you to the documents and skill references you need"
	}
	return "it routes you to the documents you need"
}

// offered keeps the tools the table does not exclude.
func offered(t *resources.Table, names ...string) []string {
	return slices.DeleteFunc(names, t.Excluded)
}

// and joins words as a sentence does: "a", "a and b", "a, b and c".
func and(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// promptTools are the tools each prompt's text tells the model to call; a
// prompt is offered only while all of them are.
var promptTools = map[string][]string{
	"build_flow":  {"open_session", "outline", "navigate", "click", "write", "select", "press_key", "wait_for", "assert", "save_flow", "run_flow"},
	"repair_flow": {"run_flow", "outline", "wait_for", "save_flow"},
	"record_flow": {"open_session", "start_recording", "navigate", "click", "write", "select", "press_key", "wait_for", "assert", "outline", "read_text", "stop_recording", "draft_flow", "save_flow", "run_flow"},
}

// offeredPrompts leaves out the prompts whose text names an excluded tool.
func (s *Server) offeredPrompts(all []mcpserver.ServerPrompt) []mcpserver.ServerPrompt {
	return slices.DeleteFunc(all, func(p mcpserver.ServerPrompt) bool {
		return slices.ContainsFunc(promptTools[p.Prompt.Name], s.table.Excluded)
	})
}

// checkExclusions refuses a name in FLOW_EXCLUDE_TOOLS that names no tool
// of this server, naming the tools that exist.
func checkExclusions(excluded []string, families ...[]tools.Tool) error {
	var names []string
	for _, f := range families {
		for _, t := range f {
			names = append(names, t.Def.Name)
		}
	}
	slices.Sort(names)
	var unknown []string
	for _, n := range excluded {
		if n = strings.TrimSpace(n); n != "" && !slices.Contains(names, n) {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return fmt.Errorf("FLOW_EXCLUDE_TOOLS names %s, which this server does not have; the tools are: %s", and(quoted(unknown)), strings.Join(names, ", "))
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// flowTools are the tools that save, replay and delete flows.
var flowTools = []string{"save_flow", "run_flow", "delete_flow"}

// withImplied adds to the excluded tools those an exclusion leaves with
// nothing to do: the flow tools, when no tool a flow step can call is
// left (flow://schema's step tools). The index names them with the rest.
func withImplied(excluded []string) []string {
	body, err := flowSchema(excluded)
	if err != nil {
		return excluded
	}
	var schema struct {
		Properties struct {
			Steps struct {
				Items struct {
					Properties struct {
						Tool struct {
							Enum []string `json:"enum"`
						} `json:"tool"`
					} `json:"properties"`
				} `json:"items"`
			} `json:"steps"`
		} `json:"properties"`
	}
	if json.Unmarshal(body, &schema) != nil || len(schema.Properties.Steps.Items.Properties.Tool.Enum) > 0 {
		return excluded
	}
	out := slices.Clone(excluded)
	for _, t := range flowTools {
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// withdrawnPrompts names the prompts offeredPrompts leaves out.
func withdrawnPrompts(all []mcpserver.ServerPrompt, excluded []string) []string {
	var out []string
	for _, p := range all {
		if slices.ContainsFunc(promptTools[p.Prompt.Name], func(t string) bool { return slices.Contains(excluded, t) }) {
			out = append(out, p.Prompt.Name)
		}
	}
	return out
}
