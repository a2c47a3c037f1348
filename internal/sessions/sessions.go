// Package sessions keeps one browser session per caller. A caller's MCP
// transport sessions (several VS Code windows, a reconnecting client) all
// share it; it is closed after an idle timeout, and what it downloaded is
// kept in the caller's files.
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
	sessions map[string]*Session
	stop     chan struct{}
	stopped  sync.Once

	scrub *refusal.Scrubber // learns each driver's endpoint
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
	m := &Manager{files: store, idle: DefaultIdleTimeout, now: time.Now, sessions: map[string]*Session{}, stop: make(chan struct{})}
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
	Opened    time.Time

	driver   *browser.Driver // the endpoint the session runs on
	mu       sync.Mutex
	lastUsed time.Time
	busy     int             // calls running on it now; the idle reaper leaves it alone
	kept     map[string]bool // downloads already copied into kept files
	history  history         // the page actions, for draft_flow (history.go)
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
		return nil, fmt.Errorf("the browser endpoint could not be started (%w); check that chromedriver is installed or SELENIUM_URL points at a running Grid, then call open_session again", err)
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

// Open returns the caller's session, opening one when there is none. An
// open session is kept as it is (logins and all); reopened reports that.
func (m *Manager) Open(ctx context.Context, principal string, opts browser.SessionOptions) (s *Session, reopened bool, err error) {
	m.mu.Lock()
	if s := m.sessions[principal]; s != nil {
		m.mu.Unlock()
		s.touch(m.now())
		return s, true, nil
	}
	m.mu.Unlock()

	bs, d, err := m.newSession(ctx, opts)
	if err != nil {
		return nil, false, err
	}
	now := m.now()
	s = &Session{Session: bs, Principal: principal, Opened: now, lastUsed: now, kept: map[string]bool{}, driver: d}

	m.mu.Lock()
	defer m.mu.Unlock()
	if prev := m.sessions[principal]; prev != nil {
		// Another call opened one meanwhile: keep that one.
		_ = bs.Close()
		return prev, true, nil
	}
	m.sessions[principal] = s
	return s, false, nil
}

// ErrNoSession is the refusal for a page tool called with no open browser.
var ErrNoSession = refusal.New("No browser session is open for you.", "Call open_session (optionally with url) first; session://current shows the session's state.")

// Do runs fn on the caller's session and marks it used; with no session
// open it refuses with ErrNoSession. When fn fails because the browser no
// longer answers, the session is dropped, so the next open_session starts
// a fresh one: handlers need not know how a session dies.
func (m *Manager) Do(principal string, fn func(*Session) error) error {
	m.mu.Lock()
	s := m.sessions[principal]
	m.mu.Unlock()
	if s == nil {
		return ErrNoSession
	}
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
	m.gone(principal, s, err)
	return err
}

// idleSince reports when the session was last used, and false while a
// call is running on it.
func (s *Session) idleSince() (time.Time, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.lastUsed, s.busy == 0
}

// Peek returns the caller's session without marking it used.
func (m *Manager) Peek(principal string) *Session {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.sessions[principal]
}

// gone drops the caller's session s when err says its browser no longer
// answers; a session another call has replaced meanwhile stays.
func (m *Manager) gone(principal string, s *Session, err error) {
	if !errors.Is(err, browser.ErrSessionGone) {
		return
	}
	m.mu.Lock()
	if m.sessions[principal] == s {
		delete(m.sessions, principal)
	} else {
		s = nil
	}
	m.mu.Unlock()
	if s != nil {
		_ = s.Session.Close()
		m.closeRetired()
	}
}

// Close keeps the caller's downloads and closes the session. Closing when
// none is open is not an error: the state asked for holds.
func (m *Manager) Close(ctx context.Context, principal string) (bool, error) {
	m.mu.Lock()
	s := m.sessions[principal]
	delete(m.sessions, principal)
	m.mu.Unlock()
	if s == nil {
		return false, nil
	}
	_, _ = m.KeepDownloads(ctx, s)
	err := s.Session.Close()
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
	for p, s := range m.sessions {
		if last, free := s.idleSince(); free && now.Sub(last) >= m.idle {
			idle = append(idle, s)
			delete(m.sessions, p)
		}
	}
	m.mu.Unlock()
	for _, s := range idle {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, _ = m.KeepDownloads(ctx, s)
		cancel()
		_ = s.Session.Close()
	}
	if len(idle) > 0 {
		m.closeRetired()
	}
}

// Shutdown closes every session and the driver.
func (m *Manager) Shutdown() {
	m.stopped.Do(func() { close(m.stop) })
	m.mu.Lock()
	all := m.sessions
	m.sessions = map[string]*Session{}
	m.mu.Unlock()
	for _, s := range all {
		_ = s.Session.Close()
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
