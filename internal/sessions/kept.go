package sessions

import (
	"context"
	"errors"
	"net/url"
	"slices"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/internal/workspaces"
)

// Current is session://current.
type Current struct {
	Principal string `json:"principal"`
	// Session is the workspace's name, as Workspace (kept for clients of
	// the time before workspaces).
	Session   string `json:"session"`
	Workspace string `json:"workspace"`
	// NamedBy says how this request named the workspace: default, query,
	// header or stdio.
	NamedBy string `json:"namedBy"`
	// State is live, idle, closed, or "open elsewhere" (open, but not held
	// by this process: the next page tool re-attaches or reopens).
	State string `json:"state"`
	// Reopened says the browser was reopened after its earlier one ended.
	Reopened bool `json:"reopened,omitempty"`
	// DriverSession is the WebDriver session id.
	DriverSession string `json:"driverSession,omitempty"`
	// SavedSites are the origins whose site data save_site_data kept
	// (session://sites).
	SavedSites []string `json:"savedSites,omitempty"`
	// Visited are the origins the workspace was on, oldest first.
	Visited        []string        `json:"visited,omitempty"`
	Browser        string          `json:"browser,omitempty"`
	BrowserVersion string          `json:"browserVersion,omitempty"`
	URL            string          `json:"url,omitempty"`
	Title          string          `json:"title,omitempty"`
	Window         *browser.Window `json:"window,omitempty"`
	Endpoint       string          `json:"endpoint"` // "local chromedriver" or "Selenium Grid"; never an address
	OpenedAt       string          `json:"openedAt,omitempty"`
	LastUsedAt     string          `json:"lastUsedAt,omitempty"`
	IdleTimeout    string          `json:"idleTimeout"`
	Next           string          `json:"next,omitempty"`
}

// FileItem is one kept file as the file resources list it.
type FileItem struct {
	Name     string `json:"name"`
	Folder   string `json:"folder"`
	Size     int64  `json:"size"`
	MIMEType string `json:"mimeType"`
	URI      string `json:"uri"`
	Link     string `json:"link,omitempty"` // signed; none where nothing serves HTTP
	Modified string `json:"modified"`
}

// FolderItem is one folder of kept files.
type FolderItem struct {
	Name  string `json:"name"`
	URI   string `json:"uri,omitempty"` // for the folders that are resources
	Count int    `json:"count"`
}

// FileList is session://files.
type FileList struct {
	Folders []FolderItem `json:"folders"`
	Files   []FileItem   `json:"files"`
}

// Folder is session://files/screenshots and session://files/downloads.
type Folder struct {
	Folder string     `json:"folder"`
	URI    string     `json:"uri"`
	Files  []FileItem `json:"files"`
}

// listedFolders are the folders that have a resource of their own.
var listedFolders = []string{files.Screenshots, files.Downloads}

// FileURI is the resource URI of a kept file.
func FileURI(name string) string { return "session://files/" + url.PathEscape(name) }

// FileLink is the path of a kept file on the HTTP server: the caller's
// own, with a token; Manager.Link signs it so it works without one.
func FileLink(name string) string { return "/files/" + url.PathEscape(name) }

// Link is where a person, or a page, fetches principal's kept file over
// HTTP without a token: a signed link (see package links), or "" where
// nothing serves HTTP, and the file's URI is the way to it.
func (m *Manager) Link(principal, name string) string {
	if m.link == nil {
		return ""
	}
	return m.link(principal, name)
}

func (m *Manager) item(principal string, f files.File) FileItem {
	return FileItem{Name: f.Name, Folder: f.Folder, Size: f.Size, MIMEType: f.MimeType, URI: FileURI(f.Name), Link: m.Link(principal, f.Name), Modified: f.Modified.UTC().Format(time.RFC3339)}
}

// Describe is the workspace's browser as session://current shows it: the
// one this process holds, or else what the workspace's record says.
func (m *Manager) Describe(ctx context.Context, o Owner) Current {
	named := workspaces.Workspace(ctx)
	c := Current{Principal: o.Principal, Session: o.Workspace, Workspace: o.Workspace, NamedBy: string(named.How), State: "closed", Endpoint: "local chromedriver", IdleTimeout: m.idle.String()}
	if m.Remote() {
		c.Endpoint = "Selenium Grid"
	}
	rec, found, _ := m.Workspace(ctx, o)
	if found {
		c.SavedSites = savedSites(rec.SiteData)
		c.Visited = rec.Visited
	}
	s := m.Peek(o)
	if s == nil {
		c.Next = "No browser is open: call open_session (optionally with url)."
		if found && rec.State == workspaces.Live {
			c.State = "open elsewhere"
			c.URL, c.Browser, c.DriverSession = rec.URL, rec.Browser, rec.DriverSession
			w := rec.Window
			c.Window = &w
			c.LastUsedAt = rec.LastUsed.UTC().Format(time.RFC3339)
			c.Next = "The workspace's browser is open but not held by this server process (a restart, another replica, or an idle close): the next page tool re-attaches to it or reopens it where it was."
		}
		return c
	}
	c.Browser, c.BrowserVersion = s.Browser(), s.Version()
	c.DriverSession = s.ID()
	w := s.Window()
	c.Window = &w
	c.URL, _ = s.CurrentURL()
	c.Title, _ = s.Title()
	c.OpenedAt = s.Opened.UTC().Format(time.RFC3339)
	last := s.LastUsed()
	c.LastUsedAt = last.UTC().Format(time.RFC3339)
	c.State = "live"
	if m.now().Sub(last) > time.Minute {
		c.State = "idle"
	}
	c.Reopened = s.reopened
	return c
}

// savedSites are the origins site data was saved for.
func savedSites(d *browser.SiteData) []string {
	if d == nil {
		return nil
	}
	return d.Hosts()
}

// box returns the caller's files after keeping any finished downloads of
// an open session, so a download shows up where the caller looks for it.
// A listing (appear false) waits only for a download in flight; a read of
// a name not yet kept (appear true) also gives a download just started
// the moment it takes to appear.
func (m *Manager) box(ctx context.Context, principal string, appear bool) (*files.Box, error) {
	m.mu.Lock()
	var open []*Session
	for o, s := range m.sessions {
		if o.Principal == principal {
			open = append(open, s)
		}
	}
	m.mu.Unlock()
	for _, s := range open {
		_, _ = m.keepDownloads(ctx, s, appear)
	}
	return m.files.For(principal)
}

// ListFiles is session://files: every kept file of the caller, with the
// folders that hold them.
func (m *Manager) ListFiles(ctx context.Context, principal string) (FileList, error) {
	box, err := m.box(ctx, principal, false)
	if err != nil {
		return FileList{}, err
	}
	all, err := box.List()
	if err != nil {
		return FileList{}, err
	}
	out := FileList{Files: []FileItem{}}
	for _, f := range all {
		out.Files = append(out.Files, m.item(principal, f))
	}
	for _, folder := range files.Folders {
		n := 0
		for _, f := range all {
			if f.Folder == folder {
				n++
			}
		}
		fi := FolderItem{Name: folder, Count: n}
		if slices.Contains(listedFolders, folder) {
			fi.URI = "session://files/" + folder
		}
		out.Folders = append(out.Folders, fi)
	}
	return out, nil
}

// ListFolder is session://files/screenshots or session://files/downloads.
func (m *Manager) ListFolder(ctx context.Context, principal, folder string) (Folder, error) {
	// Only the downloads folder looks at the browser's downloads.
	box, err := m.files.For(principal)
	if folder == files.Downloads {
		box, err = m.box(ctx, principal, false)
	}
	if err != nil {
		return Folder{}, err
	}
	fs, err := box.ListFolder(folder)
	if err != nil {
		return Folder{}, err
	}
	out := Folder{Folder: folder, URI: "session://files/" + folder, Files: []FileItem{}}
	for _, f := range fs {
		out.Files = append(out.Files, m.item(principal, f))
	}
	return out, nil
}

// ReadKept reads one of the caller's kept files by name. A file already
// kept is read at once; only a miss waits for the browser's downloads,
// which may hold it.
func (m *Manager) ReadKept(ctx context.Context, principal, name string) ([]byte, files.File, error) {
	box, err := m.files.For(principal)
	if err != nil {
		return nil, files.File{}, err
	}
	data, f, err := box.Read(name)
	if errors.Is(err, files.ErrNotFound) {
		if box, err = m.box(ctx, principal, true); err == nil {
			data, f, err = box.Read(name)
		}
	}
	return data, f, err
}

// KeptNames lists the names of the caller's kept files, for completion.
func (m *Manager) KeptNames(principal string) ([]string, error) {
	box, err := m.files.For(principal)
	if err != nil {
		return nil, err
	}
	all, err := box.List()
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(all))
	for _, f := range all {
		names = append(names, f.Name)
	}
	return names, nil
}
