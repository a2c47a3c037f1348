package workspaces

import (
	"net/url"
	"slices"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/browser"
)

// State is whether a workspace's browser should be running.
type State string

// The states of a workspace.
const (
	// Live: a browser was opened and not ended; a call finding none live
	// re-attaches to the driver session or reopens it.
	Live State = "open"
	// Closed: close_session (or an operator) ended it; the record stays
	// until its TTL with what it last knew.
	Closed State = "closed"
)

// MaxVisited is how many sites a record's history keeps, newest last.
const MaxVisited = 20

// Record is one workspace as the store keeps it.
type Record struct {
	Owner   string `json:"owner"`
	Name    string `json:"name"`
	NamedBy How    `json:"named_by"`
	State   State  `json:"state"`

	// How the browser is opened, so a reopened one is the same.
	Browser         string         `json:"browser"`
	Window          browser.Window `json:"window"`
	PageLoadTimeout time.Duration  `json:"page_load_timeout"`
	ScriptTimeout   time.Duration  `json:"script_timeout"`
	Insecure        bool           `json:"insecure,omitempty"`

	// Where it was.
	URL string `json:"url,omitempty"`
	// DriverSession is the WebDriver session id while one is live; a
	// replica or a restarted server re-attaches to it on a Grid.
	DriverSession string `json:"driver_session,omitempty"`
	// Remote says DriverSession lives on a Grid, not on a chromedriver that
	// died with the process that started it.
	Remote       bool     `json:"remote,omitempty"`
	WindowHandle string   `json:"window_handle,omitempty"`
	Frame        []string `json:"frame,omitempty"`

	// SiteData is what save_site_data kept; restored when the browser is
	// reopened.
	SiteData *browser.SiteData `json:"site_data,omitempty"`
	// Visited are the origins of the pages the workspace was on, oldest
	// first, at most MaxVisited.
	Visited []string `json:"visited,omitempty"`

	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"last_used"`
}

// Options returns the options that open this workspace's browser again.
func (r Record) Options() browser.SessionOptions {
	return browser.SessionOptions{Browser: r.Browser, Window: r.Window, Insecure: r.Insecure, PageLoadTimeout: r.PageLoadTimeout, ScriptTimeout: r.ScriptTimeout}
}

// Visit records that the workspace is at rawURL: its URL, and its origin
// in the history. It reports whether anything changed.
func (r *Record) Visit(rawURL string) bool {
	if rawURL == r.URL {
		return false
	}
	r.URL = rawURL
	o := Origin(rawURL)
	if o == "" || (len(r.Visited) > 0 && r.Visited[len(r.Visited)-1] == o) {
		return true
	}
	r.Visited = slices.DeleteFunc(r.Visited, func(v string) bool { return v == o })
	r.Visited = append(r.Visited, o)
	if n := len(r.Visited) - MaxVisited; n > 0 {
		r.Visited = r.Visited[n:]
	}
	return true
}

// Origin is the scheme://host[:port] of an http(s) URL, or "".
func Origin(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return ""
	}
	return u.Scheme + "://" + u.Host
}
