package server

import (
	"cmp"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/surface"
	"github.com/selenium-flow/selenium-flow/resources"
)

// ReadPrefix is the path under which the read API serves resources:
// GET /resources/knowledge://index answers what resources/read answers for
// knowledge://index. The URI may also be percent-encoded as one segment,
// /resources/knowledge%3A%2F%2Findex.
const ReadPrefix = "/resources/"

// OpenAPIPath is where the HTTP surface's OpenAPI 3.1 document is
// served, and OpenAPIYAMLPath the same document as YAML.
const (
	OpenAPIPath     = "/openapi.json"
	OpenAPIYAMLPath = "/openapi.yaml"
)

// mountReadAPI adds the read API and its OpenAPI document to the mux that
// serves /mcp, so both sit behind the same authentication and every read
// runs as the same caller an MCP request would.
func (s *Server) mountReadAPI(mux *http.ServeMux) {
	mux.HandleFunc("GET "+ReadPrefix+"{uri...}", s.serveRead)
	mux.HandleFunc("GET "+OpenAPIPath, s.serveOpenAPI)
	mux.HandleFunc("GET "+OpenAPIYAMLPath, s.serveOpenAPI)
}

// keepURIPaths protects the "://" of a resource URI in a read path from the
// mux, which would otherwise clean "//" to "/" and answer with a redirect:
// the URI part is re-escaped as a single segment, and the mux hands the
// handler the URI unchanged.
func keepURIPaths(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rest, ok := strings.CutPrefix(r.URL.Path, ReadPrefix); ok && strings.Contains(rest, "/") {
			u := *r.URL
			u.RawPath = ReadPrefix + url.PathEscape(rest)
			r2 := r.Clone(r.Context())
			r2.URL = &u
			r = r2
		}
		next.ServeHTTP(w, r)
	})
}

// collapsed matches a URI whose "//" a client or proxy cleaned to "/".
var collapsed = regexp.MustCompile(`^([a-z][a-z0-9+.-]*):/([^/].*)$`)

// resourceURI is the URI a read path names, with a cleaned "scheme:/rest"
// put back as "scheme://rest"; every URI this server serves has "://".
func resourceURI(p string) string {
	if m := collapsed.FindStringSubmatch(p); m != nil {
		return m[1] + "://" + m[2]
	}
	return p
}

// serveRead answers GET /resources/{uri}: the bytes resources/read returns,
// with the resource's type. A URI the table does not serve, or one that is
// only drawn by app hosts (ui://), is 404 with the table's refusal.
func (s *Server) serveRead(w http.ResponseWriter, r *http.Request) {
	set, err := surface.SettingFromRequest(r)
	if err != nil {
		http.Error(w, err.Error()+" (in the ?resources= query or the "+surface.Header+" header)", http.StatusBadRequest)
		return
	}
	uri := resourceURI(r.PathValue("uri"))
	if uri == "" {
		http.Error(w, "Name a resource after "+ReadPrefix+", e.g. "+ReadPrefix+resources.IndexURI+"; "+OpenAPIPath+" lists every path.", http.StatusNotFound)
		return
	}
	s.writeResource(w, r.WithContext(surface.WithSetting(r.Context(), set)), uri)
}

// writeResource answers a GET with the resource at uri, read as the
// request's caller: the bytes resources/read returns, with the resource's
// type. The flow, file and secret routes answer their resources with it.
func (s *Server) writeResource(w http.ResponseWriter, r *http.Request, uri string) {
	ctx := r.Context()
	if e, _, ok := s.table.Match(uri); ok && e.Hidden {
		http.Error(w, s.refuseHidden(r, uri).Error(), http.StatusNotFound)
		return
	}
	c, err := s.table.Read(ctx, uri)
	if err != nil {
		http.Error(w, s.scrub.Text(err), statusOf(err))
		return
	}
	body := []byte(c.Text)
	typ := cmp.Or(c.MIMEType, "text/plain")
	if !c.IsText() {
		body, typ = c.Blob, cmp.Or(c.MIMEType, "application/octet-stream")
	} else if strings.HasPrefix(typ, "text/") && !strings.Contains(typ, "charset=") {
		typ += "; charset=utf-8"
	}
	h := w.Header()
	h.Set("Content-Type", typ)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("X-MCP-Resource", c.URI)
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body)
}

// refuseHidden is the table's own refusal for a URI it does not answer,
// said of a hidden one: the empty URI matches nothing, so the table's
// sentence comes back, and it is given the URI that was asked for.
func (s *Server) refuseHidden(r *http.Request, uri string) error {
	_, err := s.table.Read(r.Context(), "")
	var nf *resources.NotFoundError
	if errors.As(err, &nf) {
		return &resources.NotFoundError{URI: uri, Hint: nf.Hint}
	}
	return fmt.Errorf("no resource at %s. Read %s for every document and skill", uri, resources.IndexURI)
}

// serveOpenAPI answers the document, as JSON or, at OpenAPIYAMLPath, YAML.
func (s *Server) serveOpenAPI(w http.ResponseWriter, r *http.Request) {
	build, typ := s.OpenAPI, "application/json"
	if r.URL.Path == OpenAPIYAMLPath {
		build, typ = s.OpenAPIYAML, "application/yaml"
	}
	doc, err := build()
	if err != nil {
		http.Error(w, "the OpenAPI document could not be built: "+s.scrub.Text(err), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", typ)
	w.Header().Set("Content-Length", strconv.Itoa(len(doc)))
	_, _ = w.Write(doc)
}
