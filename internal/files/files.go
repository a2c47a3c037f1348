// Package files keeps the files that browser sessions produce or consume —
// screenshots, downloads, printed PDFs and files to upload — in a separate
// box per principal (the user or agent on whose behalf the work is done).
//
// A Store is rooted at one directory on the server. Each principal gets a
// Box under it, with one sub-folder per kind of file (see Folders). File
// names are unique across all folders of a box, so a file is addressed by
// its name alone. Writes are atomic: a reader never sees a half-written
// file. Errors never reveal the server-side location of the store.
package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// The folders of a box.
const (
	Screenshots = "screenshots"
	Downloads   = "downloads"
	Prints      = "prints"
	Uploads     = "uploads"
)

// Folders lists the folders a Box keeps files in, in a fixed order.
var Folders = []string{Screenshots, Downloads, Prints, Uploads}

// MaxNameLen is the longest file name, in bytes, that a Box accepts.
const MaxNameLen = 200

// ErrNotFound is returned (wrapped) when a named file is not kept in a box.
var ErrNotFound = errors.New("file not found")

// ErrInvalidName is wrapped by CheckName's error: the name is not one a
// kept file can have, which is the caller's mistake.
var ErrInvalidName = errors.New("invalid file name")

// File describes one kept file.
type File struct {
	Name     string    `json:"name"`      // unique in the box
	Folder   string    `json:"folder"`    // one of Folders
	Size     int64     `json:"size"`      // in bytes
	MimeType string    `json:"mime_type"` // judged by the name's extension
	Modified time.Time `json:"modified"`  // when the file was kept
}

// Store holds the boxes of all principals under one root directory.
type Store struct {
	root string

	mu    sync.Mutex
	locks map[string]*sync.Mutex // per principal, serialises Keep
}

// Open opens (creating it if needed) the store rooted at root.
func Open(root string) (*Store, error) {
	if root == "" {
		return nil, errors.New("files: open store: no root directory given")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fmt.Errorf("files: open store: %w", clean(err))
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("files: open store: cannot create the store directory: %w", clean(err))
	}
	return &Store{root: abs, locks: make(map[string]*sync.Mutex)}, nil
}

// For returns the box of principal, creating its folders if needed.
// The principal is a folder name, so it must pass auth.ValidPrincipal.
func (s *Store) For(principal string) (*Box, error) {
	if !auth.ValidPrincipal(principal) {
		return nil, fmt.Errorf("files: invalid principal name %q: use 1 to %d letters, digits, '.', '_' or '-' (not \".\" or \"..\")", principal, auth.MaxPrincipalLen)
	}
	dir := filepath.Join(s.root, principal)
	for _, f := range Folders {
		if err := os.MkdirAll(filepath.Join(dir, f), 0o700); err != nil {
			return nil, fmt.Errorf("files: open box of %q: %w", principal, clean(err))
		}
	}
	s.mu.Lock()
	l, ok := s.locks[principal]
	if !ok {
		l = new(sync.Mutex)
		s.locks[principal] = l
	}
	s.mu.Unlock()
	return &Box{principal: principal, dir: dir, mu: l}, nil
}

// Box is the set of files kept for one principal.
// A Box is safe for concurrent use.
type Box struct {
	principal string
	dir       string
	mu        *sync.Mutex
}

// CheckName reports whether name is acceptable as the name of a kept file,
// with an error that says what is allowed when it is not.
func CheckName(name string) error {
	var why string
	switch {
	case name == "":
		why = "it is empty"
	case name == "." || name == "..":
		why = "it is a relative directory"
	case strings.HasPrefix(name, "."):
		why = "it starts with a dot"
	case len(name) > MaxNameLen:
		why = fmt.Sprintf("it is longer than %d bytes", MaxNameLen)
	case strings.ContainsAny(name, `/\`):
		why = "it contains a path separator"
	case strings.ContainsFunc(name, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		why = "it contains a NUL or control character"
	case isFolder(name):
		why = "it is the name of a folder"
	default:
		return nil
	}
	return fmt.Errorf("files: %w %q: %s; a name is a plain file name such as \"report.pdf\": "+
		"no '/' or '\\', no control characters, not starting with '.', at most %d bytes, not one of %s",
		ErrInvalidName, truncate(name, 60), why, MaxNameLen, strings.Join(Folders, ", "))
}

func isFolder(name string) bool {
	for _, f := range Folders {
		if strings.EqualFold(name, f) {
			return true
		}
	}
	return false
}

func checkFolder(folder string) error {
	for _, f := range Folders {
		if folder == f {
			return nil
		}
	}
	return fmt.Errorf("files: unknown folder %q: use one of %s", folder, strings.Join(Folders, ", "))
}

// Keep stores data as a new file called name in folder and returns its
// description. If a file of that name is already kept in any folder of the
// box, the new file is kept as "name (1).ext", "name (2).ext" and so on; the
// returned File carries the name actually used. The write is atomic and the
// file is readable by the server's user only.
func (b *Box) Keep(folder, name string, data []byte) (File, error) {
	if err := checkFolder(folder); err != nil {
		return File{}, err
	}
	if err := CheckName(name); err != nil {
		return File{}, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()

	dir := filepath.Join(b.dir, folder)
	for i := 0; i < 10000; i++ {
		cand := numbered(name, i)
		if _, _, err := b.find(cand); err == nil {
			continue // taken in some folder
		}
		final := filepath.Join(dir, cand)
		// Create does not replace an existing file, so a name taken by
		// another process in the meantime is not overwritten.
		err := atomicfile.Create(final, data, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return File{}, keepError(name, err)
		}
		fi, err := os.Stat(final)
		if err != nil {
			return File{}, fmt.Errorf("files: keep %q: %w", name, clean(err))
		}
		return fileOf(folder, cand, fi), nil
	}
	return File{}, fmt.Errorf("files: keep %q: too many files of that name", name)
}

// keepError says which step of keeping a file failed, with the reason but
// not the path.
func keepError(name string, err error) error {
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return fmt.Errorf("files: keep %q: %w", name, clean(err))
	}
	switch pe.Op {
	case "create":
		return fmt.Errorf("files: keep %q: cannot create a file: %w", name, pe.Err)
	case "link":
		return fmt.Errorf("files: keep %q: cannot store the file: %w", name, pe.Err)
	case "chmod":
		return fmt.Errorf("files: keep %q: %w", name, pe.Err)
	}
	return fmt.Errorf("files: keep %q: cannot write the file: %w", name, pe.Err)
}

// numbered returns name with " (i)" inserted before its extension, or name
// itself for i == 0. The result is shortened to fit MaxNameLen.
func numbered(name string, i int) string {
	if i == 0 {
		return name
	}
	ext := filepath.Ext(name)
	base := strings.TrimSuffix(name, ext)
	if base == "" { // no extension really, e.g. "Makefile"
		base, ext = name, ""
	}
	suffix := fmt.Sprintf(" (%d)", i)
	if len(ext)+len(suffix) >= MaxNameLen-len(base) && len(ext) > MaxNameLen/2 {
		// An "extension" this long is no extension: cutting the base to
		// nothing would leave a name starting " (1)". Number the end.
		base, ext = name, ""
	}
	if over := len(base) + len(suffix) + len(ext) - MaxNameLen; over > 0 {
		base = truncateBytes(base, len(base)-over)
	}
	return base + suffix + ext
}

// List returns every file kept in the box, newest first.
func (b *Box) List() ([]File, error) {
	var all []File
	for _, f := range Folders {
		fs, err := b.ListFolder(f)
		if err != nil {
			return nil, err
		}
		all = append(all, fs...)
	}
	sortFiles(all)
	return all, nil
}

// ListFolder returns the files kept in one folder of the box, newest first.
func (b *Box) ListFolder(folder string) ([]File, error) {
	if err := checkFolder(folder); err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(filepath.Join(b.dir, folder))
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("files: list %s: %w", folder, clean(err))
	}
	var out []File
	for _, e := range entries {
		if !e.Type().IsRegular() || CheckName(e.Name()) != nil {
			continue // temp files and anything not put there by Keep
		}
		fi, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		out = append(out, fileOf(folder, e.Name(), fi))
	}
	sortFiles(out)
	return out, nil
}

func sortFiles(fs []File) {
	sort.SliceStable(fs, func(i, j int) bool {
		if !fs[i].Modified.Equal(fs[j].Modified) {
			return fs[i].Modified.After(fs[j].Modified)
		}
		return fs[i].Name < fs[j].Name
	})
}

// Stat describes the kept file called name.
func (b *Box) Stat(name string) (File, error) {
	if err := CheckName(name); err != nil {
		return File{}, err
	}
	f, _, err := b.find(name)
	if err != nil {
		return File{}, b.notFound(name)
	}
	return f, nil
}

// Read returns the contents and description of the kept file called name.
func (b *Box) Read(name string) ([]byte, File, error) {
	if err := CheckName(name); err != nil {
		return nil, File{}, err
	}
	f, p, err := b.find(name)
	if err != nil {
		return nil, File{}, b.notFound(name)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, File{}, b.notFound(name)
		}
		return nil, File{}, fmt.Errorf("files: read %q: %w", name, clean(err))
	}
	f.Size = int64(len(data))
	return data, f, nil
}

// Path returns the server-side path of the kept file called name, for
// handing it to a local browser (uploads). It must never be shown to the
// principal.
func (b *Box) Path(name string) (string, error) {
	if err := CheckName(name); err != nil {
		return "", err
	}
	_, p, err := b.find(name)
	if err != nil {
		return "", b.notFound(name)
	}
	return p, nil
}

// Delete removes the kept file called name; a name not kept is ErrNotFound.
func (b *Box) Delete(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	_, p, err := b.find(name)
	if err != nil {
		return b.notFound(name)
	}
	if err := os.Remove(p); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return b.notFound(name)
		}
		return fmt.Errorf("files: delete %q: %w", name, clean(err))
	}
	return nil
}

// find looks name up in every folder.
func (b *Box) find(name string) (File, string, error) {
	for _, folder := range Folders {
		p := filepath.Join(b.dir, folder, name)
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode().IsRegular() {
			return fileOf(folder, name, fi), p, nil
		}
	}
	return File{}, "", ErrNotFound
}

// notFound builds the error for a missing file, naming some files that do
// exist so that the caller has a next step.
func (b *Box) notFound(name string) error {
	all, _ := b.List()
	if len(all) == 0 {
		return fmt.Errorf("files: no file named %q: no files are kept yet (%w); screenshot and print keep files, a download lands in session://files/downloads, and session://files lists them", name, ErrNotFound)
	}
	const max = 10
	var names []string
	for i, f := range all {
		if i == max {
			names = append(names, fmt.Sprintf("and %d more", len(all)-max))
			break
		}
		names = append(names, fmt.Sprintf("%q", f.Name))
	}
	return fmt.Errorf("files: no file named %q; kept files are %s (%w); use one of those names, or read session://files for them all", name, strings.Join(names, ", "), ErrNotFound)
}

func fileOf(folder, name string, fi os.FileInfo) File {
	return File{
		Name:     name,
		Folder:   folder,
		Size:     fi.Size(),
		MimeType: MimeType(name),
		Modified: fi.ModTime(),
	}
}

var mimeTypes = map[string]string{
	".png":  "image/png",
	".jpg":  "image/jpeg",
	".jpeg": "image/jpeg",
	".gif":  "image/gif",
	".webp": "image/webp",
	".svg":  "image/svg+xml",
	".ico":  "image/x-icon",
	".pdf":  "application/pdf",
	".html": "text/html",
	".htm":  "text/html",
	".txt":  "text/plain",
	".log":  "text/plain",
	".md":   "text/markdown",
	".csv":  "text/csv",
	".tsv":  "text/tab-separated-values",
	".json": "application/json",
	".xml":  "application/xml",
	".js":   "text/javascript",
	".css":  "text/css",
	".zip":  "application/zip",
	".gz":   "application/gzip",
	".tar":  "application/x-tar",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".mp4":  "video/mp4",
	".webm": "video/webm",
	".mp3":  "audio/mpeg",
	".wav":  "audio/wav",
}

// MimeType returns the media type for a file name, judged by its extension
// alone; application/octet-stream when the extension is not known.
func MimeType(name string) string {
	if t, ok := mimeTypes[strings.ToLower(filepath.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// clean strips the file system path from an error, keeping only the reason
// (such as "permission denied" or "no space left on device").
func clean(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	var se *os.SyscallError
	if errors.As(err, &se) {
		return se.Err
	}
	return errors.New("file system error")
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return truncateBytes(s, n) + "…"
}

// truncateBytes cuts s to at most n bytes without splitting a UTF-8 sequence.
func truncateBytes(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
