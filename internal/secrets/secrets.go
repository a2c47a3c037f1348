// Package secrets holds the values a caller may type into pages without the
// model ever seeing them. Values come from the FLOW_SECRETS file and are
// bound to a principal and a site; only names and sites are ever shown.
package secrets

import (
	"bufio"
	"encoding/json"
	"fmt"
	"html"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
)

// Secret is one secret as callers may see it: never its value.
type Secret struct {
	Name string `json:"name"`
	Site string `json:"site"`
}

type entry struct {
	Secret
	value string
	forms []string // how the value may show in text, longest first (see forms)
}

// Store is every principal's secrets.
type Store struct {
	byPrincipal map[string][]entry
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)

// Load reads a FLOW_SECRETS file: one secret a line,
//
//	principal name site value
//
// where site is a host (app.example.com), a host:port, or * for any site,
// and value is the rest of the line (it may hold spaces). Blank lines and
// lines starting with # are skipped. An empty path is an empty store.
func Load(path string) (*Store, error) {
	s := &Store{byPrincipal: map[string][]entry{}}
	if path == "" {
		return s, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("cannot open the FLOW_SECRETS file: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		fields := strings.SplitN(line, " ", 4)
		if len(fields) < 4 || strings.TrimSpace(fields[3]) == "" {
			// Never quote the line: it may hold a value.
			return nil, fmt.Errorf("FLOW_SECRETS line %d: want \"principal name site value\" separated by single spaces", n)
		}
		p, name, site, value := fields[0], fields[1], strings.ToLower(fields[2]), fields[3]
		if !nameRE.MatchString(name) {
			return nil, fmt.Errorf("FLOW_SECRETS line %d: the secret name must be letters, digits, dot, underscore or dash", n)
		}
		s.byPrincipal[p] = append(s.byPrincipal[p], entry{Secret{Name: name, Site: site}, value, forms(value)})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading FLOW_SECRETS: %w", err)
	}
	return s, nil
}

// List returns the principal's secret names and sites, sorted.
func (s *Store) List(principal string) []Secret {
	var out []Secret
	for _, e := range s.byPrincipal[principal] {
		out = append(out, e.Secret)
	}
	slices.SortFunc(out, func(a, b Secret) int { return strings.Compare(a.Name+" "+a.Site, b.Name+" "+b.Site) })
	return out
}

// Value returns the value of the principal's secret name for the page at
// pageURL: a secret bound to the page's host (or host:port) wins over one
// bound to *. A refusal names the secrets that exist and where they apply,
// never a value.
func (s *Store) Value(principal, name, pageURL string) (string, error) {
	host, hostPort := "", ""
	if u, err := url.Parse(pageURL); err == nil {
		host, hostPort = strings.ToLower(u.Hostname()), strings.ToLower(u.Host)
	}
	var any string
	found := false
	for _, e := range s.byPrincipal[principal] {
		if e.Name != name {
			continue
		}
		found = true
		switch e.Site {
		case hostPort, host:
			return e.value, nil
		case "*":
			any = e.value
		}
	}
	if any != "" {
		return any, nil
	}
	if found {
		return "", fmt.Errorf("the secret %q is not bound to %s; it may only be typed on %s. Navigate to that site first, or ask the operator to bind it in FLOW_SECRETS", name, orBlank(host), s.sites(principal, name))
	}
	names := s.names(principal)
	if len(names) == 0 {
		return "", fmt.Errorf("you have no secret named %q, nor any other; the operator adds them to the FLOW_SECRETS file (see knowledge://documents/secrets)", name)
	}
	return "", fmt.Errorf("you have no secret named %q; yours are %s (secret://secrets lists them with their sites)", name, strings.Join(names, ", "))
}

func orBlank(h string) string {
	if h == "" {
		return "this page"
	}
	return h
}

func (s *Store) sites(principal, name string) string {
	var out []string
	for _, e := range s.byPrincipal[principal] {
		if e.Name == name {
			out = append(out, e.Site)
		}
	}
	return strings.Join(out, ", ")
}

func (s *Store) names(principal string) []string {
	var out []string
	for _, e := range s.byPrincipal[principal] {
		if !slices.Contains(out, e.Name) {
			out = append(out, e.Name)
		}
	}
	slices.Sort(out)
	return out
}

// Redact replaces every value of the principal's secrets in text, for any
// text that could echo one back (a page's error message, an outline, a
// URL), as it is and as the usual encodings carry it (see forms).
func (s *Store) Redact(principal, text string) string {
	for _, e := range s.byPrincipal[principal] {
		for _, f := range e.forms {
			text = strings.ReplaceAll(text, f, "[secret "+e.Name+"]")
		}
	}
	return text
}

// forms are the ways a value shows up in text: as it is, and encoded for a
// URL query (a form sent with GET puts the password in the URL the browser
// goes to, "a b" as "a+b"), a URL path, HTML and a JSON string. Values
// shorter than 3 characters are not redacted: they would hit everything.
func forms(v string) []string {
	if len(v) < 3 {
		return nil
	}
	j, _ := json.Marshal(v)
	out := []string{v, url.QueryEscape(v), url.PathEscape(v), html.EscapeString(v), string(j[1 : len(j)-1])}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return slices.Compact(out)
}
