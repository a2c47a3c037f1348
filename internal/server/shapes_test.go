package server_test

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/tools"
)

// TestEveryToolHasAShape: every tool the server can offer was declared with
// a shape, and carries exactly that shape's annotations.
func TestEveryToolHasAShape(t *testing.T) {
	all := servertest.New(t, server.Config{}).Tools()
	assert.Assert(t, len(all) > 0)
	for _, tl := range all {
		assert.Check(t, !tl.Shape.IsZero(), "%s was declared without a shape", tl.Def.Name)
		assert.Check(t, tl.Shape.Fits(tl.Def.Annotations), "%s: annotations %+v are not those of its shape %s", tl.Def.Name, tl.Def.Annotations, tl.Shape.Name())
	}
}

// TestShapesAreDistinct: no two declared shapes carry the same annotations,
// so a served annotation names exactly one shape.
func TestShapesAreDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, s := range tools.Shapes() {
		assert.Check(t, !s.IsZero())
		a := tools.New("x", "X", s, "", nil).Def.Annotations
		key := hints(a)
		if other, ok := seen[key]; ok {
			t.Errorf("shapes %s and %s carry the same annotations %s", other, s.Name(), key)
		}
		seen[key] = s.Name()
		got, ok := tools.ShapeOf(a)
		assert.Check(t, ok && got == s, "ShapeOf(%s) = %s, want %s", key, got.Name(), s.Name())
	}
}

func hints(a mcp.ToolAnnotation) string {
	b := func(name string, p *bool) string {
		switch {
		case p == nil:
			return name + "=?"
		case *p:
			return name + "=1"
		}
		return name + "=0"
	}
	return strings.Join([]string{
		b("readOnly", a.ReadOnlyHint), b("destructive", a.DestructiveHint),
		b("idempotent", a.IdempotentHint), b("openWorld", a.OpenWorldHint),
	}, ",")
}

// TestServedToolsDeclareShapes reads tools/list from the server, as
// the client that is offered the most (the mirror and the MCP App tool), and
// fails on a tool with no title or annotations that fit no declared shape.
func TestServedToolsDeclareShapes(t *testing.T) {
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, servertest.New(t, server.Config{Resources: surface.Off}), tr, servertest.Options{
				Capabilities: mcp.ClientCapabilities{Extensions: map[string]any{surface.AppsExtension: map[string]any{}}},
			})
			res, err := c.ListTools(servertest.Context(t), mcp.ListToolsRequest{})
			assert.NilError(t, err)
			assert.Assert(t, len(res.Tools) > 0)
			for _, tl := range res.Tools {
				assert.Check(t, tl.Title != "" || tl.Annotations.Title != "", "%s has no title", tl.Name)
				assert.Check(t, tl.Title == "" || tl.Annotations.Title == "" || tl.Title == tl.Annotations.Title,
					"%s: title %q and annotations.title %q differ", tl.Name, tl.Title, tl.Annotations.Title)
				if _, ok := tools.ShapeOf(tl.Annotations); !ok {
					t.Errorf("%s: annotations %s fit no declared shape (%s)", tl.Name, hints(tl.Annotations), shapeNames())
				}
			}
		})
	}
}

func shapeNames() string {
	var names []string
	for _, s := range tools.Shapes() {
		names = append(names, s.Name())
	}
	return strings.Join(names, ", ")
}
