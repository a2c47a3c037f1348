package egress

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	"net/http/httputil"
	"net/netip"
	"os"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Proxy is the forward proxy a local browser connects through. It
// answers plain HTTP requests in absolute form and CONNECT tunnels (HTTPS,
// WebSockets), dialling only what its Policy allows.
type Proxy struct {
	policy Policy
	rules  hostRules
	local  func(netip.Addr) bool
	ln     net.Listener

	failMu   sync.Mutex
	failures map[string]Failure // by host:port, the latest
	srv      *http.Server
	fwd      *httputil.ReverseProxy
	dialer   net.Dialer

	mu      sync.Mutex
	tunnels map[net.Conn]struct{}
}

// Listen starts a Proxy on a free loopback port. Its own port is
// protected too.
func Listen(p Policy) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("egress: no loopback port for the browser's proxy: %w", err)
	}
	p.Ports = append(append([]int(nil), p.Ports...), ln.Addr().(*net.TCPAddr).Port)
	own := ownAddrs()
	rules, err := parseHostRules(p.HostRules)
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("egress: %w", err)
	}
	x := &Proxy{policy: p, rules: rules, ln: ln, tunnels: map[net.Conn]struct{}{}, failures: map[string]Failure{}}
	x.local = func(a netip.Addr) bool { return a.IsUnspecified() || slices.Contains(own, a) }
	x.dialer = net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	x.fwd = &httputil.ReverseProxy{
		// The request is already in absolute form: forward it as it is,
		// without adding X-Forwarded-For (the site sees the browser).
		Rewrite: func(r *httputil.ProxyRequest) { r.Out.Host = r.In.Host },
		Transport: &http.Transport{
			DialContext:           x.dial,
			ForceAttemptHTTP2:     false,
			MaxIdleConnsPerHost:   8,
			IdleConnTimeout:       30 * time.Second,
			ResponseHeaderTimeout: 5 * time.Minute,
		},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) { refuse(w, r.Host, err) },
	}
	x.srv = &http.Server{Handler: x, ReadHeaderTimeout: 30 * time.Second}
	go x.srv.Serve(ln)
	return x, nil
}

// Addr is the proxy's host:port, for Chromium's --proxy-server.
func (x *Proxy) Addr() string { return x.ln.Addr().String() }

// ChromiumArgs are the arguments that send every connection of a
// Chromium through the proxy, loopback and link-local included (Chromium
// bypasses a proxy for those unless told not to). A proxy auto-config
// script cannot do it: Chromium never consults one for loopback.
func (x *Proxy) ChromiumArgs() []string {
	return []string{"--proxy-server=http://" + x.Addr(), "--proxy-bypass-list=<-loopback>"}
}

// Close stops the proxy and every tunnel through it.
func (x *Proxy) Close() error {
	err := x.srv.Close()
	x.mu.Lock()
	for c := range x.tunnels {
		c.Close()
	}
	x.mu.Unlock()
	return err
}

// ServeHTTP answers one proxy request.
func (x *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		x.tunnel(w, r)
		return
	}
	if !r.URL.IsAbs() || r.URL.Host == "" {
		http.Error(w, "this is the browser's proxy; it takes requests in absolute form only", http.StatusBadRequest)
		return
	}
	x.fwd.ServeHTTP(w, r)
}

// tunnel answers CONNECT: dial, say so, then copy both ways.
func (x *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	up, err := x.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		refuse(w, r.Host, err)
		return
	}
	hj, ok := w.(http.Hijacker)
	if !ok {
		up.Close()
		http.Error(w, "tunnels are not supported here", http.StatusInternalServerError)
		return
	}
	down, buf, err := hj.Hijack()
	if err != nil {
		up.Close()
		return
	}
	if _, err := io.WriteString(down, "HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil {
		up.Close()
		down.Close()
		return
	}
	x.track(up, down)
	go func() {
		// Bytes the browser sent after its CONNECT are already buffered.
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Reader.Peek(n)
			up.Write(b)
		}
		io.Copy(up, down)
		closeWrite(up)
	}()
	go func() {
		io.Copy(down, up)
		closeWrite(down)
		x.untrack(up, down)
	}()
}

func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.CloseWrite()
		return
	}
	c.Close()
}

func (x *Proxy) track(cs ...net.Conn) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range cs {
		x.tunnels[c] = struct{}{}
	}
}

func (x *Proxy) untrack(cs ...net.Conn) {
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, c := range cs {
		c.Close()
		delete(x.tunnels, c)
	}
}

// dial resolves addr and connects to the first address the policy allows:
// the decision is on the address dialled, so no name (or rebinding of
// one) reaches a refused address.
func (x *Proxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	c, err := x.dialAllowed(ctx, network, addr)
	if err != nil {
		x.failMu.Lock()
		if len(x.failures) > 256 {
			clear(x.failures)
		}
		x.failures[failureKey(addr)] = failureOf(err)
		x.failMu.Unlock()
	}
	return c, err
}

func (x *Proxy) dialAllowed(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := portOf(addr)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrRefused, err)
	}
	// An address is judged before any rule rewrites it, so a refusal
	// reads as one.
	if ip, err := netip.ParseAddr(host); err == nil {
		if err := x.policy.check(netip.AddrPortFrom(ip.Unmap(), uint16(port)), x.local); err != nil {
			return nil, err
		}
	}
	host, notFound := x.rules.rewrite(host, port)
	if notFound {
		return nil, &net.DNSError{Err: "no such host (a host resolver rule)", Name: host, IsNotFound: true}
	}
	var ips []netip.Addr
	if ip, err := netip.ParseAddr(host); err == nil {
		ips = []netip.Addr{ip}
	} else if ips, err = net.DefaultResolver.LookupNetIP(ctx, "ip", host); err != nil {
		return nil, err
	}
	var first error
	for _, ip := range ips {
		ap := netip.AddrPortFrom(ip.Unmap(), uint16(port))
		if err := x.policy.check(ap, x.local); err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		c, err := x.dialer.DialContext(ctx, network, ap.String())
		if err == nil {
			return c, nil
		}
		first = err
	}
	if first == nil {
		first = fmt.Errorf("no address for %s", host)
	}
	return nil, first
}

// Failure is why the proxy did not connect a browser to an address.
type Failure struct {
	// Code is the Chromium network error a browser connecting by itself
	// would have shown (net::ERR_NAME_NOT_RESOLVED, …), or
	// net::ERR_BLOCKED_BY_ADMINISTRATOR for a refusal.
	Code string
	// Refused says the policy refused the address; Reason says why.
	Refused bool
	Reason  string
	At      time.Time
}

// Failure returns the latest failure to connect to hostport ("host:port")
// at or after since.
func (x *Proxy) Failure(hostport string, since time.Time) (Failure, bool) {
	x.failMu.Lock()
	defer x.failMu.Unlock()
	f, ok := x.failures[failureKey(hostport)]
	return f, ok && !f.At.Before(since)
}

// failureKey spells a host:port one way whichever way a URL spelled it
// (letter case, an IPv4-mapped address written either way).
func failureKey(hostport string) string {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return strings.ToLower(hostport)
	}
	if ip, err := netip.ParseAddr(host); err == nil {
		host = ip.String()
	}
	return net.JoinHostPort(strings.ToLower(host), port)
}

// failureOf names a dial error as Chromium would.
func failureOf(err error) Failure {
	f := Failure{At: time.Now(), Code: "net::ERR_CONNECTION_FAILED", Reason: "it could not be reached"}
	var dns *net.DNSError
	switch {
	case errors.Is(err, ErrRefused):
		f.Code, f.Refused = "net::ERR_BLOCKED_BY_ADMINISTRATOR", true
		f.Reason = "it is closed to browsers: " + strings.TrimPrefix(err.Error(), ErrRefused.Error()+": ")
	case errors.As(err, &dns):
		f.Code, f.Reason = "net::ERR_NAME_NOT_RESOLVED", "its name does not resolve"
	case errors.Is(err, syscall.ECONNREFUSED):
		f.Code, f.Reason = "net::ERR_CONNECTION_REFUSED", "nothing accepts connections there"
	case errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		f.Code, f.Reason = "net::ERR_CONNECTION_TIMED_OUT", "the connection timed out"
	}
	return f
}

// refuse answers a request the proxy will not or cannot carry, with a
// page saying why under the error Chromium would have shown, so a caller
// reading it (outline, read_text) learns what happened. It names the host
// the page asked for, nothing of the server's.
func refuse(w http.ResponseWriter, host string, err error) {
	f := failureOf(err)
	status := http.StatusBadGateway
	if f.Refused {
		status = http.StatusForbidden
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	fmt.Fprintf(w, "<!DOCTYPE html><title>%s</title><h1>%s was not loaded</h1><p>%s: %s.</p>",
		f.Code, html.EscapeString(host), f.Code, html.EscapeString(f.Reason))
}
