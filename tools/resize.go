package tools

import (
	"context"
	"fmt"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// resizeTool sets the viewport size of the open session.
func (p *pageTools) resizeTool() Tool {
	return New("resize_window", "Resize Window", Upsert.OnPage(),
		"Make the page's viewport WIDTHxHEIGHT CSS pixels at any time, e.g. 390x844 to see a site's phone layout or 1920x1080 for a wide table, without closing the session or losing logins. "+
			"Pages that lay out by width change their controls: call outline after resizing, and screenshot to see it. "+
			"Each side is from 100 to 8192 pixels. open_session's window sets the size at the start.",
		p.resize,
		mcp.WithString("window", mcp.Required(), mcp.Description("viewport size WIDTHxHEIGHT, e.g. 1280x800")),
	)
}

func (p *pageTools) resize(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	w := req.GetString("window", "")
	m := windowRE.FindStringSubmatch(w)
	if m == nil {
		return nil, refusal.New(fmt.Sprintf("window %q is not WIDTHxHEIGHT.", w), "Pass e.g. 1280x800 or 390x844.")
	}
	var size browser.Window
	size.Width, _ = strconv.Atoi(m[1])
	size.Height, _ = strconv.Atoi(m[2])
	if size.Width < 100 || size.Height < 100 || size.Width > maxWindow || size.Height > maxWindow {
		return nil, refusal.New(fmt.Sprintf("window %q is outside 100x100 to %dx%d.", w, maxWindow, maxWindow), "Pass e.g. 1280x800 or 390x844.")
	}
	return p.act(ctx, "The viewport is now "+w, func(s *sessions.Session) error { return s.Resize(size) })
}
