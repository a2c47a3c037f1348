package attack_test

import (
	"net"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/server"
	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// TestBrowserCannotReachTheServer: a caller's browser tries the server's
// own HTTP port, the shared chromedriver (which lists every caller's
// session) and the cloud metadata address — by navigation, by a name
// that resolves to loopback and from a data: page's script.
// Each is refused with a sentence saying why; none of what those
// endpoints hold comes back; the caller's own local site still loads.
func TestBrowserCannotReachTheServer(t *testing.T) {
	servertest.NeedBrowser(t)
	site := fixtures.Serve(t)

	// The server's port is known before the server is built, as
	// `selenium-flow serve --http` does it.
	hs := httptest.NewUnstartedServer(nil)
	serverPort := hs.Listener.Addr().(*net.TCPAddr).Port
	srv := servertest.New(t, server.Config{ListenPorts: []int{serverPort}})
	hs.Config.Handler = srv.HTTPHandler()
	hs.Start()
	t.Cleanup(hs.Close)
	c := servertest.ConnectHTTP(t, hs.URL+"/mcp", servertest.Options{})

	servertest.CallOK(t, c, "open_session", map[string]any{"url": site + "/login"})
	driverPort := chromedriverPort(t)

	server := strconv.Itoa(serverPort)
	for _, u := range []string{
		"http://127.0.0.1:" + server + "/mcp",
		"http://localhost:" + server + "/openapi.json",
		"http://127.0.0.1:" + driverPort + "/sessions",
		"http://localhost:" + driverPort + "/status",
		"http://169.254.169.254/latest/meta-data/iam/",
	} {
		text := servertest.CallRefused(t, c, "navigate", map[string]any{"url": u}, "is closed to browsers")
		assert.Check(t, !strings.Contains(text, driverPort) || strings.Contains(u, driverPort), "the refusal names no other port: %s", text)
		page := servertest.CallOK(t, c, "read_text", nil)
		for _, leak := range []string{`"sessionId"`, `"ready"`, "jsonrpc", "openapi", "selenium-flow/mcp"} {
			assert.Check(t, !strings.Contains(page, leak), "%s: the page shows %q: %s", u, leak, page)
		}
	}

	// A page of the caller's own making tries from script.
	script := `<script>fetch("http://127.0.0.1:` + driverPort + `/sessions").then(r => r.text()).then(t => document.title = "got " + t.length, e => document.title = "failed")</script>`
	servertest.CallOK(t, c, "navigate", map[string]any{"url": "data:text/html," + script})
	testenv.Eventually(t, "the data: page's fetch to settle", func() bool {
		return strings.Contains(servertest.CallOK(t, c, "outline", nil), "failed")
	})

	// The caller's own site on loopback is unaffected.
	text := servertest.CallOK(t, c, "navigate", map[string]any{"url": strings.Replace(site, "127.0.0.1", "localhost", 1) + "/login"})
	assert.Check(t, is.Contains(text, "Sign in"))
}

// chromedriverPort is the port of the chromedriver the server started, a
// child of the test process.
func chromedriverPort(t *testing.T) string {
	t.Helper()
	for _, p := range testenv.Children() {
		cmd, _ := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/cmdline")
		for _, arg := range strings.Split(string(cmd), "\x00") {
			if port, ok := strings.CutPrefix(arg, "--port="); ok && strings.Contains(p.Name, "chromedriver") {
				return port
			}
		}
	}
	t.Fatal("no chromedriver child found")
	return ""
}
