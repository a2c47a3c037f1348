package admin

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// Workspace is one row of the workspace list. ID, "name@owner", is how
// the API paths and the page's deep links (#/workspaces/<id>/…) name it.
type Workspace struct {
	ID          string `json:"id"`
	Owner       string `json:"owner"`
	Name        string `json:"name"`
	State       string `json:"state"` // live, idle or closed
	Browser     string `json:"browser,omitempty"`
	URL         string `json:"url,omitempty"`
	OpenedAt    string `json:"openedAt,omitempty"`
	LastUsedAt  string `json:"lastUsedAt,omitempty"`
	IdleTimeout string `json:"idleTimeout,omitempty"`
	Files       int    `json:"files"`
	Flows       int    `json:"flows"`
	Sites       int    `json:"sites"`
}

// workspaceID is "name@owner": principal names hold no "@".
func workspaceID(owner, name string) string { return name + "@" + owner }

// ParseWorkspaceID reads a workspace id, "name@owner", as the API paths
// and the page's deep links carry it. The owner must be a valid principal
// and the name a non-empty run of the same characters; ok is false for
// anything else.
func ParseWorkspaceID(id string) (owner, name string, ok bool) {
	name, owner, found := strings.Cut(id, "@")
	if !found || !auth.ValidPrincipal(owner) || !auth.ValidPrincipal(name) {
		return "", "", false
	}
	return owner, name, true
}

// caller is who is asking and whether they may see everyone's.
type caller struct {
	principal string
	operator  bool
}

func callerOf(ctx context.Context) caller {
	return caller{principal: auth.Principal(ctx), operator: auth.IsOperator(ctx)}
}

func (c caller) sees(owner string) bool { return c.operator || c.principal == owner }

// workspaceOf reads {ws} from the path and checks the caller may see it;
// a workspace of another principal is "not found" to a non-operator, as
// one that does not exist, so its existence is not told.
func (a *Admin) workspaceOf(w http.ResponseWriter, r *http.Request) (owner string, ok bool) {
	id := r.PathValue("ws")
	owner, name, found := ParseWorkspaceID(id)
	c := callerOf(r.Context())
	if !found || !workspaces.ValidName(name) || !c.sees(owner) || !a.exists(owner, name) {
		a.refuse(w, http.StatusNotFound, "There is no workspace "+quote(id)+" you can see. Name a workspace as name@owner, e.g. "+workspaceID(c.principal, workspaces.Default)+"; GET "+APIPrefix+"workspaces lists yours.")
		return "", false
	}
	return owner, true
}

// quote shows a caller's value short and printable.
func quote(s string) string {
	if len(s) > 80 {
		s = s[:80] + "…"
	}
	return `"` + strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s) + `"`
}

// workspaces lists what c may see: a workspace for every principal with an
// open browser, kept files or flows, and always the caller's own.
func (a *Admin) workspaces(c caller) []Workspace {
	var open []sessions.Summary
	if a.sessions != nil {
		open = a.sessions.Inventory()
	}
	return a.workspacesOf(c, open)
}

// workspacesOf is workspaces with the open browsers already listed, so
// the stream lists them once for every page.
func (a *Admin) workspacesOf(c caller, open []sessions.Summary) []Workspace {
	owners := map[string]bool{c.principal: true}
	if c.operator {
		for _, s := range open {
			owners[s.Owner] = true
		}
		if a.files != nil {
			for _, p := range a.files.Principals() {
				owners[p] = true
			}
		}
		if a.flows != nil {
			for _, p := range a.flows.Owners() {
				owners[p] = true
			}
		}
	}
	var out []Workspace
	for _, owner := range slices.Sorted(maps.Keys(owners)) {
		if !auth.ValidPrincipal(owner) {
			continue
		}
		for _, name := range a.namesOf(owner, open) {
			ws := Workspace{ID: workspaceID(owner, name), Owner: owner, Name: name, State: "closed"}
			for _, s := range open {
				if s.Owner == owner && s.Name == ws.Name {
					ws.State, ws.Browser, ws.URL = s.State, s.Browser, s.URL
					ws.OpenedAt, ws.LastUsedAt, ws.IdleTimeout = s.OpenedAt, s.LastUsedAt, s.IdleTimeout
				}
			}
			ws.Files, ws.Flows, ws.Sites = a.counts(owner, ws.Name)
			out = append(out, ws)
		}
	}
	return out
}

// namesOf are owner's workspaces: the default one, those with a browser
// open here, and those the workspace store keeps (open on another
// replica, or closed within their TTL).
func (a *Admin) namesOf(owner string, open []sessions.Summary) []string {
	names := map[string]bool{workspaces.Default: true}
	for _, s := range open {
		if s.Owner == owner {
			names[s.Name] = true
		}
	}
	if a.sessions != nil {
		// The listing is bounded by the store's own timeouts; a store that
		// does not answer leaves out only what it would have added.
		if recs, err := a.sessions.Workspaces(context.Background(), owner); err == nil {
			for _, r := range recs {
				names[r.Name] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// counts are a workspace's kept files, own flows and sites with data.
func (a *Admin) counts(owner, name string) (nFiles, nFlows, nSites int) {
	if a.files != nil && a.files.Has(owner) {
		if box, err := a.files.For(owner); err == nil {
			if all, err := box.List(); err == nil {
				nFiles = len(all)
			}
		}
	}
	if a.flows != nil {
		nFlows = len(a.flows.Own(owner))
	}
	if a.sites != nil {
		if s, err := a.sites.Sites(owner, name); err == nil {
			nSites = len(s)
		}
	}
	return
}

func (a *Admin) me(w http.ResponseWriter, r *http.Request) {
	c := callerOf(r.Context())
	writeJSON(w, http.StatusOK, map[string]any{"principal": c.principal, "operator": c.operator, "workspace": workspaceID(c.principal, workspaces.Default)})
}

func (a *Admin) listWorkspaces(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"workspaces": nonNil(a.workspaces(callerOf(r.Context())))})
}

func (a *Admin) getWorkspace(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	for _, ws := range a.workspaces(caller{principal: owner}) {
		if ws.Owner == owner {
			writeJSON(w, http.StatusOK, ws)
			return
		}
	}
	a.refuse(w, http.StatusNotFound, "The workspace is gone. GET "+APIPrefix+"workspaces lists the ones you can see.")
}

// endBrowser closes the workspace's browser, giving its Grid slot back;
// the workspace, its files and flows stay. Ending one that is not open is
// no error: the state asked for holds.
func (a *Admin) endBrowser(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	if a.sessions == nil {
		writeJSON(w, http.StatusOK, map[string]any{"ended": false})
		return
	}
	ended, err := a.sessions.Close(r.Context(), sessions.Owner{Principal: owner, Workspace: workspaceName(r)})
	if err != nil && !ended {
		a.refuse(w, http.StatusBadGateway, "The browser could not be ended: "+err.Error()+". Try again; GET "+APIPrefix+"workspaces shows whether it is still open.")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ended": ended})
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// keptBox is the owner's kept files, or nil when the owner has none; it
// creates no folder for a principal that never kept a file.
func (a *Admin) keptBox(owner string) (*files.Box, error) {
	if a.files == nil || !a.files.Has(owner) {
		return nil, nil
	}
	return a.files.For(owner)
}

// exists reports whether owner has the workspace name: the default one,
// one with a browser open here, or one the store keeps. It asks no
// browser anything (Inventory would ask each for its URL).
func (a *Admin) exists(owner, name string) bool {
	if name == workspaces.Default {
		return true
	}
	if a.sessions != nil && a.sessions.Peek(sessions.Owner{Principal: owner, Workspace: name}) != nil {
		return true
	}
	return slices.Contains(a.namesOf(owner, nil), name)
}
