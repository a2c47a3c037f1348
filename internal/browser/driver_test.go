package browser

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tebeka/selenium"
	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

func waitGroupGone(t *testing.T, pgid int) {
	t.Helper()
	if !testenv.Poll(testenv.Deadline(t, time.Minute), func() bool { return len(testenv.GroupProcesses(pgid)) == 0 }) {
		t.Fatalf("processes %v of group %d are still running", testenv.GroupProcesses(pgid), pgid)
	}
}

// driverRequests counts the requests made to the WebDriver endpoint at
// base while it runs, through the WebDriver client's HTTP client.
func driverRequests(t *testing.T, base string) *atomic.Int64 {
	t.Helper()
	var n atomic.Int64
	prev := selenium.HTTPClient
	next := prev.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	c := *prev
	c.Transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if strings.HasPrefix(r.URL.String(), base) {
			n.Add(1)
		}
		return next.RoundTrip(r)
	})
	selenium.HTTPClient = &c
	t.Cleanup(func() { selenium.HTTPClient = prev })
	return &n
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// assertClean checks that an error tells nothing about the endpoint, the
// server's files or what was typed.
func assertClean(t *testing.T, err error, d *Driver, secrets ...string) {
	t.Helper()
	assert.Assert(t, err != nil)
	msg := err.Error()
	u, perr := url.Parse(d.base)
	assert.NilError(t, perr)
	for _, bad := range append([]string{"127.0.0.1", "localhost", ":" + u.Port(), u.Port(), "/tmp", os.TempDir(), "http://", "session/", "chromedriver", "stacktrace"}, secrets...) {
		assert.Assert(t, !strings.Contains(msg, bad), "error %q contains %q", msg, bad)
	}
}

// afterDeath runs every kind of call on a session whose driver or browser
// has died and checks that each fails with a clean ErrSessionGone: the
// first from the driver, every later one at once, without a request to
// the driver (counted, so a loaded machine cannot fail it by being slow).
func afterDeath(t *testing.T, d *Driver, s *Session, secret string) {
	t.Helper()
	ctx := testenv.Context(t)
	requests := driverRequests(t, d.base)
	calls := []struct {
		name string
		call func() error
	}{
		{"write", func() error { return s.Write(Locator{Label: "Password"}, secret, true) }},
		{"navigate", func() error { return s.Navigate(page("/login")) }},
		{"click", func() error { return s.Click(Locator{Role: "button", Name: "Sign in"}) }},
		{"outline", func() error { _, err := s.Outline(nil); return err }},
		{"title", func() error { _, err := s.Title(); return err }},
		{"url", func() error { _, err := s.CurrentURL(); return err }},
		{"html", func() error { _, err := s.PageHTML(); return err }},
		{"key", func() error { return s.PressKey("Enter") }},
		{"select", func() error { return s.Select(Locator{Label: "Size"}, "Large") }},
		{"screenshot", func() error { _, err := s.Screenshot(nil, true); return err }},
		{"print", func() error { _, err := s.PrintPDF(PrintOptions{}); return err }},
		{"wait", func() error { return s.WaitFor(ctx, Condition{Text: "x"}, time.Second) }},
		{"assert", func() error { return s.Assert(Assertion{TextPresent: "x"}) }},
		{"count", func() error { _, err := s.Count(Locator{CSS: "a"}); return err }},
		{"back", s.Back},
		{"downloads", func() error { _, err := s.Downloads(ctx); return err }},
	}
	for i, c := range calls {
		before := requests.Load()
		err := c.call()
		assert.Assert(t, errors.Is(err, ErrSessionGone), "%s: %v", c.name, err)
		assertClean(t, err, d, secret)
		if i == 0 {
			t.Logf("first error: %v", err)
			assert.ErrorContains(t, err, "the browser session ended: the driver stopped responding; open a new session with open_session")
		} else {
			assert.Assert(t, is.Equal(requests.Load()-before, int64(0)), "%s: a gone session should fail at once, without asking the driver", c.name)
		}
	}
}

// TestDriverDeathErrorHygiene kills the browser, and then chromedriver's
// whole process group, in the middle of sessions. Every wait is bounded by
// the test's deadline: on a loaded machine chromedriver may take long to
// notice that its browser died, and that is not what is tested.
func TestDriverDeathErrorHygiene(t *testing.T) {
	needChromedriver(t)
	ctx := testenv.Context(t)
	d, err := Start(ctx, WithHTTPTimeout(testenv.Remaining(t)))
	assert.NilError(t, err)
	defer d.Close()
	assert.Assert(t, !d.Remote())
	pgid := d.cmd.Process.Pid
	const secret = "correct-horse-battery-staple"

	t.Run("browser killed", func(t *testing.T) {
		s, err := d.NewSession(ctx, SessionOptions{})
		assert.NilError(t, err)
		assert.NilError(t, s.Navigate(page("/login")))
		assert.NilError(t, s.Write(Locator{Label: "Password"}, secret, false))
		var killed []int
		for _, pid := range testenv.GroupProcesses(pgid) {
			if pid != pgid {
				syscall.Kill(pid, syscall.SIGKILL)
				killed = append(killed, pid)
			}
		}
		assert.Assert(t, len(killed) > 0, "no browser processes found")
		testenv.Eventually(t, "the browser processes to die", func() bool {
			return slices.Equal(testenv.GroupProcesses(pgid), []int{pgid})
		})
		afterDeath(t, d, s, secret)
		tmp := s.tmpDir
		assert.NilError(t, s.Close())
		_, err = os.Stat(tmp)
		assert.Assert(t, errors.Is(err, os.ErrNotExist))
	})

	t.Run("driver group killed", func(t *testing.T) {
		s, err := d.NewSession(ctx, SessionOptions{})
		assert.NilError(t, err)
		assert.NilError(t, s.Navigate(page("/controls")))
		tmp := s.tmpDir
		syscall.Kill(-pgid, syscall.SIGKILL)
		select {
		case <-d.done:
		case <-ctx.Done():
			t.Fatalf("chromedriver did not exit after SIGKILL")
		}
		afterDeath(t, d, s, secret)
		assert.NilError(t, s.Close())
		_, err = os.Stat(tmp)
		assert.Assert(t, errors.Is(err, os.ErrNotExist))
		waitGroupGone(t, pgid)

		_, err = d.NewSession(ctx, SessionOptions{})
		assert.Assert(t, err != nil)
		assertClean(t, err, d)
	})
}

// TestDriverCloseStopsChromium checks that closing a Driver ends its
// sessions, removes their profiles and leaves no process of its group.
func TestDriverCloseStopsChromium(t *testing.T) {
	needChromedriver(t)
	ctx := testenv.Context(t)
	d, err := Start(ctx)
	assert.NilError(t, err)
	s, err := d.NewSession(ctx, SessionOptions{})
	assert.NilError(t, err)
	assert.NilError(t, s.Navigate(page("/article")))
	pgid := d.cmd.Process.Pid
	procs := testenv.GroupProcesses(pgid)
	assert.Assert(t, len(procs) > 2, "expected chromedriver and Chromium processes in the group, got %v", procs)
	tmp := s.tmpDir

	assert.NilError(t, d.Close())
	assert.NilError(t, d.Close())
	waitGroupGone(t, pgid)
	_, err = os.Stat(tmp)
	assert.Assert(t, errors.Is(err, os.ErrNotExist), "profile left behind")
	_, err = d.NewSession(ctx, SessionOptions{})
	assert.ErrorContains(t, err, "the driver is closed")
	err = s.Navigate(page("/login"))
	assert.ErrorContains(t, err, "closed")
}

// TestDefaultsResolveHostNames: a Driver started without options gives
// Chromium no resolver rules, so host names resolve as the machine
// resolves them (here localhost, the fixture site's other name).
func TestDefaultsResolveHostNames(t *testing.T) {
	needChromedriver(t)
	ctx := context.Background()
	d, err := Start(ctx)
	assert.NilError(t, err)
	defer d.Close()
	assert.Check(t, len(d.args) == 0)
	s, err := d.NewSession(ctx, SessionOptions{})
	assert.NilError(t, err)
	assert.NilError(t, s.Navigate(localhostPage("/login")))
	title, err := s.Title()
	assert.NilError(t, err)
	assert.Equal(t, title, "Sign in · Acme")
}

func TestStartErrors(t *testing.T) {
	ctx := context.Background()
	_, err := Start(ctx, WithChromedriver("/nonexistent/chromedriver"))
	assert.ErrorContains(t, err, "chromedriver was not found")
	assert.Assert(t, !strings.Contains(err.Error(), "/nonexistent"))

	_, err = Start(ctx, WithSeleniumURL("ftp://grid"))
	assert.ErrorContains(t, err, "not a valid http or https URL")

	// Nothing listens there: the error does not name the address.
	port, err := freePort()
	assert.NilError(t, err)
	addr := "http://127.0.0.1:" + strconv.Itoa(port)
	_, err = Start(ctx, WithSeleniumURL(addr))
	assert.ErrorContains(t, err, "the Selenium endpoint is not ready")
	assert.Assert(t, !strings.Contains(err.Error(), strconv.Itoa(port)))
	assert.Assert(t, !strings.Contains(err.Error(), "127.0.0.1"))

	// An endpoint that is not WebDriver at all.
	_, err = Start(ctx, WithSeleniumURL(site.URL))
	assert.Assert(t, err != nil)
	assert.Assert(t, !strings.Contains(err.Error(), "127.0.0.1"), err.Error())
}

func TestTimeoutTransport(t *testing.T) {
	setTimeout("http://127.0.0.1:1", time.Second)
	setTimeout("http://127.0.0.1:1/wd/hub", 2*time.Second)
	defer forgetTimeout("http://127.0.0.1:1")
	defer forgetTimeout("http://127.0.0.1:1/wd/hub")
	for u, want := range map[string]time.Duration{
		"http://127.0.0.1:1/session/x":        time.Second,
		"http://127.0.0.1:1/wd/hub/session/x": 2 * time.Second,
		"http://127.0.0.1:2/session/x":        DefaultHTTPTimeout,
		"http://127.0.0.1:12/session/x":       DefaultHTTPTimeout, // not under http://127.0.0.1:1
		"http://127.0.0.1:1/wd/hub":           2 * time.Second,
	} {
		pu, _ := url.Parse(u)
		assert.Equal(t, timeoutFor(pu), want, u)
	}
}

// fakeEndpoint is a W3C endpoint that is always ready and answers new
// session requests with newSession.
func fakeEndpoint(t *testing.T, newSession http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("GET /status", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"value":{"ready":true,"message":"ready"}}`)
	})
	mux.HandleFunc("POST /session", newSession)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

func TestEndpointFailuresAreClean(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name    string
		handler http.HandlerFunc
		opts    []Option
		want    string
	}{
		{
			name: "hangs past the HTTP timeout",
			handler: func(w http.ResponseWriter, r *http.Request) {
				// Until the client gives up, which the server hears once
				// the body is read.
				_, _ = io.Copy(io.Discard, r.Body)
				<-r.Context().Done()
			},
			opts: []Option{WithHTTPTimeout(300 * time.Millisecond)},
			want: "browser: open session: the browser did not answer in time: timed out",
		},
		{
			name: "session not created without an error",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, `{"value":{"capabilities":{"browserName":"chrome"}}}`)
			},
			want: "browser: open session: the browser could not be started (session not created)",
		},
		{
			name: "session not created with details",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, `{"value":{"error":"session not created","message":"Could not start a new session. Error while creating session with the driver service. Stopping driver service: Could not start a new session. Response code 500. Message: unknown error: Chrome failed to start: exited normally. (chrome not reachable) The process started from chrome location /opt/chrome/chrome is no longer running, so ChromeDriver is assuming that Chrome has crashed. Host info: host: 'node-7', ip: '10.1.2.3' Build info: version: '4.48.0' Driver info: driver.version: unknown","stacktrace":"org.openqa.selenium.SessionNotCreatedException at http://10.1.2.3:5555/"}}`)
			},
			want: "browser: open session: the browser could not be started",
		},
		{
			name: "no node for the browser",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusInternalServerError)
				io.WriteString(w, `{"value":{"error":"session not created","message":"Could not start a new session. No nodes support the capabilities in the request","stacktrace":""}}`)
			},
			want: "browser: open session: the browser could not be started: the endpoint has no node that offers this browser",
		},
		{
			name: "not JSON",
			handler: func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(http.StatusBadGateway)
				io.WriteString(w, "<html>502 Bad Gateway from proxy.internal:8080</html>")
			},
			want: "browser: open session: the driver sent an unexpected reply",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeEndpoint(t, tc.handler)
			d, err := Start(ctx, append([]Option{WithSeleniumURL(srv.URL + "/")}, tc.opts...)...)
			assert.NilError(t, err)
			defer d.Close()
			start := time.Now()
			_, err = d.NewSession(ctx, SessionOptions{})
			assert.ErrorContains(t, err, tc.want)
			assert.Assert(t, time.Since(start) < 2500*time.Millisecond)
			assertClean(t, err, d, "/opt/chrome", "10.1.2.3", "node-7", "proxy.internal")
		})
	}
}
