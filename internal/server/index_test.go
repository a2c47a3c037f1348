package server_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/resources"
)

// exclusions are the configurations the index is checked under.
var exclusions = map[string][]string{
	"all tools":              nil,
	"flow tools excluded":    {"save_flow", "run_flow", "delete_flow"},
	"browser tools excluded": {"open_session", "close_session", "navigate", "outline", "click", "write", "press_key", "select", "wait_for", "assert", "screenshot", "print", "upload_file", "hover", "drag", "scroll", "read_text", "execute_script", "resize_window"},
}

// TestIndexEqualsServed: the index's live entries are the runtime
// resources resources/list lists, its templates are
// resources/templates/list, everything it names is served, and what it
// says is unavailable is not — with and without exclusions, and the
// instructions point at what the index says to read first.
func TestIndexEqualsServed(t *testing.T) {
	for name, excluded := range exclusions {
		t.Run(name, func(t *testing.T) {
			srv := newServer(t, func(c *server.Config) { c.ExcludeTools = excluded })
			c := transports["in-process"](t, srv, Modern)
			body, err := c.read(t, resources.IndexURI)
			assert.NilError(t, err)
			var idx resources.Index
			assert.NilError(t, json.Unmarshal(body, &idx))

			list, err := c.Client.ListResources(servertest.Context(t), mcp.ListResourcesRequest{})
			assert.NilError(t, err)
			tmpls, err := c.Client.ListResourceTemplates(servertest.Context(t), mcp.ListResourceTemplatesRequest{})
			assert.NilError(t, err)

			var live, listed []string
			for _, r := range list.Resources {
				listed = append(listed, r.URI)
				if e, ok := srv.Table().Lookup(r.URI); ok && e.Kind == resources.Runtime {
					live = append(live, r.URI+" "+r.Title)
				}
			}
			var idxLive []string
			for _, it := range idx.Live {
				idxLive = append(idxLive, it.URI+" "+it.Title)
			}
			assert.DeepEqual(t, sortedCopy(idxLive), sortedCopy(live))

			var served, idxTmpls []string
			for _, tm := range tmpls.ResourceTemplates {
				served = append(served, tm.URITemplate.Raw()+" "+tm.Title)
			}
			for _, it := range idx.Templates {
				idxTmpls = append(idxTmpls, it.URI+" "+it.Title)
			}
			assert.DeepEqual(t, sortedCopy(idxTmpls), sortedCopy(served))

			named := slices.Clone(idx.ReadFirst)
			for _, top := range idx.Topics {
				for _, d := range top.Documents {
					named = append(named, d.URI)
				}
				for _, s := range top.Skills {
					named = append(named, s.URI)
					for _, r := range s.References {
						_, err := c.read(t, r.URI) // references are read, not listed
						assert.Check(t, err == nil, "%s: %v", r.URI, err)
					}
				}
				for _, tool := range top.Tools {
					assert.Check(t, !slices.Contains(excluded, tool), "topic %s names excluded %s", top.ID, tool)
				}
			}
			for _, u := range named {
				assert.Check(t, slices.Contains(listed, u), "the index names %s, which resources/list does not list", u)
			}
			for _, u := range idx.ReadFirst {
				assert.Check(t, is.Contains(c.init.Instructions, u))
			}
			if len(excluded) == 0 {
				assert.Check(t, idx.Unavailable == nil)
				return
			}
			assert.Assert(t, idx.Unavailable != nil)
			for _, tool := range excluded {
				assert.Check(t, slices.Contains(idx.Unavailable.Tools, tool), tool)
				assert.Check(t, !strings.Contains(c.init.Instructions, tool), "the instructions name excluded %s: %s", tool, c.init.Instructions)
			}
			for _, u := range idx.Unavailable.Resources {
				assert.Check(t, !slices.Contains(listed, u) && !slices.ContainsFunc(served, func(s string) bool { return strings.HasPrefix(s, u+" ") }), "%s is unavailable and served", u)
				_, err := c.read(t, u)
				assert.Check(t, err != nil, "%s is unavailable and reads", u)
			}
		})
	}
}

func sortedCopy(s []string) []string { return slices.Sorted(slices.Values(s)) }
