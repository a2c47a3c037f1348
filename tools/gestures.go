package tools

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// pointArg declares an offset argument {x, y} in CSS pixels.
func pointArg(name, desc string) mcp.ToolOption {
	return func(t *mcp.Tool) {
		property(t, name, map[string]any{
			"type":        "object",
			"description": desc,
			"properties": map[string]any{
				"x": map[string]any{"type": "integer", "description": "pixels to the right (negative: left)"},
				"y": map[string]any{"type": "integer", "description": "pixels down (negative: up)"},
			},
			"additionalProperties": false,
		})
	}
}

// pointFrom reads an offset argument; nil when it is not given.
func pointFrom(args map[string]any, name string) (*browser.Point, error) {
	v, ok := args[name].(map[string]any)
	if !ok {
		return nil, nil
	}
	var p browser.Point
	for key, dst := range map[string]*int{"x": &p.X, "y": &p.Y} {
		switch n := v[key].(type) {
		case nil:
		case float64:
			if n != float64(int(n)) {
				return nil, refusal.New(fmt.Sprintf("%s.%s is not a whole number of pixels.", name, key), fmt.Sprintf(`Pass e.g. {"%s": {"x": 100, "y": 0}}.`, name))
			}
			*dst = int(n)
		default:
			return nil, refusal.New(fmt.Sprintf("%s.%s is not a number of pixels.", name, key), fmt.Sprintf(`Pass e.g. {"%s": {"x": 100, "y": 0}}.`, name))
		}
	}
	return &p, nil
}

// gestures are the pointer tools besides click: hover, drag and scroll.
func (p *pageTools) gestures() []Tool {
	return []Tool{
		New("hover", "Hover", Create.OnPage(),
			"Move the pointer over the one element a locator matches and leave it there, so what the page shows on hover (a menu, a row's delete button, a tooltip) stays shown. "+
				"Then click the revealed item: the click goes straight to it and the menu stays open. "+
				"Call outline after hovering to see the revealed controls and their locators; the element is scrolled into view first.",
			p.hover,
			locatorArg("locator", true, "the element to hover over"),
		),
		New("drag", "Drag", Create.OnPage(),
			"Drag the element a locator matches and drop it onto another element (to) or at an offset in pixels (by): moving a card between lists, reordering, or moving a slider's thumb. "+
				"Both HTML5 drag-and-drop (draggable elements) and pointer-driven widgets work. "+
				"Give exactly one of to or by. A drop target that does not accept the drag is refused. "+
				"Check the result with outline, read_text or assert.",
			p.drag,
			locatorArg("locator", true, "the element to drag"),
			locatorArg("to", false, "the element to drop it on"),
			pointArg("by", "drop it this many pixels from where it is, e.g. {\"x\": 100, \"y\": 0}"),
		),
		New("scroll", "Scroll", Create.OnPage(),
			"Scroll the page: bring the element a locator matches into view (locator), move the page by pixels (by), or scroll inside a scrollable element (locator and by). "+
				"It returns the scroll position. Actions scroll their element into view by themselves, so scroll is for content that loads as you scroll (infinite lists) or for a screenshot of a part of the page. "+
				"Follow with wait_for for content that loads late, or outline.",
			p.scroll,
			locatorArg("locator", false, "the element to bring into view, or to scroll inside with by"),
			pointArg("by", "pixels to scroll, e.g. {\"y\": 600} for down"),
		),
	}
}

func (p *pageTools) hover(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	loc, err := requireLocator(req.GetArguments(), "locator")
	if err != nil {
		return nil, err
	}
	return p.act(ctx, "The pointer is over "+loc.String()+"; call outline to see what it revealed", func(s *sessions.Session) error { return s.Hover(loc) })
}

func (p *pageTools) drag(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	from, err := requireLocator(args, "locator")
	if err != nil {
		return nil, err
	}
	to, err := locatorFrom(args, "to")
	if err != nil {
		return nil, err
	}
	by, err := pointFrom(args, "by")
	if err != nil {
		return nil, err
	}
	if (to == nil) == (by == nil) {
		return nil, refusal.New("drag takes exactly one of to or by.", `Pass to with the drop target's locator, e.g. {"to": {"css": "#done"}}, or by with an offset, e.g. {"by": {"x": 100, "y": 0}}.`)
	}
	what := "Dragged " + from.String()
	if to != nil {
		what += " onto " + to.String()
	} else {
		what += fmt.Sprintf(" by (%d, %d)", by.X, by.Y)
	}
	return p.act(ctx, what, func(s *sessions.Session) error { return s.Drag(from, to, by) })
}

func (p *pageTools) scroll(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	args := req.GetArguments()
	loc, err := locatorFrom(args, "locator")
	if err != nil {
		return nil, err
	}
	by, err := pointFrom(args, "by")
	if err != nil {
		return nil, err
	}
	if loc == nil && by == nil {
		return nil, refusal.New("scroll needs a locator, by, or both.", `Pass e.g. {"locator": {"text": "Load more"}} to bring it into view, or {"by": {"y": 600}} to scroll the page down.`)
	}
	var r browser.ScrollResult
	var what string
	res, err := p.act(ctx, "Scrolled", func(s *sessions.Session) (err error) {
		r, err = s.Scroll(loc, by)
		return err
	})
	if err != nil {
		return nil, err
	}
	switch {
	case loc != nil && by != nil:
		what = fmt.Sprintf("Inside %s the scroll position is now x=%d, y=%d.", loc, r.X, r.Y)
	default:
		what = fmt.Sprintf("The page's scroll position is now x=%d, y=%d.", r.X, r.Y)
	}
	return reword(res, func(text string) string { return text + " " + what }), nil
}
