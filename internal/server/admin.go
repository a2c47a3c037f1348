package server

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/admin"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/flows"
	"github.com/selenium-flow/selenium-flow/internal/surface"
)

// newAdmin builds the operator's page (package admin) from the server's
// stores. Site data and history are left out until workspaces keep them.
func (s *Server) newAdmin(kept *files.Store, flowStore *flows.Store) *admin.Admin {
	return admin.New(
		admin.WithSessions(s.sessions),
		admin.WithFiles(kept),
		admin.WithFlows(flowStore),
		admin.WithSecrets(s.secrets),
		admin.WithScrubber(s.scrub),
		admin.WithFrameAncestors(s.cfg.AdminFrameAncestors),
		admin.WithSettings(s.settings),
		admin.WithOIDC(admin.OIDC{Issuer: s.cfg.OIDC.Issuer, ClientID: s.cfg.OIDC.AdminClientID}),
		admin.WithSiteData(workspaceSites{s.sessions}),
		admin.WithHistory(workspaceSites{s.sessions}),
	)
}

// settings are the settings in force as the admin page lists them: as cmd
// loaded them (configured) or, for a server built in-process without the
// configuration, from its Config, a value that differs from the default
// said to come from the environment. Nothing that names a server path, a
// driver or Grid address, or a token is shown.
func (s *Server) settings() []admin.Setting {
	if s.cfg.Settings != nil {
		return s.configured()
	}
	c := s.cfg
	hidden := func(set bool, what string) string {
		if set {
			return "set (" + what + " hidden)"
		}
		return ""
	}
	rows := []struct {
		key, value string
		set        bool
	}{
		{"FLOW_RESOURCES", c.Resources.String(), c.Resources != surface.Auto},
		{"FLOW_EXCLUDE_TOOLS", strings.Join(c.ExcludeTools, ","), len(c.ExcludeTools) > 0},
		{"FLOW_NO_SCRIPTS", boolString(c.NoScripts), c.NoScripts},
		{"FLOW_TOKENS", tokenCount(c), c.Tokens.Len() > 0},
		{"FLOW_DATA_DIR", "a folder on the server (path hidden)", true},
		{"SELENIUM_URL", orDefault(hidden(c.SeleniumURL != "", "Grid address"), "local chromedriver"), c.SeleniumURL != ""},
		{"FLOW_IDLE_TIMEOUT", idleTimeout(c), c.IdleTimeout != 0},
		{"FLOW_ALLOWED_HOSTS", strings.Join(c.AllowedHosts, ","), len(c.AllowedHosts) > 0},
		{"FLOW_ALLOWED_ORIGINS", strings.Join(c.AllowedOrigins, ","), len(c.AllowedOrigins) > 0},
		{"FLOW_BROWSER_ARGS", s.scrub.Scrub(strings.Join(c.BrowserArgs, " ")), len(c.BrowserArgs) > 0},
		{"FLOW_BROWSER_DENY", prefixes(c.BrowserDeny), len(c.BrowserDeny) > 0},
		{"FLOW_BROWSER_ALLOW", prefixes(c.BrowserAllow), len(c.BrowserAllow) > 0},
		{"FLOW_SECRETS", hidden(c.Secrets.File != "", "file path"), c.Secrets.File != ""},
		{"FLOW_SECRETS_DIR", hidden(c.Secrets.Dir != "", "folder path"), c.Secrets.Dir != ""},
		{"FLOW_ADMIN_FRAME_ANCESTORS", orDefault(c.AdminFrameAncestors, "'none'"), c.AdminFrameAncestors != ""},
	}
	out := make([]admin.Setting, 0, len(rows))
	for _, r := range rows {
		src := "default"
		if r.set {
			src = "environment"
		}
		out = append(out, admin.Setting{Key: r.key, Value: r.value, Source: src})
	}
	return out
}

func boolString(b bool) string { return strconv.FormatBool(b) }

func orDefault(v, def string) string {
	if v == "" {
		return def
	}
	return v
}

func tokenCount(c Config) string {
	n := c.Tokens.Len()
	if n == 0 {
		return "none: loopback callers only"
	}
	return fmt.Sprintf("%d tokens (values hidden)", n)
}

func idleTimeout(c Config) string {
	if c.IdleTimeout == 0 {
		return "15m0s"
	}
	return c.IdleTimeout.String()
}

func prefixes(ps []netip.Prefix) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return strings.Join(out, ",")
}

// configured are the settings as cmd loaded them (package config), each
// with its source; a server path or address shows only that it is set.
func (s *Server) configured() []admin.Setting {
	out := make([]admin.Setting, 0, len(s.cfg.Settings))
	for _, set := range s.cfg.Settings {
		v := set.Value
		if set.Private && v != "" {
			v = "set (hidden: a server path or address)"
		}
		out = append(out, admin.Setting{Key: set.Env, Value: s.scrub.Scrub(v), Source: string(set.Source)})
	}
	return out
}
