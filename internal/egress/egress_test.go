package egress

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"
)

func TestPolicyCheck(t *testing.T) {
	own := netip.MustParseAddr("10.1.2.3")
	local := func(a netip.Addr) bool { return a == own || a.IsUnspecified() }
	p := Policy{
		Ports:     []int{4444},
		Protected: func(port int) bool { return port == 9222 },
		Deny:      []netip.Prefix{netip.MustParsePrefix("192.168.50.0/24")},
		Allow:     []netip.Prefix{netip.MustParsePrefix("169.254.10.0/24")},
	}
	cases := []struct {
		addr    string
		refused string // "" when allowed
	}{
		{"127.0.0.1:8080", ""},                      // a developer's local app
		{"127.0.0.1:4444", "belongs to the server"}, // a port known in advance
		{"127.0.0.2:9222", "belongs to the server"}, // any loopback address
		{"[::1]:9222", "belongs to the server"},     // IPv6 loopback
		{"[::ffff:127.0.0.1]:9222", "belongs to the server"},
		{"10.1.2.3:9222", "belongs to the server"}, // this machine's own address
		{"0.0.0.0:4444", "belongs to the server"},  // the unspecified address reaches this machine
		{"10.1.2.4:9222", ""},                      // another machine's port
		{"169.254.169.254:80", "link-local or metadata"},
		{"[fe80::1]:80", "link-local or metadata"},
		{"[fd00:ec2::254]:80", "link-local or metadata"},
		{"169.254.10.7:80", ""}, // allowed by the operator
		{"192.168.50.9:443", "deny list"},
		{"93.184.215.14:443", ""},
	}
	for _, c := range cases {
		err := p.check(netip.MustParseAddrPort(c.addr), local)
		if c.refused == "" {
			assert.Check(t, err, c.addr)
			continue
		}
		assert.Check(t, is.ErrorContains(err, c.refused), c.addr)
		assert.Check(t, is.ErrorIs(err, ErrRefused), c.addr)
	}
}

func TestParseRanges(t *testing.T) {
	got, err := ParseRanges(" 10.0.0.0/8, 192.168.1.7 ,,fd00::/8")
	assert.NilError(t, err)
	assert.DeepEqual(t, fmt.Sprint(got), "[10.0.0.0/8 192.168.1.7/32 fd00::/8]")
	_, err = ParseRanges("10.0.0.0/8, intranet")
	assert.ErrorContains(t, err, `"intranet" is neither an address nor a CIDR range`)
}

// TestProxy drives the proxy as Chromium does: plain HTTP in absolute
// form and CONNECT tunnels, to a site it may reach and to a port it must
// not.
func TestProxy(t *testing.T) {
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s", r.URL.Path)
	}))
	defer site.Close()
	secret := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "the driver's sessions")
	}))
	defer secret.Close()
	secretPort := portNumber(t, secret.URL)

	x, err := Listen(Policy{Ports: []int{secretPort}})
	assert.NilError(t, err)
	defer x.Close()
	proxyURL, _ := url.Parse("http://" + x.Addr())
	client := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}

	body, status := get(t, client, site.URL+"/page")
	assert.Equal(t, status, 200)
	assert.Equal(t, body, "hello from /page")

	for _, u := range []string{secret.URL + "/sessions", strings.Replace(secret.URL, "127.0.0.1", "localhost", 1) + "/sessions"} {
		body, status = get(t, client, u)
		assert.Equal(t, status, http.StatusForbidden, u)
		assert.Check(t, is.Contains(body, "net::ERR_BLOCKED_BY_ADMINISTRATOR"))
		assert.Check(t, !strings.Contains(body, "driver's sessions"))
	}
	f, ok := x.Failure(net.JoinHostPort("127.0.0.1", fmt.Sprint(secretPort)), time.Time{})
	assert.Assert(t, ok)
	assert.Check(t, f.Refused)

	// The proxy's own port is closed too.
	_, status = get(t, client, "http://"+x.Addr()+"/")
	assert.Equal(t, status, http.StatusForbidden)

	// CONNECT: a tunnel to the site carries bytes; one to the secret port
	// is refused before any byte reaches it.
	assert.Equal(t, connect(t, x.Addr(), strings.TrimPrefix(site.URL, "http://")), "HTTP/1.1 200 Connection Established")
	assert.Equal(t, connect(t, x.Addr(), strings.TrimPrefix(secret.URL, "http://")), "HTTP/1.1 403 Forbidden")

	// Nothing listens: the failure is named as Chromium would name it.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := ln.Addr().String()
	ln.Close()
	body, status = get(t, client, "http://"+closed+"/")
	assert.Equal(t, status, http.StatusBadGateway)
	assert.Check(t, is.Contains(body, "net::ERR_CONNECTION_REFUSED"))
}

func get(t *testing.T, c *http.Client, u string) (string, int) {
	t.Helper()
	resp, err := c.Get(u)
	assert.NilError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b), resp.StatusCode
}

// connect asks the proxy for a tunnel and returns its status line.
func connect(t *testing.T, proxy, target string) string {
	t.Helper()
	c, err := net.Dial("tcp", proxy)
	assert.NilError(t, err)
	defer c.Close()
	fmt.Fprintf(c, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
	line, err := bufio.NewReader(c).ReadString('\n')
	assert.NilError(t, err)
	return strings.TrimSpace(line)
}

func portNumber(t *testing.T, u string) int {
	t.Helper()
	p, err := url.Parse(u)
	assert.NilError(t, err)
	var n int
	fmt.Sscan(p.Port(), &n)
	return n
}

func TestHostRules(t *testing.T) {
	rules := HostRulesFrom([]string{"--lang=en", `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost, MAP *:8443 intranet.test`})
	r, err := parseHostRules(rules)
	assert.NilError(t, err)
	cases := []struct {
		host     string
		port     int
		to       string
		notFound bool
	}{
		{"example.com", 80, "", true},
		{"LOCALHOST", 8080, "localhost", false},
		{"127.0.0.1", 9, "127.0.0.1", false},
		{"app.test", 8443, "", true}, // the first MAP that matches wins
	}
	for _, c := range cases {
		to, nf := r.rewrite(c.host, c.port)
		assert.Check(t, is.Equal(to, c.to), c.host)
		assert.Check(t, is.Equal(nf, c.notFound), c.host)
	}
	_, err = parseHostRules("MAP onlyhost")
	assert.ErrorContains(t, err, `"MAP onlyhost" is neither`)
	assert.Equal(t, HostRulesFrom(nil), "")
}
