package manual

import (
	"strings"
	"testing"

	"gotest.tools/v3/assert"
)

func TestRewriteLinks(t *testing.T) {
	upper := func(d string) (string, bool) {
		if strings.HasPrefix(d, "gone") {
			return "", false
		}
		return strings.ToUpper(d), true
	}
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "see [a](x.md) and [b](y#f).\n", "see [a](X.MD) and [b](Y#F).\n"},
		{"code span", "`[a](x.md)` and [a](x.md)\n", "`[a](x.md)` and [a](X.MD)\n"},
		{"double backticks", "``a ` [b](c) `` [d](e)\n", "``a ` [b](c) `` [d](E)\n"},
		{"fence", "```json\n[a](x)\n```\n[a](x)\n", "```json\n[a](x)\n```\n[a](X)\n"},
		{"tilde fence", "~~~\n[a](x)\n~~~\n", "~~~\n[a](x)\n~~~\n"},
		{"dropped", "[text](gone) and [gone://x](gone://x)\n", "text and `gone://x`\n"},
		{"escaped", `\[a](x) [b](x)` + "\n", `\[a](x) [b](X)` + "\n"},
		{"not a link", "[a] (x) [b]\n", "[a] (x) [b]\n"},
		{"image", "![alt](p.png)\n", "![alt](P.PNG)\n"},
		{"link in table", "| [a](x.md) | `b` |\n", "| [a](X.MD) | `b` |\n"},
		{"link in link text", "[see [a](x)](y)\n", "[see [a](X)](Y)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, rewriteLinks(tc.in, upper), tc.want)
		})
	}
}

func TestSlugMatchesGoldmark(t *testing.T) {
	for _, h := range []string{"`knowledge://index`", "Selenium Flow: Ground Rules", "skill://{id}/references/{file}", "Waiting and timing", "a_b-c d"} {
		assert.DeepEqual(t, HeadingIDs("# "+h+"\n"), []string{slug(h)})
	}
}

func TestHeadingIDs(t *testing.T) {
	for _, tc := range []struct {
		name, md string
		want     []string
	}{
		{"levels", "# A\n\n## B c\n\n###### d\n", []string{"a", "b-c", "d"}},
		{"repeated", "## B c\n\n## B c\n\n## B c\n", []string{"b-c", "b-c-1", "b-c-2"}},
		{"code span", "### `x://y`\n", []string{"xy"}},
		{"fence", "```\n# not a heading\n```\n~~~\n# nor this\n~~~\n# A\n", []string{"a"}},
		{"indented code", "    # not a heading\n", nil},
		{"no space", "#nospace\n", nil},
		{"setext", "Title\n=====\n\nSub\n---\n", []string{"title", "sub"}},
		{"in a list", "- # Item\n", []string{"item"}},
		{"after the generated header", header + "# T\n", []string{"t"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.DeepEqual(t, HeadingIDs(tc.md), tc.want)
		})
	}
}

func TestPaths(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"README.md", "tools/x.md", "tools/x.md"},
		{"tools/x.md", "README.md", "../README.md"},
		{"tools/x.md", "tools/y.md", "y.md"},
		{"skills/s/references/A.md", "skills/s/SKILL.md", "../SKILL.md"},
		{"skills/s/SKILL.md", "resources.md", "../../resources.md"},
		{"knowledge/a.md", "knowledge/b.md", "b.md"},
	} {
		assert.Equal(t, rel(tc.from, tc.to), tc.want, "%s → %s", tc.from, tc.to)
	}
	assert.Equal(t, htmlPath("README.md"), "index.html")
	assert.Equal(t, htmlPath("tools/README.md"), "tools/index.html")
	assert.Equal(t, htmlPath("skills/s/SKILL.md"), "skills/s/SKILL.html")
	assert.Equal(t, stripFrontMatter("---\nid: x\n---\n\n# T\n"), "# T\n")
	assert.Equal(t, stripFrontMatter("# T\n---\n"), "# T\n---\n")
}

func TestRenderHTMLLinks(t *testing.T) {
	p := Page{Path: "tools/x.md", Title: "X", Markdown: header + "# X\n\n[all](README.md) [res](../resources.md#a-b) [ext](https://example.com/a.md) [raw](openapi.json)\n"}
	out, err := renderHTML(p)
	assert.NilError(t, err)
	s := string(out)
	for _, want := range []string{`href="index.html"`, `href="../resources.html#a-b"`, `href="https://example.com/a.md"`, `href="openapi.json"`, `href="../style.css"`, `<title>X — selenium-flow manual</title>`} {
		assert.Check(t, strings.Contains(s, want), "no %s in\n%s", want, s)
	}
	_, err = renderHTML(Page{Path: "x.md", Markdown: "<b>raw</b>\n"})
	assert.ErrorContains(t, err, "raw HTML")
}
