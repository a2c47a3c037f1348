package sessions

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/auth"
	"github.com/selenium-flow/selenium-flow/internal/browser"
	"github.com/selenium-flow/selenium-flow/internal/files"
	"github.com/selenium-flow/selenium-flow/resources"
)

// Current is session://current.
type Current struct {
	Principal   string          `json:"principal"`
	Session     string          `json:"session"`
	State       string          `json:"state"` // live, idle or closed
	Browser     string          `json:"browser,omitempty"`
	URL         string          `json:"url,omitempty"`
	Title       string          `json:"title,omitempty"`
	Window      *browser.Window `json:"window,omitempty"`
	Endpoint    string          `json:"endpoint"` // "local chromedriver" or "Selenium Grid"; never an address
	OpenedAt    string          `json:"openedAt,omitempty"`
	LastUsedAt  string          `json:"lastUsedAt,omitempty"`
	IdleTimeout string          `json:"idleTimeout"`
	Next        string          `json:"next,omitempty"`
}

// FileItem is one kept file as the file resources list it.
type FileItem struct {
	Name     string `json:"name"`
	Folder   string `json:"folder"`
	Size     int64  `json:"size"`
	MIMEType string `json:"mimeType"`
	URI      string `json:"uri"`
	Link     string `json:"link"`
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

// FileLink is where a person fetches a kept file over HTTP.
func FileLink(name string) string { return "/files/" + url.PathEscape(name) }

func item(f files.File) FileItem {
	return FileItem{Name: f.Name, Folder: f.Folder, Size: f.Size, MIMEType: f.MimeType, URI: FileURI(f.Name), Link: FileLink(f.Name), Modified: f.Modified.UTC().Format(time.RFC3339)}
}

// Bind attaches the session and file readers to the table.
func (m *Manager) Bind(t *resources.Table) {
	t.Bind("session.current", m.readCurrent)
	t.Bind("session.files", m.readFiles)
	t.Bind("session.folder", m.readFolder)
	t.Bind("session.file", m.readFile)
	t.BindCompleter("session.file", m.completeFile)
}

// Describe is the caller's session as session://current shows it.
func (m *Manager) Describe(principal string) Current {
	c := Current{Principal: principal, Session: principal, State: "closed", Endpoint: "local chromedriver", IdleTimeout: m.idle.String()}
	if m.Remote() {
		c.Endpoint = "Selenium Grid"
	}
	s := m.Peek(principal)
	if s == nil {
		c.Next = "No browser is open: call open_session (optionally with url)."
		return c
	}
	c.Browser = s.Browser()
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
	return c
}

func (m *Manager) readCurrent(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
	return resources.JSON(m.Describe(auth.Principal(ctx)))
}

// box returns the caller's files after keeping any finished downloads of
// an open session, so a download shows up where the caller looks for it.
func (m *Manager) box(ctx context.Context) (*files.Box, error) {
	p := auth.Principal(ctx)
	if s := m.Peek(p); s != nil {
		_, _ = m.KeepDownloads(ctx, s)
	}
	return m.files.For(p)
}

func (m *Manager) readFiles(ctx context.Context, _ string, _ map[string]string) (resources.Content, error) {
	box, err := m.box(ctx)
	if err != nil {
		return resources.Content{}, err
	}
	all, err := box.List()
	if err != nil {
		return resources.Content{}, err
	}
	out := FileList{Files: []FileItem{}}
	for _, f := range all {
		out.Files = append(out.Files, item(f))
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
	return resources.JSON(out)
}

func (m *Manager) readFolder(ctx context.Context, uri string, _ map[string]string) (resources.Content, error) {
	folder := strings.TrimPrefix(uri, "session://files/")
	// Only the downloads folder waits for the browser's downloads: the
	// wait is up to seconds when there are none.
	box, err := m.files.For(auth.Principal(ctx))
	if folder == files.Downloads {
		box, err = m.box(ctx)
	}
	if err != nil {
		return resources.Content{}, err
	}
	fs, err := box.ListFolder(folder)
	if err != nil {
		return resources.Content{}, err
	}
	out := Folder{Folder: folder, URI: uri, Files: []FileItem{}}
	for _, f := range fs {
		out.Files = append(out.Files, item(f))
	}
	return resources.JSON(out)
}

func (m *Manager) readFile(ctx context.Context, uri string, vars map[string]string) (resources.Content, error) {
	name, err := url.PathUnescape(vars["name"])
	if err != nil {
		return resources.Content{}, fmt.Errorf("%s is not a file URI; file names are percent-encoded in session://files/{name}", uri)
	}
	// A file already kept is read at once; only a miss waits for the
	// browser's downloads, which may hold it.
	box, err := m.files.For(auth.Principal(ctx))
	if err != nil {
		return resources.Content{}, err
	}
	data, f, err := box.Read(name)
	if errors.Is(err, files.ErrNotFound) {
		if box, err = m.box(ctx); err == nil {
			data, f, err = box.Read(name)
		}
	}
	if err != nil {
		return resources.Content{}, err
	}
	c := resources.Content{MIMEType: f.MimeType, Link: FileLink(f.Name)}
	if isText(f.MimeType) {
		c.Text = string(data)
	} else {
		c.Blob = data
	}
	return c, nil
}

func isText(mime string) bool {
	return strings.HasPrefix(mime, "text/") || mime == "application/json" || strings.HasSuffix(mime, "+json") || strings.HasSuffix(mime, "+xml")
}

func (m *Manager) completeFile(ctx context.Context, _, _ string) ([]string, error) {
	box, err := m.files.For(auth.Principal(ctx))
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
