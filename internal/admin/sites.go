package admin

import (
	"errors"
	"net/http"
	"strings"
)

// Site is one origin's saved data in a workspace (cookies, storage).
type Site struct {
	Origin  string `json:"origin"`
	Cookies int    `json:"cookies"`
	Storage int    `json:"storage"` // localStorage keys
	SavedAt string `json:"savedAt,omitempty"`
}

// Visit is one page a workspace's browser visited.
type Visit struct {
	URL   string `json:"url"`
	Title string `json:"title,omitempty"`
	At    string `json:"at"`
}

// SiteData is where workspaces keep site data between browsers. The
// workspace store implements it; until then the page says none is kept.
type SiteData interface {
	Sites(owner, workspace string) ([]Site, error)
	// Forget drops one origin's data; ErrNoSite when none is saved.
	Forget(owner, workspace, origin string) error
	// Clear drops every origin's data and says how many there were.
	Clear(owner, workspace string) (int, error)
}

// History is where workspaces keep the pages they visited.
type History interface {
	History(owner, workspace string) ([]Visit, error)
}

// ErrNoSite is what SiteData.Forget returns for an origin with no data.
var ErrNoSite = errors.New("no site data saved for that origin")

const noSiteData = "This server keeps no site data per workspace: cookies and storage live only as long as the browser does."

func (a *Admin) listSites(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	if a.sites == nil {
		writeJSON(w, http.StatusOK, map[string]any{"sites": []Site{}, "kept": false, "note": noSiteData})
		return
	}
	list, err := a.sites.Sites(owner, workspaceName(r))
	if err != nil {
		a.refuse(w, http.StatusInternalServerError, "The site data could not be listed: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"sites": nonNil(list), "kept": true})
}

func (a *Admin) forgetSite(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	if a.sites == nil {
		a.refuse(w, http.StatusNotFound, noSiteData+" There is nothing to forget.")
		return
	}
	origin := r.PathValue("origin")
	if err := a.sites.Forget(owner, workspaceName(r), origin); err != nil {
		if errors.Is(err, ErrNoSite) {
			a.refuse(w, http.StatusNotFound, "No site data is saved for "+quote(origin)+". GET "+APIPrefix+"workspaces/"+r.PathValue("ws")+"/sites lists the origins that have some.")
			return
		}
		a.refuse(w, http.StatusInternalServerError, "The site data could not be forgotten: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"forgotten": origin})
}

func (a *Admin) clearSites(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	n := 0
	if a.sites != nil {
		var err error
		if n, err = a.sites.Clear(owner, workspaceName(r)); err != nil {
			a.refuse(w, http.StatusInternalServerError, "The site data could not be cleared: "+err.Error())
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"cleared": n})
}

func (a *Admin) listHistory(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	if a.history == nil {
		writeJSON(w, http.StatusOK, map[string]any{"visits": []Visit{}, "kept": false, "note": "This server keeps no visit history per workspace yet."})
		return
	}
	list, err := a.history.History(owner, workspaceName(r))
	if err != nil {
		a.refuse(w, http.StatusInternalServerError, "The history could not be read: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"visits": nonNil(list), "kept": true})
}

// workspaceName is the name part of {ws}, checked by workspaceOf.
func workspaceName(r *http.Request) string {
	name, _, _ := strings.Cut(r.PathValue("ws"), "@")
	return name
}
