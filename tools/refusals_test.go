package tools_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestRefusalsAreMadeByRefusal: no tool builds an isError result itself.
// A handler returns an error (refusal.New for a sentence with its next
// step) and the server's middleware makes it the result, through
// internal/refusal, the one place a refusal is made.
func TestRefusalsAreMadeByRefusal(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch x := n.(type) {
			case *ast.SelectorExpr:
				if id, ok := x.X.(*ast.Ident); ok && id.Name == "mcp" && strings.HasPrefix(x.Sel.Name, "NewToolResultError") {
					t.Errorf("%s: mcp.%s builds a refusal outside internal/refusal; return refusal.New(what, next) as the error instead", fset.Position(x.Pos()), x.Sel.Name)
				}
			case *ast.KeyValueExpr:
				if k, ok := x.Key.(*ast.Ident); ok && k.Name == "IsError" {
					t.Errorf("%s: IsError set by hand; return refusal.New(what, next) as the error instead", fset.Position(x.Pos()))
				}
			}
			return true
		})
	}
}
