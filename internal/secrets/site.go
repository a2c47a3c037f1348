package secrets

import (
	"errors"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
)

// A site is one place a secret may be typed: every site (*), the
// subdomains of a domain (*.example.com), a host on any port
// (app.example.com, 10.0.0.7, [::1]) or a host on one port
// (127.0.0.1:8080).
type site struct {
	any      bool   // *
	wildcard bool   // *.host: host's subdomains, not host itself
	host     string // lower case, no trailing dot, IPv6 without brackets
	port     string // "" for any port
}

// String is the site as an operator writes it.
func (s site) String() string {
	switch {
	case s.any:
		return "*"
	case s.wildcard:
		return "*." + s.host
	}
	h := s.host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if s.port != "" {
		return h + ":" + s.port
	}
	return h
}

// Match ranks: the most specific site that matches a page wins.
const (
	noMatch = iota
	matchAny
	matchWildcard
	matchHost
	matchHostPort
)

// match reports how specifically the site matches a page's host and port
// (the scheme's default port when the URL names none); 0 is no match. A
// longer wildcard domain beats a shorter one.
func (s site) match(host, port string) (rank, length int) {
	switch {
	case s.any:
		return matchAny, 0
	case s.wildcard:
		if strings.HasSuffix(host, "."+s.host) {
			return matchWildcard, len(s.host)
		}
	case s.host == host && s.port == "":
		return matchHost, 0
	case s.host == host && s.port == port:
		return matchHostPort, 0
	}
	return noMatch, 0
}

// Site problems: each names what is wrong without quoting the text, which
// may be a value written in the wrong column.
var (
	errBlankSite    = errors.New("a site is blank")
	errSiteScheme   = errors.New("a site has a scheme such as https://; write the host alone (app.example.com)")
	errSitePath     = errors.New("a site has a path, query or user; write the host alone (app.example.com)")
	errSiteStar     = errors.New("a site has a * that is neither the whole site (*) nor the start of *.domain")
	errSitePort     = errors.New("a site has a port that is not a number from 1 to 65535")
	errSiteIPv6     = errors.New("a site is an IPv6 address without brackets; write [::1] or [::1]:8080")
	errSiteHostname = errors.New("a site is not a host name: use letters, digits, dots, dashes and underscores (app.example.com), an IP address, host:port, *.domain or *")
)

// parseSite reads one site as an operator writes it.
func parseSite(text string) (site, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	switch {
	case t == "":
		return site{}, errBlankSite
	case t == "*":
		return site{any: true}, nil
	case strings.Contains(t, "://"):
		return site{}, errSiteScheme
	case strings.ContainsAny(t, "/?#@\\"):
		return site{}, errSitePath
	}
	if rest, ok := strings.CutPrefix(t, "*."); ok {
		h, err := hostname(rest)
		if err != nil {
			return site{}, err
		}
		if strings.Contains(h, ":") || isIPv4(h) {
			return site{}, errSiteStar
		}
		return site{wildcard: true, host: h}, nil
	}
	if strings.Contains(t, "*") {
		return site{}, errSiteStar
	}
	host, port := t, ""
	switch {
	case strings.HasPrefix(t, "["):
		end := strings.Index(t, "]")
		if end < 0 {
			return site{}, errSiteHostname
		}
		host = t[1:end]
		rest := t[end+1:]
		if rest != "" {
			p, ok := strings.CutPrefix(rest, ":")
			if !ok {
				return site{}, errSiteHostname
			}
			port = p
		}
		a, err := netip.ParseAddr(host)
		if err != nil || !a.Is6() {
			return site{}, errSiteHostname
		}
		host = a.String()
		if port != "" && !validPort(port) {
			return site{}, errSitePort
		}
		return site{host: host, port: port}, nil
	case strings.Count(t, ":") > 1:
		return site{}, errSiteIPv6
	case strings.Contains(t, ":"):
		host, port, _ = strings.Cut(t, ":")
		if !validPort(port) {
			return site{}, errSitePort
		}
	}
	h, err := hostname(host)
	if err != nil {
		return site{}, err
	}
	return site{host: h, port: port}, nil
}

func validPort(p string) bool {
	if p == "" || len(p) > 5 || strings.TrimLeft(p, "0123456789") != "" {
		return false
	}
	n, err := strconv.Atoi(p)
	return err == nil && n >= 1 && n <= 65535
}

// hostname checks a DNS name or IPv4 address, lower case, and drops a
// trailing dot.
func hostname(h string) (string, error) {
	h = strings.TrimSuffix(h, ".")
	if h == "" {
		return "", errBlankSite
	}
	if len(h) > 253 {
		return "", errSiteHostname
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" || len(label) > 63 {
			return "", errSiteHostname
		}
		for _, c := range []byte(label) {
			if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
				return "", errSiteHostname
			}
		}
	}
	return h, nil
}

func isIPv4(h string) bool {
	a, err := netip.ParseAddr(h)
	return err == nil && a.Is4()
}

// parseSites reads a list of sites separated by commas (and, where the
// source allows it, new lines); it returns them deduplicated and sorted as
// written, and the first problem with the index (from 1) of the bad site.
func parseSites(items []string) ([]site, int, error) {
	var out []site
	seen := map[string]bool{}
	for i, it := range items {
		s, err := parseSite(it)
		if err != nil {
			return nil, i + 1, err
		}
		if !seen[s.String()] {
			seen[s.String()] = true
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		return nil, 0, errBlankSite
	}
	sortSites(out)
	return out, 0, nil
}

func sortSites(s []site) {
	// Insertion sort: lists are a handful of sites.
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j].String() < s[j-1].String(); j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// page is where a page is, for choosing a secret.
type page struct {
	scheme, host, port string
}

// parsePage reads the current page's URL. Only http and https pages have a
// site; for any other scheme (data:, about:, blob:, file:, chrome:) host is
// empty and scheme says which.
func parsePage(pageURL string) (page, bool) {
	u, err := url.Parse(strings.TrimSpace(pageURL))
	if err != nil || u.Scheme == "" {
		return page{}, false
	}
	p := page{scheme: strings.ToLower(u.Scheme)}
	if p.scheme != "http" && p.scheme != "https" {
		return p, true
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	if host == "" {
		return page{}, false
	}
	if a, err := netip.ParseAddr(host); err == nil {
		host = a.String()
	} else if _, err := hostname(host); err != nil {
		return page{}, false
	}
	p.host, p.port = host, u.Port()
	if p.port == "" {
		p.port = map[string]string{"http": "80", "https": "443"}[p.scheme]
	}
	return p, true
}

// hostPort is the page's host as a refusal names it.
func (p page) hostPort() string {
	h := p.host
	if strings.Contains(h, ":") {
		h = "[" + h + "]"
	}
	if (p.scheme == "http" && p.port == "80") || (p.scheme == "https" && p.port == "443") {
		return h
	}
	return h + ":" + p.port
}
