package install

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// Endpoint is where `selenium-flow serve --http 127.0.0.1:8765` (make
// serve-http) serves Streamable HTTP.
const Endpoint = "http://127.0.0.1:8765/mcp"

// TokenPlaceholder stands where the caller's bearer token goes.
const TokenPlaceholder = "<token>"

// ServerName is the name the snippets register the server under.
const ServerName = "selenium-flow"

// Snippet is one way to add the server to a client.
type Snippet struct {
	// Title says which transport and where it goes.
	Title string
	// Lang is the snippet's language for a fenced block: json, sh, toml.
	Lang string
	Text string
}

// stdioServer and httpServer are one server's entry in a client's JSON
// config, fields in the order the clients' documentation shows them.
type stdioServer struct {
	Type    string   `json:"type,omitempty"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

type httpServer struct {
	Type    string            `json:"type,omitempty"`
	URL     string            `json:"url"`
	Headers map[string]string `json:"headers"`
}

var (
	authHeader = map[string]string{"Authorization": "Bearer " + TokenPlaceholder}
	// Claude Code's .mcp.json and VS Code's mcp.json name the transport;
	// Cursor's mcp.json tells it by command or url.
	stdio      = stdioServer{Command: "selenium-flow", Args: []string{"serve"}}
	stdioTyped = stdioServer{Type: "stdio", Command: stdio.Command, Args: stdio.Args}
	remote     = httpServer{URL: Endpoint, Headers: authHeader}
	httpTyped  = httpServer{Type: "http", URL: Endpoint, Headers: authHeader}
)

// Snippets are the MCP configurations that connect the client to the
// server, over stdio (the client starts `selenium-flow serve`) and over
// HTTP (a server already running at Endpoint, with a bearer token).
func Snippets(client string) ([]Snippet, error) {
	c, err := Lookup(client)
	if err != nil {
		return nil, err
	}
	switch c.Name {
	case "claude":
		return []Snippet{
			{Title: "Claude Code, stdio (run in the project; add --scope user for every project)", Lang: "sh",
				Text: "claude mcp add --transport stdio " + ServerName + " -- selenium-flow serve"},
			{Title: "Claude Code, HTTP", Lang: "sh",
				Text: fmt.Sprintf("claude mcp add --transport http %s %s --header \"Authorization: Bearer %s\"", ServerName, Endpoint, TokenPlaceholder)},
			{Title: "Claude Code, .mcp.json at the project root, stdio", Lang: "json",
				Text: jsonText(map[string]any{"mcpServers": map[string]any{ServerName: stdioTyped}})},
			{Title: "Claude Code, .mcp.json at the project root, HTTP", Lang: "json",
				Text: jsonText(map[string]any{"mcpServers": map[string]any{ServerName: httpTyped}})},
		}, nil
	case "copilot":
		return []Snippet{
			{Title: "VS Code, .vscode/mcp.json, stdio", Lang: "json",
				Text: jsonText(map[string]any{"servers": map[string]any{ServerName: stdioTyped}})},
			{Title: "VS Code, .vscode/mcp.json, HTTP", Lang: "json",
				Text: jsonText(map[string]any{"servers": map[string]any{ServerName: httpTyped}})},
		}, nil
	case "codex":
		return []Snippet{
			{Title: "Codex, ~/.codex/config.toml, stdio", Lang: "toml",
				Text: "[mcp_servers." + ServerName + "]\ncommand = \"selenium-flow\"\nargs = [\"serve\"]"},
			{Title: "Codex, ~/.codex/config.toml, HTTP (export SELENIUM_FLOW_TOKEN=" + TokenPlaceholder + " first)", Lang: "toml",
				Text: "[mcp_servers." + ServerName + "]\nurl = \"" + Endpoint + "\"\nbearer_token_env_var = \"SELENIUM_FLOW_TOKEN\""},
		}, nil
	case "cursor":
		return []Snippet{
			{Title: "Cursor, .cursor/mcp.json, stdio", Lang: "json",
				Text: jsonText(map[string]any{"mcpServers": map[string]any{ServerName: stdio}})},
			{Title: "Cursor, .cursor/mcp.json, HTTP", Lang: "json",
				Text: jsonText(map[string]any{"mcpServers": map[string]any{ServerName: remote}})},
		}, nil
	}
	return nil, fmt.Errorf("no MCP configuration is known for client %q", c.Name)
}

// PrintConfig writes the client's snippets for a terminal: each under a
// "# title" line, with a note on the command path and the token.
func PrintConfig(w io.Writer, client string) error {
	snips, err := Snippets(client)
	if err != nil {
		return err
	}
	var b strings.Builder
	fmt.Fprintln(&b, "# selenium-flow must be on PATH, or write its full path instead.")
	fmt.Fprintf(&b, "# For HTTP, start the server with: selenium-flow serve --http 127.0.0.1:8765 (endpoint %s),\n", Endpoint)
	fmt.Fprintf(&b, "# and put a token from its FLOW_TOKENS file (or its --token) where %s stands.\n", TokenPlaceholder)
	for _, s := range snips {
		fmt.Fprintf(&b, "\n# %s\n%s\n", s.Title, s.Text)
	}
	_, err = io.WriteString(w, b.String())
	return err
}

func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic("install: a config snippet does not marshal: " + err.Error())
	}
	return strings.TrimSuffix(b.String(), "\n")
}
