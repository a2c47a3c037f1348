package workspaces_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

func TestMiddleware(t *testing.T) {
	h := workspaces.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := workspaces.Workspace(r.Context())
		_, _ = w.Write([]byte(n.Name + " " + string(n.How)))
	}))
	long := strings.Repeat("a", workspaces.MaxNameLen+1)
	for _, c := range []struct {
		name, target, header string
		code                 int
		body                 string
	}{
		{"unnamed", "/mcp", "", 200, "default default"},
		{"query", "/mcp?workspace=shop", "", 200, "shop query"},
		{"header", "/mcp", "shop-2.b_c", 200, "shop-2.b_c header"},
		{"both", "/mcp?workspace=shop", "shop", 400, "names its workspace twice"},
		{"twice in the query", "/mcp?workspace=a&workspace=b", "", 400, "more than one workspace"},
		{"slash", "/mcp?workspace=a%2Fb", "", 400, "not valid"},
		{"dot dot", "/mcp?workspace=..", "", 400, "not valid"},
		{"colon", "/mcp", "a:b", 400, "not valid"},
		{"empty", "/mcp?workspace=", "", 400, "not valid"},
		{"too long", "/mcp?workspace=" + long, "", 400, "not valid"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", c.target, nil)
			if c.header != "" {
				r.Header.Set(workspaces.Header, c.header)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			assert.Check(t, is.Equal(w.Code, c.code))
			assert.Check(t, is.Contains(w.Body.String(), c.body))
		})
	}
}

func FuzzFromRequest(f *testing.F) {
	for _, s := range []string{"default", "shop", "..", "a/b", "a:b", "", strings.Repeat("x", 70)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		r := httptest.NewRequest("GET", "/mcp", nil)
		r.Header.Set(workspaces.Header, name)
		n, err := workspaces.FromRequest(r)
		if err != nil {
			return
		}
		if !workspaces.ValidName(n.Name) || strings.ContainsAny(n.Name, "/:\\") || n.Name == ".." {
			t.Fatalf("accepted %q", n.Name)
		}
	})
}
