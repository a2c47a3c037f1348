package issuer

import "net/http"

// crossOrigin lets a page on another origin — the admin page, a
// single-page app — read next's answers, as a provider does for its
// discovery document and token endpoint: the browser fetches both
// itself during an authorization-code sign-in. Credentials are never
// allowed: a public client sends none, so any origin may ask. The
// preflight (OPTIONS) is answered here; a form POST needs none, but a
// client sending other headers does.
func crossOrigin(next http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST")
			h.Set("Access-Control-Allow-Headers", "Content-Type")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next(w, r)
	}
}
