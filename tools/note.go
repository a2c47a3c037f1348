package tools

import (
	"context"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// A page tool's result starts with one line when the workspace's browser
// had to be reopened before the call (sessions.Session.TakeNote): the
// caller learns that unsaved page state is gone without asking.

type noteKey struct{}

type noteBox struct{ text string }

// withNote gives the handler's context a place for that line and puts
// what lands there in front of the result, or of the refusal.
func withNote(h server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		box := &noteBox{}
		res, err := h(context.WithValue(ctx, noteKey{}, box), req)
		if box.text == "" {
			return res, err
		}
		if err != nil {
			return res, fmt.Errorf("%s %w", box.text, err)
		}
		if res != nil {
			res.Content = append([]mcp.Content{mcp.NewTextContent(box.text)}, res.Content...)
		}
		return res, nil
	}
}

// note records text (if any) for the result of the call ctx belongs to.
func note(ctx context.Context, text string) {
	if box, ok := ctx.Value(noteKey{}).(*noteBox); ok && text != "" {
		box.text = text
	}
}

// withNotes gives every tool of ts the line (withNote).
func withNotes(ts []Tool) []Tool {
	for i := range ts {
		ts[i].Handler = withNote(ts[i].Handler)
	}
	return ts
}
