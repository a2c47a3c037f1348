package admin

import (
	"mime"
	"net/http"
	"net/url"
)

// CSRFHeader must be sent, with any value, on every POST, PUT and DELETE.
// A page of another site cannot send a custom header without a CORS
// preflight the server does not grant, and a plain HTML form cannot send
// one at all; the page's own calls always carry it beside the bearer
// token, and the API takes no cookie.
const CSRFHeader = "X-Flow-Admin"

// guardMutations refuses a mutating request that a page of another site
// could have sent: no CSRFHeader, a body that is not JSON, or an Origin
// or Sec-Fetch-Site saying it came from elsewhere. Other methods than GET,
// HEAD, POST, PUT and DELETE are refused too.
func guardMutations(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.Method {
		case http.MethodGet, http.MethodHead:
			next.ServeHTTP(w, r)
			return
		case http.MethodPost, http.MethodPut, http.MethodDelete:
		default:
			writeJSON(w, http.StatusMethodNotAllowed, problem{Error: "The admin API answers GET for reading and POST, PUT or DELETE for changes, not " + r.Method + "."})
			return
		}
		if r.Header.Get(CSRFHeader) == "" {
			writeJSON(w, http.StatusForbidden, problem{Error: "A change through the admin API must carry the header " + CSRFHeader + ": 1 beside Authorization: Bearer <token>; the page at " + PagePath + " sends both."})
			return
		}
		if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
			writeJSON(w, http.StatusForbidden, problem{Error: "A change through the admin API must come from the admin page itself, not from another site's page; open " + PagePath + " on this server."})
			return
		}
		if o := r.Header.Get("Origin"); o != "" {
			if u, err := url.Parse(o); err != nil || u.Host != r.Host {
				writeJSON(w, http.StatusForbidden, problem{Error: "A change through the admin API must come from this server's own origin; open " + PagePath + " on this server."})
				return
			}
		}
		// A body (or a chunked one, length -1) must be JSON: a form post
		// is what a page of another site could send without asking.
		if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); r.ContentLength != 0 && mt != "application/json" {
			writeJSON(w, http.StatusUnsupportedMediaType, problem{Error: "Send the body as JSON with Content-Type: application/json."})
			return
		}
		next.ServeHTTP(w, r)
	})
}
