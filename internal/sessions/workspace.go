package sessions

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// Owner is whose browser a call works with: a principal's workspace.
type Owner struct {
	Principal string
	Workspace string
}

// OwnerOf is the owner of a request: its principal (auth.Principal) and
// the workspace it works in (workspaces.Workspace).
func OwnerOf(ctx context.Context) Owner {
	return Owner{Principal: auth.Principal(ctx), Workspace: workspaces.Workspace(ctx).Name}
}

// WithStore keeps every workspace's record in st, so that its browser
// outlives the process: see the package comment. Without it a browser
// lives only as long as the process that opened it.
func WithStore(st workspaces.Store) Option {
	return func(m *Manager) { m.store = st }
}

// Store is the workspace store the manager keeps records in; nil without
// one.
func (m *Manager) Store() workspaces.Store { return m.store }

// lockOwner serialises what changes which browser a workspace has
// (opening, recovering, closing) and returns the unlock.
func (m *Manager) lockOwner(o Owner) func() {
	m.mu.Lock()
	l := m.recovering[o]
	if l == nil {
		l = &sync.Mutex{}
		m.recovering[o] = l
	}
	m.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// load returns the workspace's record, or a new one (false) when the store
// has none.
func (m *Manager) load(ctx context.Context, o Owner) (workspaces.Record, bool, error) {
	if m.store != nil {
		rec, ok, err := m.store.Get(ctx, o.Principal, o.Workspace)
		if err != nil || ok {
			return rec, ok, err
		}
	}
	now := m.now().UTC()
	return workspaces.Record{Owner: o.Principal, Name: o.Workspace, NamedBy: workspaces.ByDefault, Created: now, LastUsed: now}, false, nil
}

// touchEvery is how often a record that did not change is written anyway,
// so that its TTL slides while the workspace is used.
const touchEvery = time.Minute

// save writes the workspace's record when where the browser is changed
// (its URL, window, driver session) or force is set; a call that changed
// nothing costs no write, except one a minute to slide the TTL.
func (m *Manager) save(ctx context.Context, s *Session, force bool) error {
	if m.store == nil {
		return nil
	}
	now := m.now().UTC()
	handle, frames := s.Place()
	s.mu.Lock()
	rec := s.rec
	changed := force || rec.State != workspaces.Live || rec.DriverSession != s.ID() || rec.Window != s.Window() || now.Sub(rec.LastUsed) >= touchEvery ||
		rec.WindowHandle != handle || !slices.Equal(rec.Frame, frames)
	rec.Visited = slices.Clone(rec.Visited)
	if u := s.LastURL(); u != "" && rec.Visit(u) {
		changed = true
	}
	s.mu.Unlock()
	if !changed {
		return nil
	}
	rec.State, rec.DriverSession, rec.Remote, rec.Window, rec.LastUsed = workspaces.Live, s.ID(), s.Remote(), s.Window(), now
	rec.WindowHandle, rec.Frame = handle, frames
	if err := m.store.Put(ctx, rec); err != nil {
		return err
	}
	s.mu.Lock()
	s.rec = rec
	s.mu.Unlock()
	return nil
}

// update changes the workspace's record with fn and writes it; when fn
// returns an error nothing is written.
func (m *Manager) update(ctx context.Context, s *Session, fn func(*workspaces.Record) error) error {
	s.mu.Lock()
	rec := s.rec
	s.mu.Unlock()
	if err := fn(&rec); err != nil {
		return err
	}
	rec.LastUsed = m.now().UTC()
	if m.store != nil {
		if err := m.store.Put(ctx, rec); err != nil {
			return err
		}
	}
	s.mu.Lock()
	s.rec = rec
	s.mu.Unlock()
	return nil
}

// usedElsewhere reports whether s, idle in this process, is a Grid browser
// that the workspace's record says was used within the idle timeout — by
// another replica, which writes the record at least once a minute while it
// uses the browser.
func (m *Manager) usedElsewhere(ctx context.Context, s *Session, now time.Time) bool {
	if m.store == nil || !s.Remote() {
		return false
	}
	rec, ok, err := m.store.Get(ctx, s.Principal, s.Workspace)
	return err == nil && ok && rec.State == workspaces.Live && rec.DriverSession == s.ID() && now.Sub(rec.LastUsed) < m.idle
}

// forgetDriverSession records that s's driver session has ended while
// its workspace stays open (an idle close).
func (m *Manager) forgetDriverSession(ctx context.Context, s *Session) {
	if m.store == nil {
		return
	}
	rec, ok, err := m.store.Get(ctx, s.Principal, s.Workspace)
	if err != nil || !ok || rec.DriverSession != s.ID() {
		return
	}
	rec.DriverSession = ""
	_ = m.store.Put(ctx, rec)
}

// recover brings back the browser of a workspace whose record says it is
// open while this process holds none: on a Grid it re-attaches to the
// driver session, silently; otherwise, or when that session is gone, it
// opens the same browser with the same window, restores the saved site
// data and loads the last URL, and notes that in one line (TakeNote). It
// returns nil when the workspace has no open browser.
func (m *Manager) recover(ctx context.Context, o Owner) (*Session, error) {
	if m.store == nil {
		return nil, nil
	}
	unlock := m.lockOwner(o)
	defer unlock()
	if s := m.Peek(o); s != nil {
		return s, nil
	}
	rec, ok, err := m.store.Get(ctx, o.Principal, o.Workspace)
	if err != nil || !ok || rec.State != workspaces.Live {
		return nil, err
	}
	if rec.Remote && rec.DriverSession != "" {
		if d, err := m.startDriver(ctx); err == nil && d.Remote() {
			if bs, err := d.Attach(ctx, rec.DriverSession, rec.Options()); err == nil {
				reenter(bs, rec.Frame)
				s := m.adopt(o, bs, d, rec)
				return s, m.save(ctx, s, true)
			}
		}
	}
	bs, d, err := m.newSession(ctx, rec.Options())
	if err != nil {
		return nil, err
	}
	note := "The browser had ended, so it was reopened"
	if rec.SiteData != nil && !rec.Insecure {
		if err := bs.RestoreSiteData(ctx, *rec.SiteData); err != nil {
			_ = bs.Close()
			return nil, openErr(err)
		}
		note += fmt.Sprintf(" with the saved site data of %d sites", len(rec.SiteData.Hosts()))
	}
	if rec.URL != "" {
		if err := bs.Navigate(rec.URL); err == nil {
			note += " at its last page"
		}
	}
	s := m.adopt(o, bs, d, rec)
	s.reopened = true
	s.note = note + "; what was not saved with save_site_data (form input, unsaved storage) is gone."
	return s, m.save(ctx, s, true)
}

// reenter enters again the frames a re-attached browser was in, as far as
// they are still there.
func reenter(bs *browser.Session, frames []string) {
	for _, f := range frames {
		loc, err := browser.ParseLocator(f)
		if err != nil || bs.EnterFrame(loc) != nil {
			return
		}
	}
}

// TakeNote returns, once, the line that says the browser was reopened.
func (s *Session) TakeNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := s.note
	s.note = ""
	return n
}

func (s *Session) peekNote() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.note
}

// WorkspaceRecord is what the store holds of the workspace now.
func (s *Session) WorkspaceRecord() workspaces.Record {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.rec
}

// SaveSiteData keeps the browser's site data in the workspace's record
// (browser.Session.SaveSiteData), within the caps. It refuses an insecure
// browser: one that accepts any certificate may hold an impostor's
// cookies.
func (m *Manager) SaveSiteData(ctx context.Context, s *Session) (browser.SiteData, error) {
	rec := s.WorkspaceRecord()
	if rec.Insecure {
		return browser.SiteData{}, ErrInsecureSiteData
	}
	if m.store == nil {
		return browser.SiteData{}, refusal.New("This server keeps no workspaces, so site data cannot be saved.", "Run it with a data folder (FLOW_DATA_DIR) or FLOW_STORE.")
	}
	d, err := s.Session.SaveSiteData(ctx, rec.SiteData)
	if err != nil {
		return browser.SiteData{}, err
	}
	if err := d.Check(); err != nil {
		return browser.SiteData{}, refusal.New(fmt.Sprintf("The site data was not saved: %v.", err),
			"Start over without it: close_session, then open_session with restore_site_data false, sign in again and call save_site_data; or use another workspace (?workspace=NAME) for other sites.")
	}
	return d, m.update(ctx, s, func(r *workspaces.Record) error { r.SiteData = &d; return nil })
}

// ErrInsecureSiteData refuses save_site_data on an insecure browser.
var ErrInsecureSiteData = refusal.New("Site data is never saved from an insecure browser (insecure accepts any certificate, so its cookies may come from an impostor).",
	"close_session, then open_session without insecure, sign in and call save_site_data.")

// Workspaces lists the caller's workspaces from the store.
func (m *Manager) Workspaces(ctx context.Context, principal string) ([]workspaces.Record, error) {
	if m.store == nil {
		return nil, nil
	}
	return m.store.List(ctx, principal)
}

// Workspace returns one of the caller's workspaces from the store.
func (m *Manager) Workspace(ctx context.Context, o Owner) (workspaces.Record, bool, error) {
	if m.store == nil {
		return workspaces.Record{}, false, nil
	}
	return m.store.Get(ctx, o.Principal, o.Workspace)
}

// ErrNoRecord is what EditWorkspace returns for a workspace the store
// does not keep.
var ErrNoRecord = errors.New("the store keeps no such workspace")

// EditWorkspace changes a workspace's record with fn from outside a page
// tool (the admin page forgetting site data). A browser this process holds
// keeps a copy of its record that later calls write back, so the change
// goes through that copy as update does; otherwise it is made in the
// store. When fn returns an error nothing is written.
func (m *Manager) EditWorkspace(ctx context.Context, o Owner, fn func(*workspaces.Record) error) error {
	if m.store == nil {
		return ErrNoRecord
	}
	if s := m.Peek(o); s != nil {
		return m.update(ctx, s, fn)
	}
	rec, ok, err := m.store.Get(ctx, o.Principal, o.Workspace)
	if err != nil {
		return err
	}
	if !ok {
		return ErrNoRecord
	}
	if err := fn(&rec); err != nil {
		return err
	}
	return m.store.Put(ctx, rec)
}
