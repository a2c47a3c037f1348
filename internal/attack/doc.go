// Package attack is the security test suite: each test plays one attack
// a caller, or a model under prompt injection, could make with its own
// browser and its own pages, end to end through real MCP clients and real
// Chromium, and asserts that nothing of the server, of another principal
// or of a secret comes back in any result, kept file, resource, log line
// or error. It holds no code besides its tests.
//
// The attacks played here: a browser reaching the server's own ports, the
// shared chromedriver or the metadata address (egress_test.go); a server
// file put into a file input (fileinput_test.go); a fragment of a secret
// left in a field (secretfield_test.go); a print of a page that echoes a
// secret (prints_test.go); checks, locators and scripts
// asked, one guessed character at a time, of a page that echoes a typed
// secret, at once or late (oracle_test.go); a key listener a script
// leaves before a secret is typed (keylogger_test.go); everything a caller
// reads over HTTP after a page echoes a secret, searched for the value in
// every common encoding (leaks_test.go). Attacks on one package's own
// surface are played beside it: foreign Host and Origin, oversized bodies
// and another caller's transport session in internal/server
// (httpguard_test.go); forged access tokens (alg none, HS256 keyed with
// the provider's public key, an unpublished or impostor key), expired,
// foreign-audience and foreign-issuer tokens, and forged key ids that
// would make the server hammer the provider's key set in internal/auth
// (oidc_test.go) and on every HTTP route in internal/server
// (authn_test.go); a shared flow typing its runner's secrets in tools
// (TestFlowIsolation); a killed server's orphans in internal/browser
// (TestKilledServerLeavesNothing); the idle reaper and a running call in
// internal/sessions; and the parsers a caller reaches in each package's
// fuzz_test.go (make fuzz).
package attack
