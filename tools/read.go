package tools

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// readTool reads text or HTML, a part at a time.
func (p *pageTools) readTool() Tool {
	return New("read_text", "Read Text", ReadOnly.OnPage(),
		fmt.Sprintf("Read the visible text of the page or of one element (locator), or its HTML with html: a response body, an article, an error message, a table cell the outline cut short. "+
			"At most max characters come back (default %d, at most %d); a longer text ends with a line saying how many characters remain and the exact read_text call to read on from offset. "+
			"A field's value is read, never a password's; secret values are masked. For controls and their locators use outline.", browser.DefaultRead, browser.MaxRead),
		p.readText,
		locatorArg("locator", false, "the element to read; the whole page when left out"),
		mcp.WithBoolean("html", mcp.Description("return the element's (or page's) HTML instead of its text")),
		mcp.WithNumber("offset", mcp.Description("character to start at, 0 first; the cut line gives the next one")),
		mcp.WithNumber("max", mcp.Description(fmt.Sprintf("characters to return at most, default %d, up to %d", browser.DefaultRead, browser.MaxRead))),
	)
}

func (p *pageTools) readText(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	loc, err := locatorFrom(args, "locator")
	if err != nil {
		return nil, err
	}
	o := browser.ReadOptions{HTML: req.GetBool("html", false)}
	if o.Offset, err = count(args, "offset", 0, 1<<31-1); err != nil {
		return nil, err
	}
	if o.Max, err = count(args, "max", 1, browser.MaxRead); err != nil {
		return nil, err
	}
	var r browser.Reading
	if err := p.do(ctx, func(s *sessions.Session) (err error) { r, err = s.Read(loc, o); return err }); err != nil {
		return nil, err
	}
	text := r.Text
	if r.Remaining() > 0 {
		next := map[string]any{"offset": r.End}
		if loc != nil {
			next["locator"] = loc
		}
		if o.HTML {
			next["html"] = true
		}
		if o.Max != 0 {
			next["max"] = o.Max
		}
		call, _ := json.Marshal(next)
		text += fmt.Sprintf("\n[cut: characters %d–%d of %d shown, %d remain; read on with read_text %s]", r.Offset, r.End, r.Total, r.Remaining(), call)
	}
	if text == "" {
		text = "(no text)"
		if r.Total > 0 {
			text = fmt.Sprintf("(no text from offset %d)", r.Offset)
		}
	}
	return mcp.NewToolResultText(text), nil
}

// count reads an optional whole-number argument within [least, most]; 0
// when it is not given.
func count(args map[string]any, name string, least, most int) (int, error) {
	v, ok := args[name]
	if !ok || v == nil {
		return 0, nil
	}
	f, ok := v.(float64)
	if !ok {
		var s string
		if s, ok = v.(string); ok {
			_, err := fmt.Sscan(s, &f)
			ok = err == nil
		}
	}
	if !ok || f != float64(int(f)) || int(f) < least || int(f) > most {
		return 0, refusal.New(fmt.Sprintf("%s is not a whole number from %d to %d.", name, least, most), fmt.Sprintf("Pass e.g. %d.", max(least, 1000)))
	}
	return int(f), nil
}
