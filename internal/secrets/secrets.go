package secrets

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// DefaultKey is the key of a value given without one: a FLOW_SECRETS line
// "principal name site value", a FLOW_SECRET_<principal>__<name> variable.
const DefaultKey = "value"

// EnvPrefix begins the name of every environment variable that defines a
// secret. The server unsets them once loaded, so no child process (a
// browser, a driver) inherits them.
const EnvPrefix = "FLOW_SECRET_"

// ErrBroken is what Value refuses with, wrapped with the first problem's
// place, when the sources did not load.
var ErrBroken = errors.New("the server's secret configuration is broken")

// Secret is one secret as a caller may see it: never its values. A name
// bound to several site lists (a different password per environment) is
// one Secret per list.
type Secret struct {
	Name        string   `json:"name"`
	Description string   `json:"description,omitempty"`
	Sites       []string `json:"sites"`
	Keys        []string `json:"keys"`
}

// Sources are where secrets come from; any may be empty. Load combines
// them: see the package documentation for each format.
type Sources struct {
	// File is the FLOW_SECRETS file of "principal name[/key] site[,site]
	// value" lines.
	File string
	// Dir is the FLOW_SECRETS_DIR folder of <principal>/<name>/<key> files.
	Dir string
	// Environ is the process environment (os.Environ()); its FLOW_SECRET_
	// variables are read.
	Environ []string
}

// FromEnviron is the sources an environment names: the FLOW_SECRETS file,
// the FLOW_SECRETS_DIR folder and the FLOW_SECRET_ variables.
func FromEnviron(environ []string) Sources {
	s := Sources{Environ: environ}
	for _, kv := range environ {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "FLOW_SECRETS":
			s.File = v
		case "FLOW_SECRETS_DIR":
			s.Dir = v
		}
	}
	return s
}

// Store is every principal's secrets, ready to type and to redact. It does
// not change once loaded and is safe for concurrent use. A nil *Store has no
// secrets.
type Store struct {
	byPrincipal map[string]*catalogue
	err         error  // the load problems; nil when the sources are sound
	broken      string // where the first problem is, for a caller
}

type catalogue struct {
	names map[string][]*binding
	m     matcher
}

// A binding is a secret name's values for one list of sites.
type binding struct {
	name        string
	description string
	descAt      place
	sites       []site
	values      map[string]string
	at          map[string]place // where each key was defined
	first       place
}

func (b *binding) siteList() []string {
	out := make([]string, len(b.sites))
	for i, s := range b.sites {
		out[i] = s.String()
	}
	return out
}

var (
	nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,64}$`)
	keyRE  = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
)

const (
	descriptionKey = "_description"
	sitesFile      = "_allowed_sites"
)

// A def is one key's value (or a description) for a principal's secret
// name and site list, as a source defines it.
type def struct {
	principal, name, key string
	desc                 bool   // text is the description, not a value
	sites                []site // nil: the sites were bad; the value is only redacted
	text                 string
	at                   place
}

// Load reads and combines the sources. It always returns a usable Store:
// when a source has problems the error joins one *LoadError per problem
// (none quotes a value) and the Store is broken: Value refuses every call
// with ErrBroken and where the first problem is, so a caller learns the
// operator must fix the configuration; List shows nothing; Redact and
// Contains still cover every value that could be read.
func Load(src Sources) (*Store, error) {
	var defs []def
	var problems []*LoadError
	if src.File != "" {
		d, p := readFile(src.File)
		defs, problems = append(defs, d...), append(problems, p...)
	}
	if src.Dir != "" {
		d, p := readDir(src.Dir)
		defs, problems = append(defs, d...), append(problems, p...)
	}
	d, p := readEnv(src.Environ)
	defs, problems = append(defs, d...), append(problems, p...)
	return assemble(defs, problems)
}

// assemble groups the definitions into bindings, checks that they agree and
// precomputes every value's forms.
func assemble(defs []def, problems []*LoadError) (*Store, error) {
	s := &Store{byPrincipal: map[string]*catalogue{}}
	type redactable struct{ label, value string }
	redact := map[string][]redactable{}
	for _, d := range defs {
		if !d.desc {
			redact[d.principal] = append(redact[d.principal], redactable{label(d.name, d.key), d.text})
		}
		if d.sites == nil {
			continue
		}
		c := s.byPrincipal[d.principal]
		if c == nil {
			c = &catalogue{names: map[string][]*binding{}}
			s.byPrincipal[d.principal] = c
		}
		b := c.binding(d.name, d.sites)
		if b == nil {
			if other := c.sharing(d.name, d.sites); other != nil {
				problems = append(problems, d.at.problem("binds a secret name to a site that %s also binds it to, with other sites beside; give every definition of one secret the same site list, or use another name", other.first.ref(d.at)))
				continue
			}
			b = &binding{name: d.name, sites: d.sites, values: map[string]string{}, at: map[string]place{}, first: d.at}
			c.names[d.name] = append(c.names[d.name], b)
		}
		if d.desc {
			if b.description != "" && b.description != d.text {
				problems = append(problems, d.at.problem("describes the secret differently from %s; keep one description", b.descAt.ref(d.at)))
				continue
			}
			b.description, b.descAt = d.text, d.at
			continue
		}
		if prev, ok := b.at[d.key]; ok {
			problems = append(problems, d.at.problem("defines the same secret, key and sites as %s; remove one", prev.ref(d.at)))
			continue
		}
		b.values[d.key], b.at[d.key] = d.text, d.at
	}
	for _, c := range s.byPrincipal {
		for name, bs := range c.names {
			c.names[name] = slices.DeleteFunc(bs, func(b *binding) bool {
				if len(b.values) == 0 {
					problems = append(problems, b.descAt.problem("describes a secret that nothing gives a value"))
					return true
				}
				return false
			})
		}
	}
	for p, rs := range redact {
		c := s.byPrincipal[p]
		if c == nil {
			c = &catalogue{names: map[string][]*binding{}}
			s.byPrincipal[p] = c
		}
		for _, r := range rs {
			forms, fragments := encodings(r.value)
			c.m.add(r.label, forms, fragments)
		}
	}
	if len(problems) == 0 {
		return s, nil
	}
	slices.SortStableFunc(problems, func(a, b *LoadError) int { return a.at.compare(b.at) })
	errs := make([]error, len(problems))
	for i, p := range problems {
		errs[i] = p
	}
	s.err = errors.Join(errs...)
	n := "1 problem"
	if len(problems) > 1 {
		n = fmt.Sprintf("%d problems", len(problems))
	}
	s.broken = fmt.Sprintf("%s, the first %s", n, problems[0].at.forCaller())
	return s, s.err
}

// binding finds the name's binding to exactly these sites.
func (c *catalogue) binding(name string, sites []site) *binding {
	key := siteKey(sites)
	for _, b := range c.names[name] {
		if siteKey(b.sites) == key {
			return b
		}
	}
	return nil
}

// sharing returns a binding of the name to other sites that shares one of
// these: a page on it would not know which to use.
func (c *catalogue) sharing(name string, sites []site) *binding {
	for _, b := range c.names[name] {
		for _, s := range sites {
			if slices.Contains(b.sites, s) {
				return b
			}
		}
	}
	return nil
}

func siteKey(sites []site) string {
	var b strings.Builder
	for _, s := range sites {
		b.WriteString(s.String())
		b.WriteByte(',')
	}
	return b.String()
}

// label is what Redact writes for a value: "[secret login]" for the
// default key, "[secret login/password]" for another.
func label(name, key string) string {
	if key == DefaultKey {
		return "[secret " + name + "]"
	}
	return "[secret " + name + "/" + key + "]"
}

// Err is the load problem the Store refuses with; nil when it is sound.
func (s *Store) Err() error {
	if s == nil {
		return nil
	}
	return s.err
}

// List returns the principal's secrets sorted by name and then sites: for
// each, its description, sites and keys, never a value. A broken Store lists
// nothing.
func (s *Store) List(principal string) []Secret {
	if s == nil || s.err != nil || s.byPrincipal[principal] == nil {
		return nil
	}
	var out []Secret
	c := s.byPrincipal[principal]
	for _, name := range slices.Sorted(maps.Keys(c.names)) {
		bs := slices.Clone(c.names[name])
		slices.SortFunc(bs, func(a, b *binding) int { return strings.Compare(siteKey(a.sites), siteKey(b.sites)) })
		for _, b := range bs {
			out = append(out, Secret{Name: name, Description: b.description, Sites: b.siteList(), Keys: slices.Sorted(maps.Keys(b.values))})
		}
	}
	return out
}

// Value returns the value of key of the principal's secret name for the
// page at pageURL. name may carry the key as "name/key". key "" is the
// secret's only key; a secret with several keys needs one named.
//
// The page must be an http or https page on one of the secret's sites;
// when several site lists of the name match, the most specific site wins
// (host:port, then host, then the longest *.domain, then *). A refusal is a
// sentence naming what was wrong and the call that would work; it never
// holds a value.
func (s *Store) Value(principal, name, key, pageURL string) (string, error) {
	if s != nil && s.err != nil {
		return "", fmt.Errorf("%w (%s); ask the operator to fix it and restart the server", ErrBroken, s.broken)
	}
	if n, k, ok := strings.Cut(name, "/"); ok {
		if key != "" && key != k {
			return "", fmt.Errorf("the secret %q names the key %q, and the key asked for is %q; give the key once, as secret %q", name, k, key, n+"/"+key)
		}
		name, key = n, k
	}
	var c *catalogue
	if s != nil {
		c = s.byPrincipal[principal]
	}
	var bs []*binding
	if c != nil {
		bs = c.names[name]
	}
	if len(bs) == 0 {
		names := s.names(principal)
		if len(names) == 0 {
			return "", fmt.Errorf("you have no secret named %q, nor any other; ask the operator to add it (knowledge://documents/secrets says how)", name)
		}
		return "", fmt.Errorf("you have no secret named %q; yours are %s (secret://secrets lists them with their sites and keys)", name, strings.Join(names, ", "))
	}
	pg, ok := parsePage(pageURL)
	switch {
	case !ok:
		return "", fmt.Errorf("cannot tell which site this page is on, so the secret %q is not typed. %s", name, navigate(bs))
	case pg.host == "":
		return "", fmt.Errorf("this page is not on a web site (its address begins with %s:), and secrets are typed only on http and https pages, so the secret %q is not typed. %s", pg.scheme, name, navigate(bs))
	}
	var best *binding
	bestRank, bestLen := noMatch, 0
	for _, b := range bs {
		for _, st := range b.sites {
			r, l := st.match(pg.host, pg.port)
			if r > bestRank || r == bestRank && r != noMatch && l > bestLen {
				best, bestRank, bestLen = b, r, l
			}
		}
	}
	if best == nil {
		var sites []string
		for _, b := range bs {
			sites = append(sites, b.siteList()...)
		}
		slices.Sort(sites)
		return "", fmt.Errorf("the secret %q may only be typed on %s; this page is on %s. Navigate to that site first, or ask the operator to add %s to its sites", name, orList(sites), pg.hostPort(), pg.hostPort())
	}
	keys := slices.Sorted(maps.Keys(best.values))
	if key == "" && len(keys) == 1 {
		return best.values[keys[0]], nil
	}
	v, ok := best.values[key]
	if ok {
		return v, nil
	}
	calls := make([]string, len(keys))
	for i, k := range keys {
		calls[i] = strconv.Quote(name + "/" + k)
	}
	if key == "" {
		return "", fmt.Errorf("the secret %q has the keys %s; name the one to type: write with secret %s", name, list(keys, " and "), orList(calls))
	}
	return "", fmt.Errorf("the secret %q has no key %q on %s; write with secret %s", name, key, pg.hostPort(), orList(calls))
}

// navigate is the sentence telling a caller where to go first.
func navigate(bs []*binding) string {
	var sites []string
	for _, b := range bs {
		for _, s := range b.siteList() {
			if s != "*" {
				sites = append(sites, s)
			}
		}
	}
	if len(sites) == 0 {
		return "Navigate to the http or https page of the site first"
	}
	slices.Sort(sites)
	return "Navigate to " + orList(sites) + " first"
}

// orList is "a", "a or b", "a, b or c".
func orList(s []string) string { return list(s, " or ") }

// list is "a", "a and b", "a, b and c" with conj " and ".
func list(s []string, conj string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + conj + s[len(s)-1]
}

func (s *Store) names(principal string) []string {
	if s == nil || s.byPrincipal[principal] == nil {
		return nil
	}
	var out []string
	for n, bs := range s.byPrincipal[principal].names {
		if len(bs) > 0 {
			out = append(out, n)
		}
	}
	slices.Sort(out)
	return out
}

// Redact replaces every form of the principal's secret values in text with
// "[secret name]" ("[secret name/key]" for a key other than value): as they
// are, URL-, HTML-, JSON- and base64-encoded, reversed, and long pieces of
// them (see the package documentation, Redaction). Values shorter than
// MinRedactLength are left.
func (s *Store) Redact(principal, text string) string {
	c := s.catalogue(principal)
	if c == nil {
		return text
	}
	spans := c.m.find(text, false)
	if len(spans) == 0 {
		return text
	}
	return c.m.replace(text, spans)
}

// Contains reports whether text holds any form of any of the principal's
// secret values that Redact would replace: a flow document that does must
// not be saved.
func (s *Store) Contains(principal, text string) bool {
	c := s.catalogue(principal)
	return c != nil && len(c.m.find(text, true)) > 0
}

func (s *Store) catalogue(principal string) *catalogue {
	if s == nil {
		return nil
	}
	return s.byPrincipal[principal]
}

// validPrincipal is auth's rule: a principal names a folder under
// FLOW_DATA_DIR.
func validPrincipal(p string) bool { return auth.ValidPrincipal(p) }
