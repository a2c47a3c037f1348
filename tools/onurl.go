package tools

import (
	"context"
	"maps"
	"net/url"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// urlTools are the page tools that take an optional url: when it is given
// and the browser is elsewhere, the tool goes there first and then acts.
// It is not a check. wait_for and assert are not among them: their url is
// what they check.
var urlTools = []string{"outline", "click", "write", "press_key", "select", "hover", "drag", "scroll", "read_text", "screenshot"}

// withURL gives each of urlTools in ts the url argument.
func (p *pageTools) withURL(ts []Tool) []Tool {
	for i, t := range ts {
		if slices.Contains(urlTools, t.Def.Name) {
			ts[i] = p.goingTo(t)
		}
	}
	return ts
}

// goingTo wraps a page tool: with url given, the browser loads it unless
// it is already there (sameURL), then the tool runs without url.
func (p *pageTools) goingTo(t Tool) Tool {
	def := t.Def
	// The properties are the wrapped tool's map: a copy gets url.
	def.InputSchema.Properties = maps.Clone(def.InputSchema.Properties)
	property(&def, "url", map[string]any{
		"type":        "string",
		"description": "absolute http(s) URL to load first unless the browser is already there (not a check)",
	})
	inner := t.Handler
	h := func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.GetArguments()
		u, _ := args["url"].(string)
		if u == "" {
			return inner(ctx, req)
		}
		if err := checkURL(u); err != nil {
			return nil, err
		}
		rest := maps.Clone(args)
		delete(rest, "url")
		req.Params.Arguments = rest
		went := false
		err := p.do(ctx, func(s *sessions.Session) error {
			if cur, err := s.CurrentURL(); err == nil && sameURL(cur, u) {
				return nil
			}
			went = true
			return s.Navigate(u)
		})
		if err != nil {
			return nil, err
		}
		res, err := inner(ctx, req)
		if went && res != nil {
			res = reword(res, func(text string) string { return "Loaded " + u + " first. " + text })
		}
		return res, err
	}
	return Tool{Def: def, Shape: t.Shape, Handler: checked(def, h)}
}

// sameURL reports whether two URLs name the same page: the fragment and a
// trailing slash of the path do not count, nor the case of scheme and host.
func sameURL(a, b string) bool {
	ua, errA := url.Parse(strings.TrimSpace(a))
	ub, errB := url.Parse(strings.TrimSpace(b))
	if errA != nil || errB != nil {
		return false
	}
	norm := func(u *url.URL) string {
		return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Host) + strings.TrimSuffix(u.EscapedPath(), "/") + "?" + u.RawQuery
	}
	return norm(ua) == norm(ub)
}
