// Package egress keeps a caller's browser away from the server's own
// endpoints and from addresses no web page should reach.
//
// A local browser shares the machine with the server, its chromedriver and
// every other caller's browser, all listening on loopback ports. A page
// the caller controls could otherwise load those ports — navigate, link,
// redirect, form post, iframe, fetch or WebSocket — and read another
// caller's session through the driver, or their tabs through a DevTools
// port. So every connection a local Chromium makes goes through a small
// forward proxy (Proxy), which decides on the address it actually dials,
// after name resolution: a name that resolves to a protected address is
// refused like the address itself, whatever the URL said.
//
// What is refused (Policy): the ports of the server and its browsers on
// any address of this machine, link-local and cloud-metadata addresses
// unless allowed, and whatever the operator denies. Everything else —
// localhost applications, intranet and public sites — is reached as
// usual.
package egress
