// Package manual generates selenium-flow's manual under docs/: a page per
// tool from the running server's own tools/list, a resource reference, the
// read API and its OpenAPI document, the skill catalog and the knowledge
// documents from the resource table, and an install page from the client
// presets. It writes the manual as Markdown (docs/manual) and renders the
// same pages to HTML with goldmark (docs/site). Nothing in either is
// written by hand: `make docs` regenerates both, and `make test` fails when
// they are stale.
//
// The server is started in-process, exactly as cmd/selenium-flow builds it,
// so the manual describes whatever tools and resources are registered.
package manual

// The table is rewritten first so that `go generate ./...` never renders
// the manual from a stale table, whatever order it visits packages in.
//go:generate go run ../../gen -root ../.. -out ../../resources/table_gen.go
//go:generate go run ./cmd -root ../..

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strings"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/resources"
)

// Page is one page of the manual.
type Page struct {
	// Path is the page's place in docs/manual, with slashes; a directory's
	// README.md is its index.
	Path  string
	Title string
	// Markdown is the page's source, starting with the generated header.
	Markdown string
}

// Manual is everything the manual is made of.
type Manual struct {
	Pages []Page
	// Assets are files published beside the pages in both trees, by path.
	Assets map[string][]byte
}

// source is what the pages are generated from.
type source struct {
	tools   []tool
	entries []resources.Entry // served, hidden ones left out
	table   *resources.Table
	scope   resources.Scope
	openapi []byte
}

// Build starts the server in-process, reads its tools and resources, and
// returns the manual.
func Build(ctx context.Context) (*Manual, error) {
	src, err := load(ctx)
	if err != nil {
		return nil, err
	}
	return src.manual()
}

func load(ctx context.Context) (*source, error) {
	data, err := os.MkdirTemp("", "selenium-flow-manual-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(data)
	srv, err := server.New(server.Config{Resources: surface.Off, DataDir: data, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		return nil, fmt.Errorf("cannot start the server to read its tools: %w", err)
	}
	defer srv.Close()

	ts, err := listTools(ctx, srv)
	if err != nil {
		return nil, err
	}
	src := &source{tools: ts, table: srv.Table(), scope: srv.Table().Scope()}
	for _, e := range srv.Table().Entries() {
		if !e.Hidden {
			src.entries = append(src.entries, e)
		}
	}
	if src.openapi, err = srv.OpenAPI(); err != nil {
		return nil, err
	}
	return src, nil
}

// listTools asks the server for its tools as a client does: tools/list
// over an in-process mcp-go client that gets the mirror tools and declares
// MCP Apps, so every tool is visible. A tool the server holds but still
// does not list to this client is added from its definition.
func listTools(ctx context.Context, srv *server.Server) ([]tool, error) {
	c, err := mcpclient.NewInProcessClient(srv.MCP())
	if err != nil {
		return nil, err
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return nil, err
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: "selenium-flow-manual", Version: server.Version}
	init.Params.Capabilities.Extensions = map[string]any{surface.AppsExtension: map[string]any{}}
	if _, err := c.Initialize(ctx, init); err != nil {
		return nil, fmt.Errorf("initialize: %w", err)
	}
	var listed []mcp.Tool
	req := mcp.ListToolsRequest{}
	for {
		res, err := c.ListTools(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		listed = append(listed, res.Tools...)
		if res.NextCursor == "" {
			break
		}
		req.Params.Cursor = res.NextCursor
	}
	for _, t := range srv.Tools() {
		if !slices.ContainsFunc(listed, func(l mcp.Tool) bool { return l.Name == t.Def.Name }) {
			listed = append(listed, t.Def)
		}
	}
	out := make([]tool, 0, len(listed))
	for _, l := range listed {
		raw, err := json.Marshal(l)
		if err != nil {
			return nil, fmt.Errorf("tool %s does not marshal: %w", l.Name, err)
		}
		var t tool
		if err := json.Unmarshal(raw, &t); err != nil {
			return nil, fmt.Errorf("tool %s: %w", l.Name, err)
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b tool) int { return cmp.Compare(a.Name, b.Name) })
	return out, nil
}

// manual lays out every page.
func (s *source) manual() (*Manual, error) {
	m := &Manual{Assets: map[string][]byte{"openapi.json": s.openapi}}
	m.Pages = append(m.Pages, s.indexPage())
	m.Pages = append(m.Pages, s.toolPages()...)
	m.Pages = append(m.Pages, s.resourcePage())
	m.Pages = append(m.Pages, s.httpPages()...)
	corpus, err := s.corpusPages()
	if err != nil {
		return nil, err
	}
	m.Pages = append(m.Pages, corpus...)
	m.Pages = append(m.Pages, installPage(), operationsPage())
	seen := map[string]bool{}
	for _, p := range m.Pages {
		if seen[p.Path] || seen[htmlPath(p.Path)] {
			return nil, fmt.Errorf("two pages of the manual would be %s", p.Path)
		}
		seen[p.Path], seen[htmlPath(p.Path)] = true, true
	}
	return m, nil
}

// sections are the manual's parts, for the index and the navigation bar.
var sections = []struct{ Title, Path, About string }{
	{"Tools", "tools/README.md", "every tool the server offers: annotations, description, arguments and an example call"},
	{"Resources", "resources.md", "every resource and template, with URI, type, size and priority"},
	{"Skills", "skills/README.md", "the skills the server publishes, with every reference page"},
	{"Knowledge", "knowledge/README.md", "the knowledge documents, by topic"},
	{"HTTP API", "http-api.md", "every tool as an HTTP endpoint, the flow, file and read routes, operations, and the OpenAPI document, a page per endpoint group"},
	{"Installing", "install.md", "skill directories of each client, and the MCP configuration that connects it"},
	{"Operations", "operations.md", "every setting and the configuration file, metrics, traces and logs"},
}

func (s *source) indexPage() Page {
	const at = "README.md"
	var b strings.Builder
	b.WriteString(header)
	b.WriteString("# selenium-flow manual\n\n")
	b.WriteString(text(s.scope.Purpose) + "\n\n")
	if s.scope.Coverage != "" {
		b.WriteString(text(s.scope.Coverage) + "\n\n")
	}
	for _, sec := range sections {
		fmt.Fprintf(&b, "- %s — %s.\n", link(sec.Title, rel(at, sec.Path)), text(sec.About))
	}
	fmt.Fprintf(&b, "\nThis build offers %d tools and serves %d resources and templates. ", len(s.tools), len(s.entries))
	b.WriteString("Every page is generated from the server itself; run `make docs` after changing a tool, a skill or a document.\n")
	return Page{Path: at, Title: "selenium-flow manual", Markdown: b.String()}
}
