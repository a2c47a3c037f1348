package egress

import (
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"strings"
)

// Policy decides which addresses a browser may connect to.
type Policy struct {
	// Protected reports a port of this machine that belongs to the server
	// or its browsers (the driver, DevTools, the server's own listeners).
	// It is asked only about addresses of this machine. Nil protects
	// nothing beyond Ports.
	Protected func(port int) bool
	// Ports are protected ports known in advance.
	Ports []int
	// Deny are ranges no connection may reach, on top of the defaults
	// (link-local, which holds the cloud metadata services).
	Deny []netip.Prefix
	// Allow are ranges reachable even when a default would refuse them
	// (an operator who needs a link-local device). It never opens a
	// protected port.
	Allow []netip.Prefix
	// HostRules are Chromium --host-resolver-rules the proxy applies when
	// it resolves a name for the browser (see HostRulesFrom).
	HostRules string
}

// defaultDeny are the ranges refused unless allowed: link-local, where
// cloud providers serve instance metadata and credentials
// (169.254.169.254, fd00:ec2::254), and the unspecified address, which
// reaches this machine.
var defaultDeny = []netip.Prefix{
	netip.MustParsePrefix("169.254.0.0/16"),
	netip.MustParsePrefix("fe80::/10"),
	netip.MustParsePrefix("fd00:ec2::254/128"),
	netip.MustParsePrefix("100.100.100.200/32"), // Alibaba Cloud's metadata service
	netip.MustParsePrefix("0.0.0.0/32"),
	netip.MustParsePrefix("::/128"),
}

// ErrRefused is the reason a connection was refused.
var ErrRefused = errors.New("refused")

// check decides on the address about to be dialled.
func (p *Policy) check(ap netip.AddrPort, local func(netip.Addr) bool) error {
	addr := ap.Addr().Unmap()
	if local(addr) || addr.IsLoopback() {
		port := int(ap.Port())
		for _, q := range p.Ports {
			if q == port {
				return fmt.Errorf("%w: port %d of this machine belongs to the server", ErrRefused, port)
			}
		}
		if p.Protected != nil && p.Protected(port) {
			return fmt.Errorf("%w: port %d of this machine belongs to the server", ErrRefused, port)
		}
	}
	for _, r := range p.Deny {
		if r.Contains(addr) {
			return fmt.Errorf("%w: %s is on the operator's deny list", ErrRefused, addr)
		}
	}
	for _, r := range p.Allow {
		if r.Contains(addr) {
			return nil
		}
	}
	for _, r := range defaultDeny {
		if r.Contains(addr) {
			return fmt.Errorf("%w: %s is a link-local or metadata address", ErrRefused, addr)
		}
	}
	return nil
}

// ParseRanges reads a comma-separated list of addresses and CIDR ranges
// (FLOW_BROWSER_DENY, FLOW_BROWSER_ALLOW): "10.0.0.0/8, 192.168.1.7".
func ParseRanges(list string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if p, err := netip.ParsePrefix(item); err == nil {
			out = append(out, p.Masked())
			continue
		}
		a, err := netip.ParseAddr(item)
		if err != nil {
			return nil, fmt.Errorf("%q is neither an address nor a CIDR range (e.g. 10.0.0.0/8)", item)
		}
		out = append(out, netip.PrefixFrom(a, a.BitLen()))
	}
	return out, nil
}

// ownAddrs returns this machine's own addresses: a server listening on
// every interface is reached through any of them.
func ownAddrs() []netip.Addr {
	var own []netip.Addr
	if addrs, err := net.InterfaceAddrs(); err == nil {
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				if ip, ok := netip.AddrFromSlice(n.IP); ok {
					own = append(own, ip.Unmap())
				}
			}
		}
	}
	return own
}

// portOf parses the port of a host:port.
func portOf(hostport string) (string, int, error) {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		return "", 0, err
	}
	n, err := strconv.Atoi(port)
	if err != nil || n <= 0 || n > 65535 {
		return "", 0, fmt.Errorf("bad port %q", port)
	}
	return host, n, nil
}
