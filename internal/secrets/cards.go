package secrets

import (
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Card is one secret as the operator's admin page shows it: the Secret
// (name, description, sites, keys; never a value), its owner, and where it
// was defined, named without the operator's file paths.
type Card struct {
	Secret
	Owner  string `json:"owner"`
	Source string `json:"source"` // e.g. "FLOW_SECRETS file, line 3", "FLOW_SECRETS_DIR", "environment (FLOW_SECRET_LOGIN)"
}

// Owners lists the principals that have secrets.
func (s *Store) Owners() []string {
	if s == nil || s.err != nil {
		return nil
	}
	var out []string
	for p, c := range s.byPrincipal {
		if len(c.names) > 0 {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// Cards lists the principal's secrets as List does, each with where it was
// defined. A broken Store lists nothing; Err says why.
func (s *Store) Cards(principal string) []Card {
	if s == nil || s.err != nil || s.byPrincipal[principal] == nil {
		return nil
	}
	var out []Card
	c := s.byPrincipal[principal]
	for _, name := range slices.Sorted(maps.Keys(c.names)) {
		bs := slices.Clone(c.names[name])
		slices.SortFunc(bs, func(a, b *binding) int { return strings.Compare(siteKey(a.sites), siteKey(b.sites)) })
		for _, b := range bs {
			out = append(out, Card{
				Secret: Secret{Name: name, Description: b.description, Sites: b.siteList(), Keys: slices.Sorted(maps.Keys(b.values))},
				Owner:  principal,
				Source: b.first.card(),
			})
		}
	}
	return out
}

// card names a place for the admin page: the kind of source and the line
// or variable, never the file's or folder's path.
func (p place) card() string {
	switch p.kind {
	case fileSource:
		if p.line > 0 {
			return "FLOW_SECRETS file, line " + strconv.Itoa(p.line)
		}
		return "FLOW_SECRETS file"
	case dirSource:
		return "FLOW_SECRETS_DIR"
	}
	return "environment (" + p.rel + ")"
}
