package browser

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tebeka/selenium"

	"github.com/selenium-flow/selenium-flow/internal/egress"
)

// DefaultHTTPTimeout bounds every request to the WebDriver endpoint unless
// WithHTTPTimeout says otherwise.
const DefaultHTTPTimeout = 60 * time.Second

// DefaultChromium is the browser binary used for local sessions when it
// exists; otherwise chromedriver looks for a browser itself.
const DefaultChromium = "/usr/bin/chromium"

// Driver is a WebDriver endpoint on which sessions are opened. It is safe
// for concurrent use.
type Driver struct {
	base    string // endpoint URL without trailing slash; never shown
	remote  bool
	timeout time.Duration
	chrome  string   // local browser binary, "" to let chromedriver choose
	args    []string // extra browser arguments, after the package's own

	cmd    *exec.Cmd
	done   chan struct{}                             // closed when the chromedriver process has exited
	egress egress.Policy                             // what a local browser may connect to
	wrap   func(http.RoundTripper) http.RoundTripper // WithTransport's, or nil

	mu       sync.Mutex
	sessions map[*Session]struct{}
	closed   bool
}

type config struct {
	seleniumURL  string
	chromedriver string
	chromium     string
	timeout      time.Duration
	browserArgs  []string
	egress       egress.Policy
	wrap         func(http.RoundTripper) http.RoundTripper
}

// Option configures Start.
type Option func(*config)

// WithSeleniumURL makes the Driver use a running W3C WebDriver endpoint,
// such as a Selenium Grid 4 (for example "http://127.0.0.1:4444"), instead
// of starting chromedriver.
func WithSeleniumURL(u string) Option { return func(c *config) { c.seleniumURL = u } }

// WithChromedriver sets the chromedriver binary to start; by default
// "chromedriver" is looked up on PATH.
func WithChromedriver(path string) Option { return func(c *config) { c.chromedriver = path } }

// WithChromium sets the browser binary for local sessions; by default
// DefaultChromium when it exists.
func WithChromium(path string) Option { return func(c *config) { c.chromium = path } }

// WithHTTPTimeout bounds every request to the WebDriver endpoint; the
// default is DefaultHTTPTimeout.
func WithHTTPTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithBrowserArgs adds command-line arguments to every Chromium the Driver
// starts, after the package's own (a later argument of the same name wins).
// It suits settings of the environment rather than of the product, such as
// a closed test network's host-resolver rule ("MAP * ~NOTFOUND , EXCLUDE
// 127.0.0.1"). The
// arguments are sent to a remote endpoint too. Options given more than once
// add up.
func WithBrowserArgs(args ...string) Option {
	return func(c *config) { c.browserArgs = append(c.browserArgs, args...) }
}

// WithEgress sets what a local browser may connect to beyond the
// defaults (see package egress): the operator's deny and allow ranges and
// the server's own listening ports. The driver's and its browsers' ports
// are always protected. A remote endpoint's browsers are not on this
// machine: their network is the Grid operator's.
func WithEgress(p egress.Policy) Option { return func(c *config) { c.egress = p } }

// WithTransport wraps the HTTP transport of every WebDriver command sent
// to this Driver's endpoint (its sessions' included), for the server's
// metrics and traces (package telemetry). The wrapped transport already
// bounds each request by the Driver's timeouts.
func WithTransport(wrap func(http.RoundTripper) http.RoundTripper) Option {
	return func(c *config) { c.wrap = wrap }
}

// Start returns a Driver: the endpoint given by WithSeleniumURL after
// checking that it is ready, or else a chromedriver started on a free
// loopback port in its own process group.
func Start(ctx context.Context, opts ...Option) (*Driver, error) {
	c := config{timeout: DefaultHTTPTimeout}
	for _, o := range opts {
		o(&c)
	}
	if c.timeout <= 0 {
		c.timeout = DefaultHTTPTimeout
	}
	installTransport()
	d := &Driver{timeout: c.timeout, sessions: map[*Session]struct{}{}, args: append([]string(nil), c.browserArgs...), wrap: c.wrap}
	if c.seleniumURL != "" {
		u, err := url.Parse(c.seleniumURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return nil, errors.New("browser: the Selenium URL is not a valid http or https URL")
		}
		d.base = strings.TrimRight(u.String(), "/")
		d.remote = true
		setTimeout(d.base, d.timeout)
		setTransport(d.base, d.wrap)
		wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		if err := d.waitReady(wctx, nil); err != nil {
			forgetTimeout(d.base)
			forgetTransport(d.base)
			return nil, fmt.Errorf("browser: the Selenium endpoint is not ready: %w", err)
		}
		return d, nil
	}

	bin := c.chromedriver
	if bin == "" {
		bin = "chromedriver"
	}
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, errors.New("browser: chromedriver was not found; install it, put it on PATH or name it with WithChromedriver")
	}
	d.chrome = c.chromium
	if d.chrome == "" {
		if fi, err := os.Stat(DefaultChromium); err == nil && !fi.IsDir() {
			d.chrome = DefaultChromium
		}
	}
	reapLeftovers()
	d.egress = c.egress
	d.egress.Protected = d.protected
	d.egress.HostRules = egress.HostRulesFrom(d.args)
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		if err := d.spawn(ctx, path); err != nil {
			lastErr = err
			if ctx.Err() != nil {
				break
			}
			continue
		}
		return d, nil
	}
	return nil, fmt.Errorf("browser: chromedriver did not start: %w", lastErr)
}

// spawn starts chromedriver on a free port and waits until it is ready.
func (d *Driver) spawn(ctx context.Context, path string) error {
	port, err := freePort()
	if err != nil {
		return errors.New("no free loopback port")
	}
	cmd := exec.Command(path, "--port="+strconv.Itoa(port), "--log-level=OFF")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = nil, nil, nil
	cmd.Env = append(os.Environ(), ownerMark())
	cmd.SysProcAttr = procAttr()
	if err := cmd.Start(); err != nil {
		return errors.New("the chromedriver binary could not be run")
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	d.mu.Lock()
	d.cmd, d.done = cmd, done
	d.base = "http://127.0.0.1:" + strconv.Itoa(port)
	d.mu.Unlock()
	setTimeout(d.base, d.timeout)
	setTransport(d.base, d.wrap)
	wctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := d.waitReady(wctx, done); err != nil {
		d.kill()
		forgetTimeout(d.base)
		forgetTransport(d.base)
		return err
	}
	return nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitReady polls GET /status until the endpoint reports ready.
func (d *Driver) waitReady(ctx context.Context, exited <-chan struct{}) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		ready, err := d.status(ctx)
		if ready {
			return nil
		}
		if d.remote && err != nil && ctx.Err() == nil {
			// A remote endpoint that answers "not ready" is worth waiting
			// for; one that does not answer, or not as WebDriver, is
			// reported at once.
			var se *statusError
			if !errors.As(err, &se) {
				return errors.New("it did not answer")
			}
			if se.notWebDriver {
				return errors.New("it does not answer as a WebDriver endpoint")
			}
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return fmt.Errorf("it did not become ready in time: %w", ErrTimeout)
			}
			return ctx.Err()
		case <-exited:
			return errors.New("the process exited")
		case <-tick.C:
		}
	}
}

type statusError struct{ notWebDriver bool }

func (e *statusError) Error() string {
	if e.notWebDriver {
		return "not a WebDriver endpoint"
	}
	return "not ready"
}

func (d *Driver) status(ctx context.Context) (bool, error) {
	rctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(rctx, http.MethodGet, d.base+"/status", nil)
	if err != nil {
		return false, err
	}
	resp, err := selenium.HTTPClient.Do(req)
	if err != nil {
		return false, err
	}
	defer resp.Body.Close()
	var st struct {
		Value *struct {
			Ready *bool `json:"ready"`
		} `json:"value"`
	}
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := json.Unmarshal(body, &st); err != nil || st.Value == nil || st.Value.Ready == nil {
		return false, &statusError{notWebDriver: true}
	}
	if !*st.Value.Ready {
		return false, &statusError{}
	}
	return true, nil
}

// Ready asks the endpoint's /status whether it can open sessions, without
// opening one; the error never names the endpoint's address.
func (d *Driver) Ready(ctx context.Context) error {
	if _, err := d.status(ctx); err != nil {
		var se *statusError
		if errors.As(err, &se) {
			return fmt.Errorf("the browser endpoint is %s", se)
		}
		return errors.New("the browser endpoint does not answer")
	}
	return nil
}

// Remote reports whether the Driver uses an endpoint given by URL (such as
// a Selenium Grid) rather than a chromedriver it started.
func (d *Driver) Remote() bool { return d.remote }

// Endpoint is the WebDriver URL the driver talks to. It is internal: a
// caller is never shown it, and the server hides it in every refusal.
func (d *Driver) Endpoint() string { return d.base }

// Close ends every session still open on the Driver and, for a local
// Driver, stops chromedriver and every process in its group.
func (d *Driver) Close() error {
	d.mu.Lock()
	if d.closed {
		d.mu.Unlock()
		return nil
	}
	d.closed = true
	var open []*Session
	for s := range d.sessions {
		open = append(open, s)
	}
	d.mu.Unlock()
	for _, s := range open {
		s.Close()
	}
	if !d.remote {
		d.kill()
	}
	forgetTimeout(d.base)
	forgetTransport(d.base)
	return nil
}

// protected reports a port of this machine that the driver or one of its
// browsers listens on (the driver's port, every DevTools port): no page
// may reach them.
func (d *Driver) protected(port int) bool {
	d.mu.Lock()
	cmd, base := d.cmd, d.base
	d.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return false
	}
	if strings.HasSuffix(base, ":"+strconv.Itoa(port)) {
		return true
	}
	return listensInGroup(cmd.Process.Pid, port)
}

// kill stops the chromedriver process group: SIGTERM, then SIGKILL for
// whatever is left (Chromium processes included).
func (d *Driver) kill() {
	if d.cmd == nil || d.cmd.Process == nil {
		return
	}
	pgid := d.cmd.Process.Pid
	syscall.Kill(-pgid, syscall.SIGTERM)
	select {
	case <-d.done:
	case <-time.After(3 * time.Second):
	}
	syscall.Kill(-pgid, syscall.SIGKILL)
	<-d.done
}

func (d *Driver) add(s *Session) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return errors.New("browser: the driver is closed")
	}
	d.sessions[s] = struct{}{}
	return nil
}

func (d *Driver) remove(s *Session) {
	d.mu.Lock()
	delete(d.sessions, s)
	d.mu.Unlock()
}

// ---- HTTP transport with per-endpoint timeouts -----------------------------

var transportOnce sync.Once

// installTransport points the WebDriver client at a transport that bounds
// each request by the timeout of the Driver it is addressed to. The client
// variable is set once, so Drivers with different timeouts can coexist.
func installTransport() {
	transportOnce.Do(func() {
		selenium.HTTPClient = &http.Client{Transport: timeoutTransport{next: http.DefaultTransport}}
	})
}

// byEndpoint holds a value per endpoint base URL (a Driver's, a session's)
// and finds a request's by the longest base its URL is under. The WebDriver
// client is one variable of the selenium package, so what differs per
// Driver is looked up here by the URL a request goes to.
type byEndpoint[T any] struct {
	mu sync.RWMutex
	m  map[string]T
}

func (b *byEndpoint[T]) set(base string, v T) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[string]T{}
	}
	b.m[base] = v
}

func (b *byEndpoint[T]) forget(base string) {
	b.mu.Lock()
	delete(b.m, base)
	b.mu.Unlock()
}

// lookup is the value of the longest base u is at or under; a base is
// matched whole (http://h:1 is not under http://h:12).
func (b *byEndpoint[T]) lookup(u *url.URL) (v T, ok bool) {
	s := u.String()
	b.mu.RLock()
	defer b.mu.RUnlock()
	n := 0
	for base, bv := range b.m {
		if (s == base || strings.HasPrefix(s, base+"/")) && len(base) > n {
			v, ok, n = bv, true, len(base)
		}
	}
	return v, ok
}

var (
	timeouts byEndpoint[time.Duration]     // endpoint base URL -> timeout
	wrapped  byEndpoint[http.RoundTripper] // Driver endpoint -> WithTransport's transport
)

func setTimeout(base string, d time.Duration) { timeouts.set(base, d) }

func forgetTimeout(base string) { timeouts.forget(base) }

func timeoutFor(u *url.URL) time.Duration {
	if d, ok := timeouts.lookup(u); ok {
		return d
	}
	return DefaultHTTPTimeout
}

func setTransport(base string, wrap func(http.RoundTripper) http.RoundTripper) {
	if wrap != nil {
		wrapped.set(base, wrap(timeoutTransport{next: http.DefaultTransport, inner: true}))
	}
}

func forgetTransport(base string) { wrapped.forget(base) }

func wrappedFor(u *url.URL) http.RoundTripper {
	rt, _ := wrapped.lookup(u)
	return rt
}

// timeoutTransport bounds each request by its endpoint's timeout; the
// outer one (the client's) hands a request to the endpoint's wrapped
// transport when it has one, which ends in an inner timeoutTransport.
type timeoutTransport struct {
	next  http.RoundTripper
	inner bool
}

func (t timeoutTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if resp, ok := attachReply(r); ok {
		return resp, nil
	}
	if !t.inner {
		if rt := wrappedFor(r.URL); rt != nil {
			return rt.RoundTrip(r)
		}
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeoutFor(r.URL))
	resp, err := t.next.RoundTrip(r.WithContext(ctx))
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelBody{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

type cancelBody struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (b *cancelBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
