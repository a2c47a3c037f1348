package admin

import (
	"net/http"

	"github.com/selenium-flow/selenium-flow/internal/secrets"
)

// Setting is one setting in force: its key (the environment variable or
// flag), its value with anything secret masked, and where it came from
// (default, file, environment, flag).
type Setting struct {
	Key    string `json:"key"`
	Value  string `json:"value"`
	Source string `json:"source"`
}

// listSecrets is one card per secret the caller may see: keys,
// description, sites and source, never a value. A broken catalogue says
// so, without the operator's paths.
func (a *Admin) listSecrets(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r.Context())
	owners := []string{c.principal}
	if c.operator {
		owners = a.secrets.Owners()
	}
	cards := []secrets.Card{}
	for _, o := range owners {
		cards = append(cards, a.secrets.Cards(o)...)
	}
	out := map[string]any{"secrets": cards}
	if a.secrets.Err() != nil {
		out["broken"] = "The server's secret configuration does not load, so no secret is offered; the server's log at start names each problem."
	}
	writeJSON(w, http.StatusOK, out)
}

// listSettings is every setting in force, for an operator: the values
// are server-wide and some name the server's own places.
func (a *Admin) listSettings(w http.ResponseWriter, r *http.Request) {
	if !callerOf(r.Context()).operator {
		a.refuse(w, http.StatusForbidden, "Only an operator sees the server's settings; ask for a token with roles=operator in FLOW_TOKENS. GET "+APIPrefix+"workspaces shows your own workspace.")
		return
	}
	var list []Setting
	if a.settings != nil {
		list = a.settings()
	}
	writeJSON(w, http.StatusOK, map[string]any{"settings": nonNil(list)})
}
