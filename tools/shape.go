// Package tools declares the server's tools, one file per family, each
// given a shape that decides its annotations.
package tools

import (
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Shape is what a tool does to the world, declared once here; every tool
// gets its annotations from its shape and none is annotated by hand.
type Shape struct {
	name        string
	readOnly    bool
	destructive bool
	idempotent  bool
	openWorld   bool
}

var (
	// ReadOnly tools change nothing: reading a page, a list, a resource.
	ReadOnly = Shape{name: "read-only", readOnly: true, idempotent: true}
	// Upsert tools set something to a value; calling twice is calling once.
	Upsert = Shape{name: "upsert", destructive: true, idempotent: true}
	// Create tools add something each call: a kept file, a run, a keypress.
	Create = Shape{name: "create"}
)

// OnPage marks a shape as reaching a web page. What a page does with a
// click or a keystroke is not ours to know, so a page tool that is not
// read-only may be destructive.
func (s Shape) OnPage() Shape {
	s.openWorld = true
	if !s.readOnly {
		s.destructive = true
	}
	s.name += "+page"
	return s
}

// Name is the shape's name as the docs and tests show it.
func (s Shape) Name() string { return s.name }

func (s Shape) annotation(title string) mcp.ToolAnnotation {
	return mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    mcp.ToBoolPtr(s.readOnly),
		DestructiveHint: mcp.ToBoolPtr(s.destructive),
		IdempotentHint:  mcp.ToBoolPtr(s.idempotent),
		OpenWorldHint:   mcp.ToBoolPtr(s.openWorld),
	}
}

// Tool is one tool: its definition, its handler and the shape it was made with.
type Tool struct {
	Def     mcp.Tool
	Shape   Shape
	Handler server.ToolHandlerFunc
}

// New declares a tool with a title, a shape and a description; opts add the
// input schema.
func New(name, title string, shape Shape, description string, handler server.ToolHandlerFunc, opts ...mcp.ToolOption) Tool {
	all := append([]mcp.ToolOption{
		mcp.WithToolTitle(title),
		mcp.WithDescription(description),
	}, opts...)
	def := mcp.NewTool(name, all...)
	def.Annotations = shape.annotation(title)
	return Tool{Def: def, Shape: shape, Handler: handler}
}

// ServerTools converts tools for server.AddTools.
func ServerTools(ts []Tool) []server.ServerTool {
	out := make([]server.ServerTool, len(ts))
	for i, t := range ts {
		out[i] = server.ServerTool{Tool: t.Def, Handler: t.Handler}
	}
	return out
}
