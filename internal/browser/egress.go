package browser

import (
	"net"
	"net/url"
	"strings"
	"time"
)

// notConnected reports why a local browser's proxy did not connect it to
// u's host during a navigation begun at start: the error Chromium would
// have shown by itself (the proxy answers a plain-HTTP failure with a page,
// and an HTTPS one with a failed tunnel, so Chromium cannot), or that
// the address is closed to browsers. Nil when the proxy connected it.
func (s *Session) notConnected(u *url.URL, start time.Time) error {
	if s.egress == nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil
	}
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[strings.ToLower(u.Scheme)]
	}
	f, ok := s.egress.Failure(net.JoinHostPort(u.Hostname(), port), start)
	if !ok {
		return nil
	}
	if f.Refused {
		return safef("navigate: %s was not loaded: %s. Pages on other addresses load as usual", u.Host, f.Reason)
	}
	return safef("navigate: the page could not be loaded (%s)", f.Code)
}
