package admin

import (
	"net/http"

	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/secrets"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
)

// APIPrefix is where the admin API is mounted.
const APIPrefix = "/admin/api/"

// PagePath is where the admin page is served.
const PagePath = "/admin"

// Admin serves the admin API and page. It holds no state of its own
// beyond the one loop that pushes workspace changes to open pages.
type Admin struct {
	sessions       *sessions.Manager
	files          *files.Store
	flows          *flows.Store
	secrets        *secrets.Store
	settings       func() []Setting
	sites          SiteData
	history        History
	scrub          *refusal.Scrubber
	frameAncestors string
	oidc           OIDC

	hub *hub
}

// Option configures an Admin.
type Option func(*Admin)

// WithSessions is the browser session manager: the workspace list, its
// live stream and "end browser".
func WithSessions(m *sessions.Manager) Option { return func(a *Admin) { a.sessions = m } }

// WithFiles is the kept-file store.
func WithFiles(s *files.Store) Option { return func(a *Admin) { a.files = s } }

// WithFlows is the flow store.
func WithFlows(s *flows.Store) Option { return func(a *Admin) { a.flows = s } }

// WithSecrets is the secret catalogue; its values are never read.
func WithSecrets(s *secrets.Store) Option { return func(a *Admin) { a.secrets = s } }

// WithSettings supplies the settings in force, values already masked
// where secret.
func WithSettings(f func() []Setting) Option { return func(a *Admin) { a.settings = f } }

// WithSiteData is where workspaces keep site data (cookies and storage
// per origin); without it the page says none is kept.
func WithSiteData(s SiteData) Option { return func(a *Admin) { a.sites = s } }

// WithHistory is where workspaces keep their visit history; without it
// the page says none is kept.
func WithHistory(h History) Option { return func(a *Admin) { a.history = h } }

// WithScrubber is the server's scrubber: no refusal shows what it hides.
func WithScrubber(sc *refusal.Scrubber) Option { return func(a *Admin) { a.scrub = sc } }

// WithFrameAncestors sets the page's CSP frame-ancestors sources
// (FLOW_ADMIN_FRAME_ANCESTORS); "" keeps the default, 'none'.
func WithFrameAncestors(sources string) Option {
	return func(a *Admin) {
		if sources != "" {
			a.frameAncestors = sources
		}
	}
}

// OIDC is the sign-in the page offers besides a bearer token: an
// authorization-code flow with PKCE at Issuer for ClientID.
type OIDC struct {
	Issuer   string `json:"issuer"`
	ClientID string `json:"clientId"`
}

// WithOIDC offers OIDC sign-in on the page; a zero OIDC offers none.
func WithOIDC(o OIDC) Option { return func(a *Admin) { a.oidc = o } }

// New builds the admin page and API from what it reads.
func New(opts ...Option) *Admin {
	a := &Admin{frameAncestors: "'none'"}
	for _, o := range opts {
		o(a)
	}
	if a.scrub == nil {
		a.scrub = refusal.NewScrubber()
	}
	a.hub = newHub(a)
	return a
}

// API serves everything under APIPrefix. Mount it behind the same
// authentication as /mcp: it reads the caller from the request context.
func (a *Admin) API() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+APIPrefix+"me", a.me)
	mux.HandleFunc("GET "+APIPrefix+"workspaces", a.listWorkspaces)
	mux.HandleFunc("GET "+APIPrefix+"workspaces/events", a.streamWorkspaces)
	mux.HandleFunc("GET "+APIPrefix+"workspaces/{ws}", a.getWorkspace)
	mux.HandleFunc("POST "+APIPrefix+"workspaces/{ws}/end", a.endBrowser)
	mux.HandleFunc("GET "+APIPrefix+"workspaces/{ws}/files", a.listFiles)
	mux.HandleFunc("GET "+APIPrefix+"workspaces/{ws}/files/{name}", a.getFile)
	mux.HandleFunc("DELETE "+APIPrefix+"workspaces/{ws}/files/{name}", a.deleteFile)
	mux.HandleFunc("DELETE "+APIPrefix+"workspaces/{ws}/folders/{folder}", a.clearFolder)
	mux.HandleFunc("GET "+APIPrefix+"workspaces/{ws}/flows", a.listFlows)
	mux.HandleFunc("GET "+APIPrefix+"workspaces/{ws}/flows/{flow}", a.getFlow)
	mux.HandleFunc("PUT "+APIPrefix+"workspaces/{ws}/flows/{flow}", a.putFlow)
	mux.HandleFunc("DELETE "+APIPrefix+"workspaces/{ws}/flows/{flow}", a.deleteFlow)
	mux.HandleFunc("POST "+APIPrefix+"workspaces/{ws}/flows/{flow}/share", a.shareFlow(true))
	mux.HandleFunc("POST "+APIPrefix+"workspaces/{ws}/flows/{flow}/unshare", a.shareFlow(false))
	mux.HandleFunc("GET "+APIPrefix+"workspaces/{ws}/sites", a.listSites)
	mux.HandleFunc("DELETE "+APIPrefix+"workspaces/{ws}/sites/{origin}", a.forgetSite)
	mux.HandleFunc("DELETE "+APIPrefix+"workspaces/{ws}/sites", a.clearSites)
	mux.HandleFunc("GET "+APIPrefix+"workspaces/{ws}/history", a.listHistory)
	mux.HandleFunc("GET "+APIPrefix+"secrets", a.listSecrets)
	mux.HandleFunc("GET "+APIPrefix+"settings", a.listSettings)
	mux.HandleFunc(APIPrefix, a.notFound)
	return noStore(guardMutations(mux))
}

// noStore keeps API answers out of every cache: they are one caller's.
func noStore(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		next.ServeHTTP(w, r)
	})
}
