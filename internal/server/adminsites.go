package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/admin"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/sessions"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// workspaceSites gives the admin page a workspace's saved site data and
// visited sites. It reads the workspace store, so every replica shows the
// same records, and changes them through the sessions manager
// (EditWorkspace), so a browser open here does not write the old data back.
type workspaceSites struct{ m *sessions.Manager }

// adminStoreTimeout bounds one store call made for the admin page.
const adminStoreTimeout = 10 * time.Second

func (w workspaceSites) record(owner, name string) (workspaces.Record, bool, error) {
	ctx, cancel := context.WithTimeout(context.Background(), adminStoreTimeout)
	defer cancel()
	return w.m.Workspace(ctx, sessions.Owner{Principal: owner, Workspace: name})
}

func (w workspaceSites) edit(owner, name string, fn func(*workspaces.Record) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), adminStoreTimeout)
	defer cancel()
	return w.m.EditWorkspace(ctx, sessions.Owner{Principal: owner, Workspace: name}, fn)
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
	err := w.edit(owner, name, func(rec *workspaces.Record) error {
		if rec.SiteData == nil || !slices.Contains(rec.SiteData.Hosts(), host) {
			return admin.ErrNoSite
		}
		d := *rec.SiteData
		d.Cookies = slices.DeleteFunc(slices.Clone(d.Cookies), func(c browser.Cookie) bool { return c.Host() == host })
		d.Storage = slices.DeleteFunc(slices.Clone(d.Storage), func(s browser.SiteStorage) bool { return s.Host() == host })
		rec.SiteData = &d
		if len(d.Cookies)+len(d.Storage) == 0 {
			rec.SiteData = nil
		}
		return nil
	})
	if errors.Is(err, sessions.ErrNoRecord) {
		return admin.ErrNoSite
	}
	return err
}

// errNothingSaved stops Clear's edit without a write.
var errNothingSaved = errors.New("no site data saved")

// Clear drops all saved site data and says of how many hosts.
func (w workspaceSites) Clear(owner, name string) (int, error) {
	n := 0
	err := w.edit(owner, name, func(rec *workspaces.Record) error {
		if rec.SiteData == nil {
			return errNothingSaved
		}
		n = len(rec.SiteData.Hosts())
		rec.SiteData = nil
		return nil
	})
	if errors.Is(err, sessions.ErrNoRecord) || errors.Is(err, errNothingSaved) {
		return 0, nil
	}
	return n, err
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
