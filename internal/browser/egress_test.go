package browser

import (
	"net/url"
	"os"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

// TestBrowserCannotReachTheServer plays a caller whose page tries the
// driver's port, its own browser's DevTools port and the cloud metadata
// address, by name and by address: each is refused by the browser's proxy
// with a page saying why, while the fixture site on the same loopback
// address loads as usual.
func TestBrowserCannotReachTheServer(t *testing.T) {
	s := shared(t)
	driver, err := url.Parse(s.d.base)
	assert.NilError(t, err)
	devtools := devtoolsPort(t, s)

	blocked := []string{
		"http://127.0.0.1:" + driver.Port() + "/sessions",
		"http://localhost:" + driver.Port() + "/status",
		"http://127.0.0.1:" + strconv.Itoa(devtools) + "/json/list",
		"http://[::ffff:127.0.0.1]:" + strconv.Itoa(devtools) + "/json/version",
		"http://169.254.169.254/latest/meta-data/",
	}
	for _, u := range blocked {
		assert.Check(t, is.ErrorContains(s.Navigate(u), "is closed to browsers"), u)
		html, err := s.PageHTML()
		assert.NilError(t, err)
		assert.Check(t, is.Contains(html, "is closed to browsers"), u)
		assert.Check(t, !strings.Contains(html, `"sessionId"`) && !strings.Contains(html, "webSocketDebuggerUrl") && !strings.Contains(html, `"ready"`), u)
	}

	// A page of the caller's fetching the driver from script fares no
	// better: the request fails.
	assert.NilError(t, s.Navigate(page("/login")))
	got, err := s.wd.ExecuteScriptAsync(`const done = arguments[arguments.length-1];
fetch(arguments[0]).then(r => r.text()).then(done, e => done("failed: " + e))`, []any{"http://127.0.0.1:" + driver.Port() + "/status"})
	assert.NilError(t, err)
	assert.Check(t, !strings.Contains(got.(string), `"ready"`), got)

	// The fixture site, on loopback too, is reached.
	assert.NilError(t, s.Navigate(localhostPage("/login")))
	title, err := s.Title()
	assert.NilError(t, err)
	assert.Check(t, title != "Blocked", title)
}

// devtoolsPort finds the DevTools port of the session's Chromium: a port
// its driver's process group listens on that is not the driver's.
func devtoolsPort(t *testing.T, s *Session) int {
	t.Helper()
	driver, _ := url.Parse(s.d.base)
	tables, _ := os.ReadFile("/proc/net/tcp")
	tables6, _ := os.ReadFile("/proc/net/tcp6")
	for _, line := range strings.Split(string(tables)+string(tables6), "\n") {
		f := strings.Fields(line)
		if len(f) < 4 || f[3] != "0A" {
			continue
		}
		_, hexPort, _ := strings.Cut(f[1], ":")
		port, err := strconv.ParseInt(hexPort, 16, 32)
		if err == nil && strconv.Itoa(int(port)) != driver.Port() && listensInGroup(s.d.cmd.Process.Pid, int(port)) {
			return int(port)
		}
	}
	t.Fatal("no DevTools port found")
	return 0
}
