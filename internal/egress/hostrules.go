package egress

import (
	"fmt"
	"path"
	"strings"
)

// The proxy resolves names for the browser, so Chromium's own resolver
// settings no longer apply to them. hostRules carries the one that
// matters, --host-resolver-rules (a closed network's "MAP * ~NOTFOUND ,
// EXCLUDE 127.0.0.1"), over to the proxy: the browser's arguments keep
// the meaning an operator gave them.

// hostRules are parsed --host-resolver-rules: MAP and EXCLUDE rules.
type hostRules struct {
	maps     []hostMap
	excludes []string
}

type hostMap struct{ pattern, to string }

// HostRulesFrom returns the value of a --host-resolver-rules argument
// among args, "" when there is none (the last one wins, as in Chromium).
func HostRulesFrom(args []string) string {
	rules := ""
	for _, a := range args {
		if v, ok := strings.CutPrefix(a, "--host-resolver-rules="); ok {
			rules = strings.Trim(v, `"'`)
		}
	}
	return rules
}

func parseHostRules(s string) (hostRules, error) {
	var r hostRules
	for _, rule := range strings.Split(s, ",") {
		f := strings.Fields(rule)
		switch {
		case len(f) == 0:
		case len(f) == 3 && strings.EqualFold(f[0], "MAP"):
			r.maps = append(r.maps, hostMap{strings.ToLower(f[1]), strings.ToLower(f[2])})
		case len(f) == 2 && strings.EqualFold(f[0], "EXCLUDE"):
			r.excludes = append(r.excludes, strings.ToLower(f[1]))
		default:
			return hostRules{}, fmt.Errorf("host resolver rule %q is neither MAP PATTERN HOST nor EXCLUDE PATTERN", strings.TrimSpace(rule))
		}
	}
	return r, nil
}

// rewrite returns the host to resolve for host (port is the connection's),
// or notFound when a rule says the name does not exist.
func (r hostRules) rewrite(host string, port int) (to string, notFound bool) {
	host = strings.ToLower(host)
	hostport := fmt.Sprintf("%s:%d", host, port)
	matches := func(pattern string) bool {
		a, _ := path.Match(pattern, host)
		b, _ := path.Match(pattern, hostport)
		return a || b
	}
	for _, e := range r.excludes {
		if matches(e) {
			return host, false
		}
	}
	for _, m := range r.maps {
		if matches(m.pattern) {
			if m.to == "~notfound" {
				return "", true
			}
			return m.to, false
		}
	}
	return host, false
}
