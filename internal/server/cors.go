package server

import (
	"net/http"
	"slices"
	"strings"
)

// corsHeaders are the request headers a page of an allowed origin may
// send: the token, the JSON body's type, the workspace and surface
// choices and the MCP transport's own.
var corsHeaders = []string{"Authorization", "Content-Type", "Accept", "X-Workspace", "X-MCP-Resources",
	"Mcp-Session-Id", "Mcp-Protocol-Version", "Mcp-Method", "Last-Event-ID", "Range"}

// corsExposed are the response headers such a page may read.
var corsExposed = []string{"Mcp-Session-Id", "Content-Disposition", "Content-Range", "X-MCP-Resource"}

// cors lets pages of the origins in Config.AllowedOrigins
// (FLOW_ALLOWED_ORIGINS) call the server from a browser: a Swagger UI
// pointed at /openapi.json, a dashboard. It is off when the list is empty:
// no response then carries an Access-Control header, and a browser keeps
// other origins' pages from reading any answer. It sits inside guardHTTP,
// which has already refused every origin not allowed, and outside the
// token check, since a preflight carries no token.
func (s *Server) cors(next http.Handler) http.Handler {
	if len(s.cfg.AllowedOrigins) == 0 {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		origin := strings.TrimRight(r.Header.Get("Origin"), "/")
		if origin == "" || !slices.Contains(s.cfg.AllowedOrigins, origin) {
			next.ServeHTTP(w, r)
			return
		}
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		h.Add("Vary", "Origin")
		if r.Method == http.MethodOptions && r.Header.Get("Access-Control-Request-Method") != "" {
			h.Set("Access-Control-Allow-Methods", "GET, HEAD, POST, PUT, DELETE")
			h.Set("Access-Control-Allow-Headers", strings.Join(corsHeaders, ", "))
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		h.Set("Access-Control-Expose-Headers", strings.Join(corsExposed, ", "))
		next.ServeHTTP(w, r)
	})
}
