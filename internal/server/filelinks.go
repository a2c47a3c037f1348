package server

// Links to kept files that travel (package links): results and file
// resources carry signed links, which GET /files/{name} answers without a
// token until they expire. Over stdio nothing answers a link, so none is
// offered unless a public base URL (FLOW_PUBLIC_URL) names a server that
// does.

import (
	"bytes"
	"errors"
	"fmt"
	"html"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/links"
)

// fileLinks makes the links to kept files.
type fileLinks struct {
	signer *links.Signer
	public string      // FLOW_PUBLIC_URL without its trailing slash
	served atomic.Bool // the server's HTTP handler was built: relative links answer
}

// newFileLinks loads the link key (FLOW_LINK_KEY, or the one kept in the
// data folder) and makes the signer.
func newFileLinks(cfg Config) (*fileLinks, error) {
	if cfg.PublicURL != "" {
		u, err := url.Parse(cfg.PublicURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
			return nil, fmt.Errorf("FLOW_PUBLIC_URL=%q is not the server's base URL; use e.g. https://flows.example.com", excerpt(cfg.PublicURL))
		}
	}
	key, err := links.LoadKey(cfg.LinkKey, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	return &fileLinks{signer: links.New(key, links.WithTTL(cfg.LinkTTL)), public: strings.TrimRight(cfg.PublicURL, "/")}, nil
}

// link is the signed link to principal's kept file name, or "" where
// nothing would answer it.
func (f *fileLinks) link(principal, name string) string {
	if f == nil || (f.public == "" && !f.served.Load()) {
		return ""
	}
	return f.public + f.signer.Sign(principal, FilesPath+"/"+name)
}

// signedFiles answers GET /files/{name} carrying a signature before the
// token check: the signature stands for the token. A request without one
// passes on to the token check and serveFile.
func (s *Server) signedFiles(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name, isFile := strings.CutPrefix(r.URL.Path, FilesPath+"/")
		if !isFile || (r.Method != http.MethodGet && r.Method != http.MethodHead) || !links.Signed(r.URL) || strings.Contains(name, "/") {
			next.ServeHTTP(w, r)
			return
		}
		principal, err := s.links.signer.Check(r.URL)
		if err != nil {
			refuseLink(w, err)
			return
		}
		s.writeKept(w, r, principal, name)
	})
}

// refuseLink is the 403 page of an expired or altered link: a person
// reads it in a browser tab, so it is HTML, and says what to do.
func refuseLink(w http.ResponseWriter, err error) {
	what := "This link has been changed since the server made it, so it does not open the file."
	if errors.Is(err, links.ErrExpired) {
		what = "This link has expired (" + err.Error() + ")."
	}
	next := "Ask for a fresh link: read the file's resource again (session://files lists every kept file with a new link), or fetch GET " + FilesPath + "/{name} with your token."
	page := fmt.Sprintf("<!doctype html><meta charset=utf-8><title>Link refused</title><h1>Link refused</h1><p>%s</p><p>%s</p>\n", html.EscapeString(what), html.EscapeString(next))
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Content-Security-Policy", "default-src 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusForbidden)
	_, _ = w.Write([]byte(page))
}

// serveFile serves GET /files/{name}: one of the token's principal's kept
// files, the link the file resources name without its signature.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	s.writeKept(w, r, auth.Principal(r.Context()), r.PathValue("name"))
}

// writeKept writes principal's kept file with Range support and headers
// that keep a served file from acting as a page of this origin: a strict
// CSP (a kept HTML print runs no script and loads nothing), nosniff, and a
// Content-Disposition (images inline, so an <img> shows them; everything
// else a download).
func (s *Server) writeKept(w http.ResponseWriter, r *http.Request, principal, name string) {
	data, f, err := s.sessions.ReadKept(r.Context(), principal, name)
	if err != nil {
		http.Error(w, s.scrub.Text(err), statusOf(err))
		return
	}
	disposition := "attachment"
	if strings.HasPrefix(f.MimeType, "image/") && f.MimeType != "image/svg+xml" {
		disposition = "inline"
	}
	h := w.Header()
	h.Set("Content-Type", f.MimeType)
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}))
	h.Set("Content-Security-Policy", "default-src 'none'; sandbox")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Cache-Control", "private, no-store")
	http.ServeContent(w, r, f.Name, f.Modified, bytes.NewReader(data))
}
