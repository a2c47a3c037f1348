package tools

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// ScriptTool is the name of the tool that runs a caller's JavaScript; an
// operator can leave it out (server.Config.NoScripts).
const ScriptTool = "execute_script"

// MaxScriptResult is how many characters of a script's JSON result come
// back; the rest is cut, and the result says so.
const MaxScriptResult = 20000

// scriptTool runs JavaScript in the page. The script is arbitrary code in
// the page's context: it can do what the page's own scripts can, and no
// more (a page script cannot choose a file input's file, so neither can
// this).
func (p *pageTools) scriptTool() Tool {
	return New(ScriptTool, "Execute Script", Create.OnPage(),
		"Run JavaScript in the page, as the body of a function: args become arguments[0], arguments[1] …, and what it returns comes back as JSON (use return; a promise is not awaited). "+
			"An escape hatch for what no other tool does, such as reading a value from the page's state; prefer click, write, read_text and assert, which a saved flow can rely on. "+
			fmt.Sprintf("Results over %d characters are cut. A thrown error comes back with its message. Secret values are masked.", MaxScriptResult),
		p.executeScript,
		mcp.WithString("script", mcp.Required(), mcp.Description("function body, e.g. return document.title;")),
		mcp.WithArray("args", mcp.Description("JSON values passed as arguments[0], arguments[1] …")),
	)
}

func (p *pageTools) executeScript(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	script, err := req.RequireString("script")
	if err != nil || script == "" {
		return nil, missing("script", `a function body such as "return document.title;"`)
	}
	args, _ := req.GetArguments()["args"].([]any)
	var out string
	res, err := p.act(ctx, "Ran the script", func(s *sessions.Session) error {
		v, err := s.ExecuteScript(script, args)
		out = string(v)
		return err
	})
	if err != nil {
		switch {
		case errors.Is(err, browser.ErrTimeout):
			return nil, refusal.New("The script ran longer than the page's script timeout (30 s) and was stopped.", "Return sooner: do the slow part with the page tools, and use wait_for to wait for what it brings.")
		case errors.Is(err, browser.ErrSessionGone):
			return nil, err
		}
		return nil, fmt.Errorf("%w; fix the script and call execute_script again", err)
	}
	if n := utf8.RuneCountInString(out); n > MaxScriptResult {
		out = string([]rune(out)[:MaxScriptResult]) + fmt.Sprintf("\n[cut: the result is %d characters, %d shown; return less, e.g. a slice, a count or the one field you need]", n, MaxScriptResult)
	}
	return reword(res, func(text string) string { return text + " It returned:\n" + out }), nil
}
