package server

import (
	"context"
	"slices"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/admin"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// workspaceSites gives the admin page a workspace's saved site data and
// visited sites, read from and tidied in the workspace store (package
// workspaces), so every replica shows and changes the same records.
type workspaceSites struct{ store workspaces.Store }

// adminStoreTimeout bounds one store call made for the admin page.
const adminStoreTimeout = 10 * time.Second

func (w workspaceSites) record(owner, name string) (workspaces.Record, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), adminStoreTimeout)
	defer cancel()
	return w.store.Get(ctx, owner, name)
}

func (w workspaceSites) put(r workspaces.Record) error {
	ctx, cancel := context.WithTimeout(context.Background(), adminStoreTimeout)
	defer cancel()
	return w.store.Put(ctx, r)
}

// Sites lists the saved site data per host: counts only, never a value.
func (w workspaceSites) Sites(owner, name string) ([]admin.Site, error) {
	rec, ok, err := w.record(owner, name)
	if err != nil || !ok || rec.SiteData == nil {
		return nil, err
	}
	d := *rec.SiteData
	var out []admin.Site
	for _, host := range d.Hosts() {
		site := admin.Site{Origin: host, SavedAt: d.SavedAt.UTC().Format(time.RFC3339)}
		for _, c := range d.Cookies {
			if c.Host() == host {
				site.Cookies++
			}
		}
		for _, st := range d.Storage {
			if st.Host() == host {
				site.Storage += len(st.Local) + len(st.Session)
			}
		}
		out = append(out, site)
	}
	return out, nil
}

// Forget drops one host's cookies and storage from the saved data.
func (w workspaceSites) Forget(owner, name, host string) error {
	rec, ok, err := w.record(owner, name)
	if err != nil {
		return err
	}
	if !ok || rec.SiteData == nil || !slices.Contains(rec.SiteData.Hosts(), host) {
		return admin.ErrNoSite
	}
	d := *rec.SiteData
	d.Cookies = slices.DeleteFunc(slices.Clone(d.Cookies), func(c browser.Cookie) bool { return c.Host() == host })
	d.Storage = slices.DeleteFunc(slices.Clone(d.Storage), func(s browser.SiteStorage) bool { return s.Host() == host })
	rec.SiteData = &d
	if len(d.Cookies)+len(d.Storage) == 0 {
		rec.SiteData = nil
	}
	return w.put(rec)
}

// Clear drops all saved site data and says of how many hosts.
func (w workspaceSites) Clear(owner, name string) (int, error) {
	rec, ok, err := w.record(owner, name)
	if err != nil || !ok || rec.SiteData == nil {
		return 0, err
	}
	n := len(rec.SiteData.Hosts())
	rec.SiteData = nil
	return n, w.put(rec)
}

// History lists the sites the workspace was on, newest first.
func (w workspaceSites) History(owner, name string) ([]admin.Visit, error) {
	rec, ok, err := w.record(owner, name)
	if err != nil || !ok {
		return nil, err
	}
	out := make([]admin.Visit, 0, len(rec.Visited))
	for _, v := range slices.Backward(rec.Visited) {
		out = append(out, admin.Visit{URL: v})
	}
	return out, nil
}
