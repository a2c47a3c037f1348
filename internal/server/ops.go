package server

// The operational endpoints: GET /health (the process answers; no token
// needed, for load balancers), GET /ready (the browser endpoint answers)
// and GET /info (what this server offers). None names an address, a
// path or a secret.

import (
	"context"
	"net/http"
	"slices"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/refusal"
)

// The operational paths.
const (
	HealthPath = "/health"
	ReadyPath  = "/ready"
	InfoPath   = "/info"
)

// readyWait bounds how long GET /ready waits for the browser endpoint.
const readyWait = 10 * time.Second

// Health is GET /health's answer.
type Health struct {
	Status string `json:"status"`
}

// Ready is GET /ready's answer.
type Ready struct {
	Ready    bool   `json:"ready"`
	Endpoint string `json:"endpoint"` // "local chromedriver" or "Selenium Grid"; never an address
	Error    string `json:"error,omitempty"`
}

// Info is GET /info's answer: what this server offers, no secrets.
type Info struct {
	Name     string   `json:"name"`
	Version  string   `json:"version"`
	Surfaces []string `json:"surfaces"`
	Browser  string   `json:"browser"`
	Tools    []string `json:"tools"`
	Enabled  Enabled  `json:"enabled"`
}

// Enabled says which optional parts are on.
type Enabled struct {
	Tokens          bool `json:"tokens"`
	Scripts         bool `json:"scripts"`
	CORS            bool `json:"cors"`
	SignedLinks     bool `json:"signedLinks"`
	Secrets         bool `json:"secrets"`
	SkillsExtension bool `json:"skillsExtension"`
}

// healthOnly answers GET /health before the token check, and passes
// every other request on.
func healthOnly(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == HealthPath && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			writeJSON(w, http.StatusOK, Health{Status: "ok"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// mountOps adds /ready and /info to mux (behind the tokens).
func (s *Server) mountOps(mux *http.ServeMux) {
	mux.HandleFunc("GET "+ReadyPath, s.serveReady)
	mux.HandleFunc("GET "+InfoPath, s.serveInfo)
}

func (s *Server) endpointKind() string {
	if s.cfg.SeleniumURL != "" {
		return "Selenium Grid"
	}
	return "local chromedriver"
}

func (s *Server) serveReady(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyWait)
	defer cancel()
	if err := s.sessions.Ready(ctx); err != nil {
		status := http.StatusServiceUnavailable
		if k, ok := refusal.KindOf(err); ok {
			status = k.Status()
		}
		writeJSON(w, status, Ready{Endpoint: s.endpointKind(), Error: s.scrub.Text(err) + ". GET " + HealthPath + " says whether the server itself answers."})
		return
	}
	writeJSON(w, http.StatusOK, Ready{Ready: true, Endpoint: s.endpointKind()})
}

func (s *Server) serveInfo(w http.ResponseWriter, r *http.Request) {
	var names []string
	for _, t := range s.tools {
		names = append(names, t.Def.Name)
	}
	info := Info{
		Name: Name, Version: Version,
		Surfaces: []string{"mcp (Streamable HTTP at /mcp)", "http (actions at " + BrowserPrefix + "{tool}, " + FlowsPath + ", " + FilesPath + ", " + SecretsPath + ", " + ReadPrefix + "{uri}; " + OpenAPIPath + ")"},
		Browser:  s.endpointKind(),
		Tools:    names,
		Enabled: Enabled{
			Tokens:          s.cfg.Tokens != nil,
			Scripts:         !slices.Contains(s.cfg.ExcludeTools, "execute_script"),
			CORS:            len(s.cfg.AllowedOrigins) > 0,
			SignedLinks:     s.links != nil,
			Secrets:         len(s.secrets.List(principalOf(r))) > 0,
			SkillsExtension: s.table.HasSkills(),
		},
	}
	writeJSON(w, http.StatusOK, info)
}
