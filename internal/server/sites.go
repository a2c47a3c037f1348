package server

import (
	"context"
	"fmt"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/resources"
)

// session://sites and session://sites/{site}: the site data saved in the
// workspace a request works in, as people and models may see it. No value
// a site meant to keep from scripts (an httpOnly cookie) and no storage
// value is shown; what is shown still passes the secret filter.

// hidden stands for a value that is never shown.
const hidden = "•••"

type siteList struct {
	Workspace string     `json:"workspace"`
	SavedAt   string     `json:"savedAt,omitempty"`
	Sites     []siteView `json:"sites"`
	Next      string     `json:"next"`
}

type siteView struct {
	Site    string        `json:"site"`
	URI     string        `json:"uri"`
	Cookies []cookieView  `json:"cookies"`
	Storage []storageView `json:"storage,omitempty"`
}

type cookieView struct {
	Name     string `json:"name"`
	Value    string `json:"value"`
	Domain   string `json:"domain"`
	Path     string `json:"path"`
	HTTPOnly bool   `json:"httpOnly,omitempty"`
	Secure   bool   `json:"secure,omitempty"`
	Expires  string `json:"expires,omitempty"`
}

type storageView struct {
	Origin  string         `json:"origin"`
	Local   map[string]int `json:"localStorage,omitempty"`   // key → size in bytes
	Session map[string]int `json:"sessionStorage,omitempty"` // key → size in bytes
}

// siteData is the saved site data of the request's workspace.
func (r runtime) siteData(ctx context.Context) (string, *browser.SiteData, error) {
	o := sessions.OwnerOf(ctx)
	rec, _, err := r.sessions.Workspace(ctx, o)
	return o.Workspace, rec.SiteData, err
}

func (r runtime) readSites(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
	name, d, err := r.siteData(ctx)
	if err != nil {
		return resources.Content{}, err
	}
	out := siteList{Workspace: name, Sites: []siteView{}, Next: "Nothing is saved yet: sign in, then call save_site_data."}
	if d != nil {
		out.SavedAt = d.SavedAt.UTC().Format(time.RFC3339)
		for _, h := range d.Hosts() {
			out.Sites = append(out.Sites, viewSite(*d, h))
		}
		out.Next = "A reopened browser gets this back before its first page; save_site_data replaces it, open_session with restore_site_data false starts without it."
	}
	return resources.JSON(out)
}

func (r runtime) readSite(ctx context.Context, uri string, vars map[string]string) (resources.Content, error) {
	_, d, err := r.siteData(ctx)
	if err != nil {
		return resources.Content{}, err
	}
	site := vars["site"]
	if d != nil {
		for _, h := range d.Hosts() {
			if h == site {
				return resources.JSON(viewSite(*d, h))
			}
		}
	}
	return resources.Content{}, resources.Missing(fmt.Errorf("no site data is saved for %s in this workspace; session://sites lists the sites that have some", uri))
}

func (r runtime) completeSites(ctx context.Context, _, _ string) ([]string, error) {
	_, d, err := r.siteData(ctx)
	if err != nil || d == nil {
		return nil, err
	}
	return d.Hosts(), nil
}

func viewSite(d browser.SiteData, host string) siteView {
	v := siteView{Site: host, URI: "session://sites/" + host, Cookies: []cookieView{}}
	for _, c := range d.Cookies {
		if c.Host() != host {
			continue
		}
		cv := cookieView{Name: c.Name, Value: c.Value, Domain: c.Domain, Path: c.Path, HTTPOnly: c.HTTPOnly, Secure: c.Secure}
		if c.HTTPOnly {
			cv.Value = hidden
		}
		if c.Expiry > 0 {
			cv.Expires = time.Unix(c.Expiry, 0).UTC().Format(time.RFC3339)
		}
		v.Cookies = append(v.Cookies, cv)
	}
	for _, st := range d.Storage {
		if st.Host() != host {
			continue
		}
		v.Storage = append(v.Storage, storageView{Origin: st.Origin, Local: sizes(st.Local), Session: sizes(st.Session)})
	}
	return v
}

func sizes(m map[string]string) map[string]int {
	if len(m) == 0 {
		return nil
	}
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = len(v)
	}
	return out
}
