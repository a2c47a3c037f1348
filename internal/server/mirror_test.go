package server_test

import (
	"encoding/json"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/resources"
)

// mirrorAll follows list_resources cursors to the end.
func mirrorAll(t *testing.T, c *servertest.Client) (items []resources.MirrorItem, pages int) {
	t.Helper()
	cursor := ""
	seen := map[string]bool{}
	for {
		args := map[string]any{}
		if cursor != "" {
			args["cursor"] = cursor
		}
		res := servertest.Call(t, c, "list_resources", args)
		assert.Assert(t, !res.IsError, servertest.Text(res))
		var page resources.MirrorPage
		assert.NilError(t, json.Unmarshal([]byte(servertest.Text(res)), &page))
		items = append(items, page.Resources...)
		pages++
		if page.NextCursor == "" {
			return items, pages
		}
		assert.Assert(t, !seen[page.NextCursor], "cursor repeated")
		seen[page.NextCursor] = true
		cursor = page.NextCursor
	}
}

func mirrorList(t *testing.T, c *servertest.Client) string {
	items, _ := mirrorAll(t, c)
	b, _ := json.Marshal(items)
	return string(b)
}

// TestMirror: list_resources pages through the same entries, titles and
// descriptions as the native lists; read_resource returns the same bytes;
// a miss names the templates; ui:// is refused.
func TestMirror(t *testing.T) {
	for _, tr := range servertest.LocalTransports {
		t.Run(string(tr), func(t *testing.T) {
			c := servertest.Local(t, servertest.New(t, server.Config{}), tr, servertest.Options{Info: vscode})
			items, pages := mirrorAll(t, c)
			assert.Check(t, pages >= 2, "expected paging, got %d page(s)", pages)

			native := map[string][2]string{}
			for _, r := range listResources(t, c) {
				if r.URI[:5] != "ui://" {
					native[r.URI] = [2]string{r.Title, r.Description}
				}
			}
			for _, tm := range listTemplates(t, c) {
				native[tm.URITemplate.Raw()] = [2]string{tm.Title, tm.Description}
			}
			mirrored := map[string][2]string{}
			for _, it := range items {
				uri := it.URI + it.URITemplate
				assert.Check(t, uri[:5] != "ui://", "the mirror lists %s", uri)
				mirrored[uri] = [2]string{it.Title, it.Description}
			}
			assert.DeepEqual(t, mirrored, native)

			res := servertest.Call(t, c, "read_resource", map[string]any{"uri": "skill://selenium-flow/SKILL.md"})
			assert.Check(t, !res.IsError)
			assert.Check(t, is.Equal(servertest.Text(res), repoFile(t, "skills/selenium-flow/SKILL.md")))

			miss := servertest.Call(t, c, "read_resource", map[string]any{"uri": "knowledge://documents/nope"})
			assert.Check(t, miss.IsError)
			assert.Check(t, is.Contains(servertest.Text(miss), `id "nope" is not one of: clients-and-resources`))
			assert.Check(t, is.Contains(servertest.Text(miss), "Try knowledge://documents/clients-and-resources"))

			odd := servertest.Call(t, c, "read_resource", map[string]any{"uri": "mystery://thing"})
			assert.Check(t, odd.IsError)
			assert.Check(t, is.Contains(servertest.Text(odd), "skill://{id}/references/{file} (e.g. skill://selenium-flow/references/"))

			ui := servertest.Call(t, c, "read_resource", map[string]any{"uri": "ui://selenium-flow/component"})
			assert.Check(t, ui.IsError)
			assert.Check(t, is.Contains(servertest.Text(ui), "call show"))

			bad := servertest.Call(t, c, "list_resources", map[string]any{"cursor": "not-a-cursor"})
			assert.Check(t, bad.IsError)
			assert.Check(t, is.Contains(servertest.Text(bad), "call list_resources without a cursor"))

			none := servertest.Call(t, c, "read_resource", map[string]any{})
			assert.Check(t, none.IsError)
			assert.Check(t, is.Contains(servertest.Text(none), `"uri" is required`))
		})
	}
}
