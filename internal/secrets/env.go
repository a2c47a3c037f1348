package secrets

import (
	"slices"
	"strings"
)

const (
	envSites       = "_SITES"
	envDescription = "_DESCRIPTION"
	envFormat      = "want FLOW_SECRET_<principal>__<name> or FLOW_SECRET_<principal>__<name>__<key> for a value, FLOW_SECRET_<principal>__<name>_SITES for its sites, FLOW_SECRET_<principal>__<name>_DESCRIPTION for its description"
)

// readEnv reads the FLOW_SECRET_ variables of environ, in the order of
// their names.
func readEnv(environ []string) ([]def, []*LoadError) {
	type group struct {
		principal, name string
		values          []def
		sites           string
		sitesAt, descAt place
		desc            string
	}
	groups := map[string]*group{}
	var order []string
	var problems []*LoadError
	vars := map[string]string{}
	for _, kv := range environ {
		k, v, ok := strings.Cut(kv, "=")
		if ok && strings.HasPrefix(k, EnvPrefix) {
			vars[k] = v
		}
	}
	names := make([]string, 0, len(vars))
	for k := range vars {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		v := vars[k]
		at := place{kind: envSource, rel: k}
		parts := strings.Split(strings.TrimPrefix(k, EnvPrefix), "__")
		if len(parts) < 2 || len(parts) > 3 {
			problems = append(problems, at.problem("is not a secret variable; %s", envFormat))
			continue
		}
		principal, name, key, meta := parts[0], parts[1], DefaultKey, ""
		if len(parts) == 3 {
			key = parts[2]
			if strings.EqualFold("_"+key, envSites) || strings.EqualFold("_"+key, envDescription) {
				problems = append(problems, at.problem("names a key %s; the secret's %s are set by FLOW_SECRET_%s__%s_%s, with one underscore", key, strings.ToLower(key), principal, name, strings.ToUpper(key)))
				continue
			}
		} else if n, ok := strings.CutSuffix(name, envSites); ok {
			name, meta = n, envSites
		} else if n, ok := strings.CutSuffix(name, envDescription); ok {
			name, meta = n, envDescription
		}
		switch {
		case !validPrincipal(principal):
			problems = append(problems, at.problem("does not begin with a valid principal: use letters, digits, dot, underscore and dash, at most 64, then __"))
			continue
		case !nameRE.MatchString(name):
			problems = append(problems, at.problem("does not name a valid secret: use 1 to 64 letters, digits, dots, underscores or dashes between the principal's __ and the next"))
			continue
		case !keyRE.MatchString(key):
			problems = append(problems, at.problem("does not end with a valid key: use 1 to 64 letters, digits, dots, underscores or dashes, beginning with a letter or digit"))
			continue
		case v == "":
			problems = append(problems, at.problem("is empty"))
			continue
		}
		id := principal + "\x00" + name
		g := groups[id]
		if g == nil {
			g = &group{principal: principal, name: name}
			groups[id] = g
			order = append(order, id)
		}
		switch meta {
		case envSites:
			g.sites, g.sitesAt = v, at
		case envDescription:
			g.desc, g.descAt = strings.TrimSpace(v), at
		default:
			g.values = append(g.values, def{principal: principal, name: name, key: key, text: v, at: at})
		}
	}
	var defs []def
	for _, id := range order {
		g := groups[id]
		prefix := EnvPrefix + g.principal + "__" + g.name
		if len(g.values) == 0 {
			at := g.sitesAt
			if at.rel == "" {
				at = g.descAt
			}
			problems = append(problems, at.problem("belongs to a secret without a value; set %s or %s__<key>", prefix, prefix))
			continue
		}
		var sites []site
		if g.sitesAt.rel == "" {
			problems = append(problems, g.values[0].at.problem("has no %s%s variable listing the sites it may be typed on (app.example.com, host:port, *.example.com or *, separated by commas)", prefix, envSites))
		} else if list, i, err := parseSites(strings.Split(g.sites, ",")); err != nil {
			problems = append(problems, g.sitesAt.problem("site %d: %v", i, err))
		} else {
			sites = list
		}
		for _, d := range g.values {
			d.sites = sites // nil when the sites are bad: the values are only redacted
			defs = append(defs, d)
		}
		if g.desc != "" {
			defs = append(defs, def{principal: g.principal, name: g.name, desc: true, text: g.desc, sites: sites, at: g.descAt})
		}
	}
	return defs, problems
}
