package server

import (
	"slices"
	"strings"

	"github.com/selenium-flow/selenium-flow/tools"
)

// Route is the HTTP endpoint of one tool: every tool the server serves
// has exactly one (the test TestEveryToolHasAnEndpoint holds the two
// lists together), and the OpenAPI document marks it with x-mcp-tool.
type Route struct {
	// Tool is the tool's name.
	Tool string
	// Method and Path are the endpoint, in OpenAPI's path syntax.
	Method, Path string
	// Group is the endpoint group the manual gives a page: browser,
	// flows or resources.
	Group string
}

// NoEndpoint are the tools that have no HTTP endpoint, each with the
// reason; the 1:1 test accepts only these.
var NoEndpoint = map[string]string{
	"show": "show draws a resource in an MCP App inside the chat host; an HTTP caller reads the resource itself with GET /resources/{uri}",
}

// routeFor is the endpoint of a tool: the page tools (and the session
// tools) under /browser/, the flow tools as the flow routes, the
// resource mirror as the read API.
func routeFor(name string) (Route, bool) {
	switch name {
	case "save_flow":
		return Route{Tool: name, Method: "PUT", Path: FlowsPath + "/{name}", Group: "flows"}, true
	case "delete_flow":
		return Route{Tool: name, Method: "DELETE", Path: FlowsPath + "/{name}", Group: "flows"}, true
	case "run_flow":
		return Route{Tool: name, Method: "POST", Path: FlowsPath + "/{name}/runs", Group: "flows"}, true
	case "list_resources":
		return Route{Tool: name, Method: "GET", Path: strings.TrimSuffix(ReadPrefix, "/"), Group: "resources"}, true
	case "read_resource":
		return Route{Tool: name, Method: "GET", Path: ReadPrefix + "{uri}", Group: "resources"}, true
	}
	if _, none := NoEndpoint[name]; none {
		return Route{}, false
	}
	return Route{Tool: name, Method: "POST", Path: BrowserPrefix + name, Group: "browser"}, true
}

// Routes are the endpoints of the tools this server serves, in the
// tools' order.
func (s *Server) Routes() []Route {
	var out []Route
	for _, t := range s.tools {
		if r, ok := routeFor(t.Def.Name); ok {
			out = append(out, r)
		}
	}
	return out
}

// route is the endpoint of a tool this server serves.
func (s *Server) route(name string) (Route, bool) {
	if !slices.ContainsFunc(s.tools, func(t tools.Tool) bool { return t.Def.Name == name }) {
		return Route{}, false
	}
	return routeFor(name)
}

// pageToolNames are the tools served under /browser/.
func (s *Server) pageToolNames() []string {
	var out []string
	for _, r := range s.Routes() {
		if r.Group == "browser" {
			out = append(out, r.Tool)
		}
	}
	return out
}
