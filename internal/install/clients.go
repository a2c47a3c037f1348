// Package install writes the server's published skills into an agent
// client's skills directory, byte for byte as skill://… serves them, and
// prints the MCP configuration that connects a client to the server.
//
// The bytes come from the resource table compiled into the binary, never
// from the repository on disk, so an installed selenium-flow installs the
// skills it serves from wherever it runs.
package install

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Client is an agent client that reads skills from a directory of its own.
// Each directory is the one the client's documentation names.
type Client struct {
	// Name is the --client value.
	Name string
	// Title is how a person calls the client.
	Title string
	// User is the personal skills directory, relative to the home directory.
	User string
	// Project is the project skills directory, relative to the project root.
	Project string
	// Source is the documentation that names both directories.
	Source string
	// Config names the file or command that adds an MCP server to the client.
	Config string
}

// Clients are the presets of --client, in the order help lists them.
var Clients = []Client{
	{
		Name:    "claude",
		Title:   "Claude Code",
		User:    ".claude/skills",
		Project: ".claude/skills",
		Source:  "https://code.claude.com/docs/en/skills",
		Config:  "claude mcp add, or .mcp.json at the project root",
	},
	{
		Name:    "copilot",
		Title:   "GitHub Copilot (VS Code agent mode, Copilot CLI, cloud agent)",
		User:    ".copilot/skills",
		Project: ".github/skills",
		Source:  "https://docs.github.com/en/copilot/how-tos/use-copilot-agents/cloud-agent/create-skills and https://code.visualstudio.com/docs/agents/reference/agent-skills-reference",
		Config:  ".vscode/mcp.json",
	},
	{
		Name:    "codex",
		Title:   "OpenAI Codex (CLI, IDE extension, app)",
		User:    ".agents/skills",
		Project: ".agents/skills",
		Source:  "https://developers.openai.com/codex/skills",
		Config:  "~/.codex/config.toml (or .codex/config.toml in a trusted project)",
	},
	{
		Name:    "cursor",
		Title:   "Cursor",
		User:    ".cursor/skills",
		Project: ".cursor/skills",
		Source:  "https://cursor.com/docs/skills",
		Config:  ".cursor/mcp.json (or ~/.cursor/mcp.json)",
	},
}

// Lookup finds a client preset by name, case-insensitively.
func Lookup(name string) (Client, error) {
	for _, c := range Clients {
		if strings.EqualFold(c.Name, strings.TrimSpace(name)) {
			return c, nil
		}
	}
	return Client{}, fmt.Errorf("client %q is not one of %s; or pass --dir with the skills directory your client reads", name, Names())
}

// Names lists the preset names as "claude|copilot|codex|cursor".
func Names() string {
	names := make([]string, len(Clients))
	for i, c := range Clients {
		names[i] = c.Name
	}
	return strings.Join(names, "|")
}

// Dir is the client's skills directory: the project one under root when
// project is set, else the personal one under home.
func (c Client) Dir(home, root string, project bool) string {
	if project {
		return filepath.Join(root, filepath.FromSlash(c.Project))
	}
	return filepath.Join(home, filepath.FromSlash(c.User))
}
