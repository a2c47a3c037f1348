// Package tools declares the server's tools, one file per family, each
// given a shape that decides its annotations.
package tools

import (
	"slices"

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

// ReadingPage marks a shape as reading a web page without acting on it:
// screenshot and print add a file of what the page shows and leave the
// page as it was, so they reach the open world but are not destructive.
func (s Shape) ReadingPage() Shape {
	s.openWorld = true
	s.name += "+reading-page"
	return s
}

// Name is the shape's name as the docs and tests show it.
func (s Shape) Name() string { return s.name }

// Shapes lists every shape a tool can be declared with: each kind, off the
// page, on it, and (for a kind that adds something) reading it. A served
// tool's annotations must be one of these.
func Shapes() []Shape {
	kinds := []Shape{ReadOnly, Upsert, Create}
	out := slices.Clone(kinds)
	for _, k := range kinds {
		out = append(out, k.OnPage())
	}
	return append(out, Create.ReadingPage())
}

// IsZero reports whether s is the zero Shape, which no tool is declared with.
func (s Shape) IsZero() bool { return s == Shape{} }

// Fits reports whether a served annotation says exactly what this shape
// says: every hint present and equal. The title is not compared.
func (s Shape) Fits(a mcp.ToolAnnotation) bool {
	want := s.annotation(a.Title)
	same := func(x, y *bool) bool { return x != nil && y != nil && *x == *y }
	return same(a.ReadOnlyHint, want.ReadOnlyHint) &&
		same(a.DestructiveHint, want.DestructiveHint) &&
		same(a.IdempotentHint, want.IdempotentHint) &&
		same(a.OpenWorldHint, want.OpenWorldHint)
}

// ShapeOf returns the declared shape a served annotation fits, if any.
func ShapeOf(a mcp.ToolAnnotation) (Shape, bool) {
	for _, s := range Shapes() {
		if s.Fits(a) {
			return s, true
		}
	}
	return Shape{}, false
}

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
// input schema. The handler is called only with arguments the schema
// allows (see checked).
func New(name, title string, shape Shape, description string, handler server.ToolHandlerFunc, opts ...mcp.ToolOption) Tool {
	all := append([]mcp.ToolOption{
		mcp.WithToolTitle(title),
		mcp.WithDescription(description),
	}, opts...)
	def := mcp.NewTool(name, all...)
	def.Annotations = shape.annotation(title)
	return Tool{Def: def, Shape: shape, Handler: checked(def, handler)}
}
