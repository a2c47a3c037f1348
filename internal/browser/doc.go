// Package browser drives real web browsers over the W3C WebDriver protocol
// on behalf of an AI agent.
//
// A Driver is a WebDriver endpoint: either a chromedriver process that the
// package starts on a loopback port (in its own process group, so that
// closing the Driver never leaves Chromium behind), or a Selenium Grid 4 or
// other W3C endpoint given by URL. A Session is one headless browser with a
// fresh profile, opened on a Driver.
//
// Elements are addressed with a Locator — CSS, XPath, visible text, form
// label or ARIA role and accessible name — resolved by one injected script
// per call (installed once per document; later calls send a stub that runs
// it). Outline describes the page as compact indented text in which
// every visible control carries a locator that the other methods accept,
// chosen to survive a re-render: test ids and stable ids first, never an
// id that looks generated, and rows found by their text rather than their
// position.
//
// Errors returned by this package are written for the agent: they never
// contain the WebDriver or Grid address, server file system paths or text
// that was typed into the page. ErrSessionGone reports that the browser or
// its driver has gone away.
package browser
