package server

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// MaxBody is the largest request body any route accepts; a larger one is
// refused with 413 before a handler reads it.
const MaxBody = 1 << 20

// guardHTTP checks what every route must before it sees a request:
//
//   - Host: a server reached on a loopback address answers only loopback
//     names (localhost, 127.0.0.1, [::1]), so a page on the web cannot
//     reach it through DNS rebinding; elsewhere only the names in
//     Config.AllowedHosts, when any are set.
//   - Origin: a browser's cross-site request is refused unless it comes
//     from the same origin, from a loopback page to a loopback server, or
//     from an origin in Config.AllowedOrigins.
//   - Body: at most MaxBody bytes, MaxUpload on the upload routes (413
//     with the limit otherwise).
//
// A refused request gets a sentence that names the setting that would let
// it through; nothing of the request is echoed beyond a short excerpt.
func (s *Server) guardHTTP(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		loopback := arrivedOnLoopback(r)
		host := hostName(r.Host)
		switch {
		case loopback && !isLoopbackName(host) && !slices.Contains(s.cfg.AllowedHosts, host):
			http.Error(w, fmt.Sprintf("This server listens on a loopback address and answers only for localhost, 127.0.0.1 or [::1], not for the host %q. Connect to http://127.0.0.1:<port>/ (or add the name to FLOW_ALLOWED_HOSTS).", excerpt(host)), http.StatusForbidden)
			return
		case !loopback && len(s.cfg.AllowedHosts) > 0 && !slices.Contains(s.cfg.AllowedHosts, host):
			http.Error(w, fmt.Sprintf("This server does not answer for the host %q; it answers for %s (FLOW_ALLOWED_HOSTS).", excerpt(host), strings.Join(s.cfg.AllowedHosts, ", ")), http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !s.originAllowed(origin, r.Host, loopback) {
			http.Error(w, fmt.Sprintf("Requests from pages at %q are not accepted. Call from the same origin, or ask the operator to add the origin to FLOW_ALLOWED_ORIGINS.", excerpt(origin)), http.StatusForbidden)
			return
		}
		if r.Body != nil && r.Body != http.NoBody {
			limit := bodyLimit(r)
			if r.ContentLength > limit {
				tooLarge(w, limit)
				return
			}
			// Read at most one byte more than allowed: a chunked body has
			// no length to check up front.
			body, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
			_ = r.Body.Close()
			if err != nil {
				http.Error(w, "The request body could not be read.", http.StatusBadRequest)
				return
			}
			if int64(len(body)) > limit {
				tooLarge(w, limit)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(body))
		}
		next.ServeHTTP(w, r)
	})
}

func tooLarge(w http.ResponseWriter, limit int64) {
	// JSON, as every action's refusal (actions.go) is.
	writeError(w, ErrorAnswer{Status: http.StatusRequestEntityTooLarge,
		Error: fmt.Sprintf("The request body is larger than %d bytes, the most this server accepts here (%d MiB for a file sent to POST %s or %supload_file). Send a smaller request.", limit, MaxUpload>>20, FilesPath, BrowserPrefix)})
}

// originAllowed reports whether a browser page at origin may call the
// server reached as host.
func (s *Server) originAllowed(origin, host string, loopback bool) bool {
	if slices.Contains(s.cfg.AllowedOrigins, strings.TrimRight(origin, "/")) {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return false // "null" and other opaque origins
	}
	if strings.EqualFold(u.Host, host) {
		return true
	}
	return loopback && isLoopbackName(hostName(u.Host))
}

// arrivedOnLoopback reports whether the request came in on a loopback
// address of this server.
func arrivedOnLoopback(r *http.Request) bool {
	addr, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok || addr == nil {
		return true // no listener (an in-process handler): the strict case
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hostName is a Host header's name, lower-cased, without port or brackets.
func hostName(h string) string {
	if name, _, err := net.SplitHostPort(h); err == nil {
		h = name
	}
	return strings.ToLower(strings.Trim(h, "[]"))
}

func isLoopbackName(h string) bool {
	if h == "localhost" {
		return true
	}
	ip := net.ParseIP(h)
	return ip != nil && ip.IsLoopback()
}

// excerpt is at most a short, printable piece of what a caller sent.
func excerpt(s string) string {
	const most = 80
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s)
	if len(s) > most {
		return s[:most] + "…"
	}
	return s
}
