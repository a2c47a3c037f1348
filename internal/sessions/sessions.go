// Package sessions keeps one browser session per workspace of a caller
// (Owner: the principal and the workspace it works in). A caller's MCP
// transport sessions (several VS Code windows, a reconnecting client) all
// share it; it is closed after an idle timeout, and what it downloaded is
// kept in the caller's files, which, like flows, belong to the principal
// and are shared by its workspaces.
//
// With a workspace store (WithStore) the browser outlives the process: each
// workspace's record says how its browser was opened and where it was, so
// the next call after a restart, on another replica, or after an idle or
// Grid close re-attaches to the live driver session or reopens the browser
// where it was, with its saved site data (workspace.go).
package sessions

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/refusal"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// DefaultIdleTimeout closes a session nobody used for this long.
const DefaultIdleTimeout = 15 * time.Minute

// Manager owns the WebDriver endpoint and every caller's session.
type Manager struct {
	driverOpts []browser.Option
	grid       bool // a Selenium URL is configured
	files      *files.Store
	idle       time.Duration
	now        func() time.Time

	// driverMu guards driver and retired. The driver is started on the
	// first open_session and replaced when a local one has died; a
	// replaced driver is closed once no session of it is left.
	driverMu sync.Mutex
	driver   *browser.Driver
	retired  []*browser.Driver

	mu       sync.Mutex
	sessions map[Owner]*Session
	store    workspaces.Store // nil: nothing outlives the process
	// recovering serialises the recovery of one workspace, so two calls
	// that find its browser gone open one, not two. Guarded by mu.
	recovering map[Owner]*sync.Mutex
	stop       chan struct{}
	stopped    sync.Once

	scrub *refusal.Scrubber // learns each driver's endpoint
	link  func(principal, name string) string

	// watchers hear of every open, close and use (inventory.go).
	watchMu  sync.Mutex
	watchers []chan struct{}
}

// Option configures a Manager.
type Option func(*Manager)

// WithDriverOptions passes options to browser.Start (endpoint, timeouts).
func WithDriverOptions(opts ...browser.Option) Option {
	return func(m *Manager) { m.driverOpts = append(m.driverOpts, opts...) }
}

// WithSeleniumURL opens sessions on the W3C endpoint at u, such as a
// Selenium Grid 4, instead of a local chromedriver; "" changes nothing.
// session://current names the Grid before the first session too.
func WithSeleniumURL(u string) Option {
	return func(m *Manager) {
		if u != "" {
			m.driverOpts = append(m.driverOpts, browser.WithSeleniumURL(u))
			m.grid = true
		}
	}
}

// WithScrubber hands the manager the server's scrubber, which learns the
// endpoint of every driver the manager starts so that no refusal shows it.
func WithScrubber(sc *refusal.Scrubber) Option {
	return func(m *Manager) { m.scrub = sc }
}

// WithLinks gives the manager what makes the link to a kept file (a
// signed URL the server answers); without it, or when it answers "",
// files are named by resource URI only, since nothing would answer a link.
func WithLinks(link func(principal, name string) string) Option {
	return func(m *Manager) { m.link = link }
}

// WithIdleTimeout sets how long an unused session lives.
func WithIdleTimeout(d time.Duration) Option {
	return func(m *Manager) {
		if d > 0 {
			m.idle = d
		}
	}
}

// New returns a manager that keeps files in store. The WebDriver endpoint
// is started on the first open_session, so a server that only serves
// knowledge never starts a driver.
func New(store *files.Store, opts ...Option) *Manager {
	m := &Manager{files: store, idle: DefaultIdleTimeout, now: time.Now, sessions: map[Owner]*Session{}, recovering: map[Owner]*sync.Mutex{}, stop: make(chan struct{})}
	for _, o := range opts {
		o(m)
	}
	if m.scrub == nil {
		m.scrub = refusal.NewScrubber()
	}
	go m.reap()
	return m
}

// Session is one caller's browser.
type Session struct {
	*browser.Session
	Principal string
	Workspace string
	Opened    time.Time

	driver   *browser.Driver // the endpoint the session runs on
	mu       sync.Mutex
	lastUsed time.Time
	url      string            // the page's URL when Inventory last asked
	busy     int               // calls running on it now; the idle reaper leaves it alone
	kept     map[string]bool   // downloads already copied into kept files
	rec      workspaces.Record // what the store holds of it, as last written
	// note is the one line the next result says about how the browser came
	// back (re-attached or reopened); taken once by TakeNote.
	note string
	// reopened: the browser was opened again after its earlier one ended.
	reopened bool
	history  history // the page actions, for draft_flow (history.go)
}

// LastUsed is when a tool last used the session.
func (s *Session) LastUsed() time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUsed
}

func (s *Session) touch(t time.Time) {
	s.mu.Lock()
	s.lastUsed = t
	s.mu.Unlock()
}

// startDriver returns the driver, starting it when there is none. A start
// that fails is tried again on the next call, as its refusal promises.
func (m *Manager) startDriver(ctx context.Context) (*browser.Driver, error) {
	m.driverMu.Lock()
	defer m.driverMu.Unlock()
	if m.driver != nil {
		return m.driver, nil
	}
	d, err := browser.Start(ctx, m.driverOpts...)
	if err != nil {
		// Unavailable: nothing the caller sent was wrong (HTTP 503).
		return nil, refusal.WithKind(refusal.Unavailable, fmt.Errorf("the browser endpoint could not be started (%w); check that chromedriver is installed or SELENIUM_URL points at a running Grid, then call open_session again", err))
	}
	m.scrub.Hide(d.Endpoint())
	m.driver = d
	return d, nil
}

// newSession opens a browser on the driver. When a local driver cannot
// open one (its chromedriver was killed or crashed), a fresh chromedriver
// is started and tried; only if that one opens the session does it replace
// the old driver, so a failure that is not the driver's (no browser binary)
// leaves everything as it was. Replacing holds driverMu, so concurrent
// opens agree on one fresh driver.
func (m *Manager) newSession(ctx context.Context, opts browser.SessionOptions) (*browser.Session, *browser.Driver, error) {
	d, err := m.startDriver(ctx)
	if err != nil {
		return nil, nil, err
	}
	bs, err := d.NewSession(ctx, opts)
	if err == nil {
		return bs, d, nil
	}
	if d.Remote() || ctx.Err() != nil {
		return nil, nil, openErr(err)
	}
	m.driverMu.Lock()
	if cur := m.driver; cur != d {
		// Another open replaced d meanwhile: use its driver.
		m.driverMu.Unlock()
		if cur == nil {
			return nil, nil, openErr(err)
		}
		if bs, err = cur.NewSession(ctx, opts); err != nil {
			return nil, nil, openErr(err)
		}
		return bs, cur, nil
	}
	fresh, ferr := browser.Start(ctx, m.driverOpts...)
	if ferr != nil {
		m.driverMu.Unlock()
		return nil, nil, openErr(err)
	}
	m.scrub.Hide(fresh.Endpoint())
	if bs, ferr = fresh.NewSession(ctx, opts); ferr != nil {
		m.driverMu.Unlock()
		_ = fresh.Close()
		// The fresh driver's reason is the one that holds now.
		return nil, nil, openErr(ferr)
	}
	m.driver = fresh
	m.retired = append(m.retired, d)
	m.driverMu.Unlock()
	m.closeRetired()
	return bs, fresh, nil
}

// openErr gives a failed open the next step.
func openErr(err error) error {
	return fmt.Errorf("%w. Call open_session again; if it keeps failing, read knowledge://documents/troubleshooting", err)
}

// closeRetired closes the replaced drivers no session runs on any more.
func (m *Manager) closeRetired() {
	m.mu.Lock()
	used := map[*browser.Driver]bool{}
	for _, s := range m.sessions {
		used[s.driver] = true
	}
	m.mu.Unlock()
	m.driverMu.Lock()
	var idle []*browser.Driver
	keep := m.retired[:0]
	for _, d := range m.retired {
		if used[d] {
			keep = append(keep, d)
		} else {
			idle = append(idle, d)
		}
	}
	m.retired = keep
	m.driverMu.Unlock()
	for _, d := range idle {
		_ = d.Close()
	}
}

// Open returns the workspace's browser, opening one when there is none.
// An open browser is kept as it is (logins and all), and so is one the
// workspace's record says is still open (re-attached on a Grid, reopened
// where it was otherwise); Opened says which. A new browser gets the
// workspace's saved site data unless restore is false.
func (m *Manager) Open(ctx context.Context, o Owner, opts browser.SessionOptions, restore bool) (*Session, Opened, error) {
	if s, how, err := m.find(ctx, o); err != nil || s != nil {
		return s, how, err
	}
	unlock := m.lockOwner(o)
	defer unlock()
	if s := m.Peek(o); s != nil {
		s.touch(m.now())
		return s, Opened{Kept: true}, nil
	}
	rec, _, err := m.load(ctx, o)
	if err != nil {
		return nil, Opened{}, err
	}
	bs, d, err := m.newSession(ctx, opts)
	if err != nil {
		return nil, Opened{}, err
	}
	how := Opened{}
	if rec.SiteData != nil && !opts.Insecure {
		if restore {
			if err := bs.RestoreSiteData(ctx, *rec.SiteData); err != nil {
				_ = bs.Close()
				return nil, Opened{}, openErr(err)
			}
			how.Restored = len(rec.SiteData.Hosts())
		} else {
			how.SkippedSiteData = true
		}
	}
	rec.NamedBy = workspaces.Workspace(ctx).How
	rec.Browser, rec.Window, rec.Insecure = bs.Browser(), bs.Window(), opts.Insecure
	rec.PageLoadTimeout, rec.ScriptTimeout = opts.PageLoadTimeout, opts.ScriptTimeout
	s := m.adopt(o, bs, d, rec)
	if err := m.save(ctx, s, true); err != nil {
		m.drop(o, s, true)
		return nil, Opened{}, err
	}
	return s, how, nil
}

// Opened says how Open found or made the browser.
type Opened struct {
	// Kept: a browser was open and is kept as it was.
	Kept bool
	// Back is the one line that says the browser was re-attached or
	// reopened; "" when it was not.
	Back string
	// Restored is how many sites' saved data a new browser was given.
	Restored int
	// SkippedSiteData: saved site data was left out (restore_site_data
	// false).
	SkippedSiteData bool
}

// find returns the workspace's live browser, or the one its record says is
// still open (re-attached or reopened); nil when neither is.
func (m *Manager) find(ctx context.Context, o Owner) (*Session, Opened, error) {
	if s := m.Peek(o); s != nil {
		s.touch(m.now())
		return s, Opened{Kept: true}, nil
	}
	s, err := m.recover(ctx, o)
	if err != nil || s == nil {
		return nil, Opened{}, err
	}
	return s, Opened{Kept: true, Back: s.peekNote()}, nil
}

// adopt makes bs the workspace's browser.
func (m *Manager) adopt(o Owner, bs *browser.Session, d *browser.Driver, rec workspaces.Record) *Session {
	now := m.now()
	s := &Session{Session: bs, Principal: o.Principal, Workspace: o.Workspace, Opened: now, lastUsed: now, kept: map[string]bool{}, driver: d, rec: rec}
	m.mu.Lock()
	prev := m.sessions[o]
	m.sessions[o] = s
	m.mu.Unlock()
	if prev != nil && prev != s {
		_ = prev.Session.Close()
	}
	m.changed()
	return s
}

// ErrNoSession is the refusal for a page tool called with no open browser.
var ErrNoSession = refusal.Of(refusal.Conflict, "No browser session is open in this workspace.", "Call open_session (optionally with url) first; session://current shows the session's state.")

// Do runs fn on the workspace's browser and marks it used. A browser the
// workspace's record says is open but this process does not hold (after a
// restart, on another replica, after an idle close or a Grid reap) is
// re-attached or reopened first; with none, it refuses with ErrNoSession.
// When fn finds the browser gone, the browser is reopened where it was and
// fn runs once more on it: the command that failed never reached a page.
// Session.TakeNote then says the browser came back.
func (m *Manager) Do(ctx context.Context, o Owner, fn func(*Session) error) error {
	s, _, err := m.find(ctx, o)
	if err != nil {
		return err
	}
	if s == nil {
		return ErrNoSession
	}
	err = m.run(ctx, s, fn)
	if !errors.Is(err, browser.ErrSessionGone) {
		return err
	}
	m.drop(o, s, false)
	again, rerr := m.recover(ctx, o)
	if rerr != nil || again == nil {
		return err
	}
	return m.run(ctx, again, fn)
}

// run is one call of fn on s: it counts as use from its start to its end,
// and the workspace's record follows where the browser went.
func (m *Manager) run(ctx context.Context, s *Session, fn func(*Session) error) error {
	s.mu.Lock()
	s.busy++
	s.lastUsed = m.now()
	s.mu.Unlock()
	err := fn(s)
	// A long call (a wait of minutes) counts as use until it ends, so the
	// idle timer starts from its end, not from its start.
	s.mu.Lock()
	s.busy--
	s.lastUsed = m.now()
	s.mu.Unlock()
	if !errors.Is(err, browser.ErrSessionGone) {
		if serr := m.save(ctx, s, false); serr != nil && err == nil {
			err = serr
		}
	}
	m.changed()
	return err
}

// idleSince reports when the session was last used, and false while a
// call is running on it.
func (s *Session) idleSince() (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUsed, s.busy == 0
}

// Len is how many callers have a browser open, for the open-browsers
// gauge of /metrics.
func (m *Manager) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.sessions)
}

// Peek returns the workspace's browser this process holds, without
// marking it used.
func (m *Manager) Peek(o Owner) *Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessions[o]
}

// drop forgets s as the workspace's browser (a session another call has
// replaced meanwhile stays) and ends it; quit false leaves the driver
// session alone (it no longer answers, or another process drives it).
func (m *Manager) drop(o Owner, s *Session, quit bool) {
	m.mu.Lock()
	if m.sessions[o] == s {
		delete(m.sessions, o)
	}
	m.mu.Unlock()
	if quit {
		_ = s.Session.Close()
	} else {
		_ = s.Session.Detach()
	}
	m.closeRetired()
}

// Close keeps the workspace's downloads, ends its browser and marks its
// record closed: only this gives the browser up for good. Closing when
// none is open is not an error: the state asked for holds.
func (m *Manager) Close(ctx context.Context, o Owner) (bool, error) {
	unlock := m.lockOwner(o)
	defer unlock()
	m.mu.Lock()
	s := m.sessions[o]
	delete(m.sessions, o)
	m.mu.Unlock()
	rec, found, err := m.load(ctx, o)
	if err != nil {
		return false, err
	}
	live := found && rec.State == workspaces.Live
	if s == nil && live && rec.Remote && rec.DriverSession != "" {
		// Another process opened it: end the driver session it left.
		if d, derr := m.startDriver(ctx); derr == nil && d.Remote() {
			if bs, aerr := d.Attach(ctx, rec.DriverSession, rec.Options()); aerr == nil {
				_ = bs.Close()
			}
		}
	}
	if found && m.store != nil {
		rec.State, rec.DriverSession = workspaces.Closed, ""
		if err := m.store.Put(ctx, rec); err != nil {
			return false, err
		}
	}
	if s == nil {
		return live, nil
	}
	defer m.changed()
	_, _ = m.KeepDownloads(ctx, s)
	err = s.Session.Close()
	m.closeRetired()
	return true, err
}

// Files returns the caller's kept files.
func (m *Manager) Files(principal string) (*files.Box, error) { return m.files.For(principal) }

// KeepDownloads copies the session's finished downloads into the caller's
// kept files (folder downloads), each once, and returns the ones it kept.
func (m *Manager) KeepDownloads(ctx context.Context, s *Session) ([]files.File, error) {
	return m.keepDownloads(ctx, s, true)
}

// keepDownloads is KeepDownloads; appear false does not wait for a
// download to start, only for one in flight to finish.
func (m *Manager) keepDownloads(ctx context.Context, s *Session, appear bool) ([]files.File, error) {
	box, err := m.files.For(s.Principal)
	if err != nil {
		return nil, err
	}
	list := s.FinishedDownloads
	if appear {
		list = s.Downloads
	}
	ds, err := list(ctx)
	if err != nil {
		return nil, err
	}
	var kept []files.File
	for _, d := range ds {
		s.mu.Lock()
		done := s.kept[d.Name]
		s.mu.Unlock()
		if done {
			continue
		}
		data, err := s.FetchDownload(ctx, d.Name)
		if err != nil {
			return kept, err
		}
		f, err := box.Keep(files.Downloads, d.Name, data)
		if err != nil {
			return kept, err
		}
		s.mu.Lock()
		s.kept[d.Name] = true
		s.mu.Unlock()
		kept = append(kept, f)
	}
	return kept, nil
}

// Ready reports whether the browser endpoint answers its /status: the
// Grid's, or the local chromedriver's (started when it is not yet, which
// opens no browser). GET /ready answers with it.
func (m *Manager) Ready(ctx context.Context) error {
	d, err := m.startDriver(ctx)
	if err != nil {
		return refusal.WithKind(refusal.Unavailable, errors.New("the browser endpoint could not be started; check that chromedriver is installed or SELENIUM_URL points at a running Grid"))
	}
	return refusal.WithKind(refusal.Unavailable, d.Ready(ctx))
}

// Remote reports whether sessions run on a remote endpoint (a Grid).
func (m *Manager) Remote() bool {
	if m.grid {
		return true
	}
	m.driverMu.Lock()
	defer m.driverMu.Unlock()
	return m.driver != nil && m.driver.Remote()
}

func (m *Manager) reap() {
	every := min(max(m.idle/4, time.Second), 30*time.Second)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-t.C:
			m.closeIdle()
		}
	}
}

func (m *Manager) closeIdle() {
	now := m.now()
	m.mu.Lock()
	var idle []*Session
	for o, s := range m.sessions {
		if last, free := s.idleSince(); free && now.Sub(last) >= m.idle {
			idle = append(idle, s)
			delete(m.sessions, o)
		}
	}
	m.mu.Unlock()
	for _, s := range idle {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		if m.usedElsewhere(ctx, s, now) {
			// Another replica drives this Grid browser: let go of it here
			// without ending it.
			_ = s.Session.Detach()
			cancel()
			continue
		}
		_, _ = m.KeepDownloads(ctx, s)
		_ = s.Session.Close()
		// The workspace stays open: its next call reopens the browser
		// where it was.
		m.forgetDriverSession(ctx, s)
		cancel()
	}
	if len(idle) > 0 {
		m.closeRetired()
		m.changed()
	}
}

// Shutdown lets go of every browser and closes the driver. A browser on a
// Grid is left running when its workspace is kept in a store, so that the
// next server process, or another replica, re-attaches to it; a local
// browser ends with its chromedriver and is reopened by the next call.
func (m *Manager) Shutdown() {
	m.stopped.Do(func() { close(m.stop) })
	m.mu.Lock()
	all := m.sessions
	m.sessions = map[Owner]*Session{}
	m.mu.Unlock()
	for _, s := range all {
		if m.store != nil && s.Remote() {
			_ = s.Session.Detach()
		} else {
			_ = s.Session.Close()
		}
	}
	m.driverMu.Lock()
	ds := append(m.retired, m.driver)
	m.driver, m.retired = nil, nil
	m.driverMu.Unlock()
	for _, d := range ds {
		if d != nil {
			_ = d.Close()
		}
	}
}
