package manual

import (
	"fmt"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/install"
)

// installPage is the client presets of `selenium-flow install` and the
// configuration each client needs, as --print-config prints it.
func installPage() Page {
	const at = "install.md"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# Installing\n\n")
	b.WriteString("`selenium-flow install` writes every skill the server publishes — each `SKILL.md`, its references and the shared ground rules as `references/base.md` — into a client's skills directory, byte for byte as `skill://…` serves it. ")
	b.WriteString("The bytes come from the binary, so an installed `selenium-flow` works from any directory. ")
	b.WriteString("A file that is already identical is left alone; a file that differs is never replaced without `--force`, and then nothing is written. `--dry-run` lists what would be written.\n\n")
	fenced(&b, "sh", "selenium-flow install --client claude            # personal: ~/.claude/skills\n"+
		"selenium-flow install --client copilot --project  # this repository: .github/skills\n"+
		"selenium-flow install --dir path/to/skills --dry-run\n"+
		"selenium-flow install --print-config cursor       # MCP config for the client")
	b.WriteString("## Skills directories\n\n")
	var rows [][]string
	for _, c := range install.Clients {
		rows = append(rows, []string{code("--client " + c.Name), text(c.Title), code("~/" + c.User), code(c.Project), sources(c.Source)})
	}
	table(&b, []string{"preset", "client", "personal", "--project", "documented at"}, rows)
	b.WriteString("Any other client: `--dir` with the directory it reads skills from.\n\n")

	b.WriteString("## Connecting a client\n\n")
	fmt.Fprintf(&b, "`selenium-flow install --print-config CLIENT` prints these. Over stdio the client starts `selenium-flow serve` itself; over HTTP it connects to a running `selenium-flow serve --http 127.0.0.1:8765` at `%s` and sends `Authorization: Bearer %s` with a token from the server's `FLOW_TOKENS` file (or its `--token`), or, where the server has `FLOW_OIDC_ISSUER` set, an access token from that identity provider: a client that speaks MCP authorization finds the provider through the server's `/.well-known/oauth-protected-resource/mcp` and signs in by itself.\n\n", install.Endpoint, install.TokenPlaceholder)
	for _, c := range install.Clients {
		snips, err := install.Snippets(c.Name)
		if err != nil {
			continue
		}
		fmt.Fprintf(&b, "### %s\n\n", text(c.Title))
		fmt.Fprintf(&b, "Configured in %s.\n\n", text(c.Config))
		for _, s := range snips {
			b.WriteString(text(s.Title) + ":\n\n")
			fenced(&b, s.Lang, s.Text)
		}
	}
	return Page{Path: at, Title: "Installing", Markdown: b.String()}
}

// sources links each documentation address in a preset's Source.
func sources(s string) string {
	var out []string
	for _, f := range strings.Fields(s) {
		if strings.HasPrefix(f, "https://") {
			out = append(out, "<"+f+">")
		}
	}
	return strings.Join(out, ", ")
}
