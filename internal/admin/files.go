package admin

import (
	"errors"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/files"
)

// FileItem is one kept file as the page lists it; Link fetches it through
// the admin API (with the bearer token), URI is its MCP resource.
type FileItem struct {
	Name     string `json:"name"`
	Folder   string `json:"folder"`
	Size     int64  `json:"size"`
	MIMEType string `json:"mimeType"`
	URI      string `json:"uri"`
	Link     string `json:"link"`
	Modified string `json:"modified"`
}

// Folder is one folder of kept files with how many it holds.
type Folder struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func (a *Admin) listFiles(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	out := struct {
		Folders []Folder   `json:"folders"`
		Files   []FileItem `json:"files"`
	}{Folders: []Folder{}, Files: []FileItem{}}
	box, err := a.keptBox(owner)
	var all []files.File
	if err == nil && box != nil {
		all, err = box.List()
	}
	if err != nil {
		a.refuse(w, http.StatusInternalServerError, "The kept files could not be listed: "+err.Error())
		return
	}
	for _, folder := range files.Folders {
		n := 0
		for _, f := range all {
			if f.Folder == folder {
				n++
			}
		}
		out.Folders = append(out.Folders, Folder{Name: folder, Count: n})
	}
	base := APIPrefix + "workspaces/" + url.PathEscape(r.PathValue("ws")) + "/files/"
	for _, f := range all {
		out.Files = append(out.Files, FileItem{
			Name: f.Name, Folder: f.Folder, Size: f.Size, MIMEType: f.MimeType,
			URI: "session://files/" + url.PathEscape(f.Name), Link: base + url.PathEscape(f.Name),
			Modified: f.Modified.UTC().Format(time.RFC3339),
		})
	}
	writeJSON(w, http.StatusOK, out)
}

// inline are the types the page shows in place; anything else is
// downloaded.
var inline = []string{"image/png", "image/jpeg", "image/gif", "image/webp", "application/pdf"}

// getFile serves one kept file. It is sandboxed (CSP sandbox) and never
// sniffed, so a kept HTML page cannot run as the admin page's origin.
func (a *Admin) getFile(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	name := r.PathValue("name")
	box, err := a.keptBox(owner)
	if err == nil && box == nil {
		err = files.ErrNotFound
	}
	var data []byte
	var f files.File
	if err == nil {
		data, f, err = box.Read(name)
	}
	if err != nil {
		a.fileRefusal(w, r, err)
		return
	}
	disposition := "attachment"
	if slices.Contains(inline, f.MimeType) {
		disposition = "inline"
	}
	h := w.Header()
	h.Set("Content-Type", f.MimeType)
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("Content-Disposition", mime.FormatMediaType(disposition, map[string]string{"filename": f.Name}))
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'")
	if r.Method != http.MethodHead {
		_, _ = w.Write(data)
	}
}

func (a *Admin) deleteFile(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	box, err := a.keptBox(owner)
	if err == nil && box == nil {
		err = files.ErrNotFound
	}
	if err == nil {
		err = box.Remove(r.PathValue("name"))
	}
	if err != nil {
		a.fileRefusal(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": r.PathValue("name")})
}

func (a *Admin) clearFolder(w http.ResponseWriter, r *http.Request) {
	owner, ok := a.workspaceOf(w, r)
	if !ok {
		return
	}
	folder := r.PathValue("folder")
	if !slices.Contains(files.Folders, folder) {
		a.refuse(w, http.StatusBadRequest, "There is no folder "+quote(folder)+"; clear one of "+strings.Join(files.Folders, ", ")+" (DELETE "+APIPrefix+"workspaces/<id>/folders/<folder>).")
		return
	}
	n := 0
	box, err := a.keptBox(owner)
	if err == nil && box != nil {
		n, err = box.Clear(folder)
	}
	if err != nil {
		a.refuse(w, http.StatusInternalServerError, "The folder could not be cleared: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"folder": folder, "deleted": n})
}

// fileRefusal says what was wrong with a file call: a name that cannot
// be a kept file's, or one that is not kept.
func (a *Admin) fileRefusal(w http.ResponseWriter, r *http.Request, err error) {
	list := "GET " + APIPrefix + "workspaces/" + r.PathValue("ws") + "/files lists the kept files."
	switch {
	case errors.Is(err, files.ErrNotFound):
		a.refuse(w, http.StatusNotFound, "No kept file is called "+quote(r.PathValue("name"))+" in this workspace. "+list)
	case files.CheckName(r.PathValue("name")) != nil:
		a.refuse(w, http.StatusBadRequest, "The name "+quote(r.PathValue("name"))+" cannot be a kept file's name. "+list)
	default:
		a.refuse(w, http.StatusInternalServerError, "The kept file could not be read: "+err.Error())
	}
}
