// Package attack is the security test suite: each test plays one attack
// a caller, or a model under prompt injection, could make with its own
// browser and its own pages, end to end through real MCP clients and real
// Chromium, and asserts that nothing of the server, of another principal
// or of a secret comes back in any result, kept file, resource, log line
// or error. It holds no code besides its tests.
package attack
