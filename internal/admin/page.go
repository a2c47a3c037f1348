package admin

import (
	"embed"
	"io/fs"
	"net/http"
	"net/url"
	"path"
	"strings"
)

// dist is the built page (npm run build in internal/ui, whose admin entry
// writes here): index.html and hashed assets under assets/.
//
//go:embed all:dist
var dist embed.FS

// Dist is the built admin page, for tests and the size budget.
func Dist() fs.FS {
	sub, _ := fs.Sub(dist, "dist")
	return sub
}

// Public serves what needs no credential — the page's HTML, its scripts
// and styles, and GET /admin/api/config, which says how to sign in — and
// hands every other request to next. The page holds no data: everything
// it shows comes from the API behind next's authentication.
func (a *Admin) Public(next http.Handler) http.Handler {
	assets := http.FileServerFS(Dist())
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		get := r.Method == http.MethodGet || r.Method == http.MethodHead
		switch {
		case get && (p == PagePath || p == PagePath+"/"):
			a.servePage(w, r)
		case get && strings.HasPrefix(p, PagePath+"/assets/") && path.Clean(p) == p:
			a.securityHeaders(w)
			w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
			r2 := r.Clone(r.Context())
			r2.URL.Path = strings.TrimPrefix(p, PagePath)
			assets.ServeHTTP(w, r2)
		case get && p == APIPrefix+"config":
			a.config(w, r)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func (a *Admin) servePage(w http.ResponseWriter, _ *http.Request) {
	b, err := fs.ReadFile(Dist(), "index.html")
	if err != nil {
		a.refuse(w, http.StatusNotFound, "This build has no admin page; build it with npm run build --prefix internal/ui.")
		return
	}
	a.securityHeaders(w)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	_, _ = w.Write(b)
}

// csp is the page's Content-Security-Policy: scripts only from the page's
// own files (no inline script, no eval), pictures and PDFs from blob:
// URLs the page makes from API answers, calls to this server and, when
// the page offers OIDC sign-in, the issuer, and frame-ancestors as configured ('none' by default).
func (a *Admin) csp() string {
	connect := "'self'"
	if o := origin(a.oidc.Issuer); o != "" && a.oidc.offered() {
		connect += " " + o
	}
	return strings.Join([]string{
		"default-src 'none'",
		"script-src 'self'",
		"style-src 'self' 'unsafe-inline'",
		"img-src 'self' blob: data:",
		"frame-src blob:",
		"object-src 'none'",
		"connect-src " + connect,
		"base-uri 'none'",
		"form-action 'none'",
		"frame-ancestors " + a.frameAncestors,
	}, "; ")
}

func (a *Admin) securityHeaders(w http.ResponseWriter) {
	h := w.Header()
	h.Set("Content-Security-Policy", a.csp())
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	if a.frameAncestors == "'none'" {
		h.Set("X-Frame-Options", "DENY")
	}
}

// origin is scheme://host of an absolute URL, "" for anything else.
func origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}

// config tells the page how to sign in: with a bearer token always, and
// with OIDC when an issuer and client id are configured.
func (a *Admin) config(w http.ResponseWriter, _ *http.Request) {
	out := map[string]any{"csrfHeader": CSRFHeader}
	if a.oidc.offered() {
		out["oidc"] = a.oidc
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// offered reports whether the page offers OIDC sign-in: it needs both
// the issuer and the page's client id.
func (o OIDC) offered() bool { return o.Issuer != "" && o.ClientID != "" }
