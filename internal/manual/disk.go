package manual

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
)

// Trees are the directories under docs/ that the manual owns entirely:
// writing removes any file in them that it did not generate.
var Trees = []string{"manual", "site"}

// Files are every file of both trees, by slash path relative to docs/:
// manual/… holds the Markdown pages and assets, site/… the HTML pages, the
// assets and the style sheet.
func (m *Manual) Files() (map[string][]byte, error) {
	out := map[string][]byte{}
	for _, p := range m.Pages {
		out["manual/"+p.Path] = []byte(p.Markdown)
		h, err := renderHTML(p)
		if err != nil {
			return nil, err
		}
		out["site/"+htmlPath(p.Path)] = h
	}
	for name, data := range m.Assets {
		out["manual/"+name] = data
		out["site/"+name] = data
	}
	out["site/style.css"] = []byte(styleCSS)
	return out, nil
}

// Stale compares files with what is under docs and lists every file that
// is missing, different, or no longer generated.
func Stale(docs string, files map[string][]byte) ([]string, error) {
	var stale []string
	for name, data := range files {
		have, err := os.ReadFile(filepath.Join(docs, filepath.FromSlash(name)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			stale = append(stale, name+" (missing)")
		case err != nil:
			return nil, err
		case !bytes.Equal(have, data):
			stale = append(stale, name+" (differs)")
		}
	}
	extra, err := extras(docs, files)
	if err != nil {
		return nil, err
	}
	for _, name := range extra {
		stale = append(stale, name+" (no longer generated)")
	}
	slices.Sort(stale)
	return stale, nil
}

// Write puts files under docs, each by temporary file and rename, and
// removes from the trees every file it did not generate.
func Write(docs string, files map[string][]byte) error {
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		p := filepath.Join(docs, filepath.FromSlash(name))
		if have, err := os.ReadFile(p); err == nil && bytes.Equal(have, files[name]) {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := atomicfile.Write(p, files[name], 0o644); err != nil {
			return err
		}
	}
	extra, err := extras(docs, files)
	if err != nil {
		return err
	}
	for _, name := range extra {
		if err := os.Remove(filepath.Join(docs, filepath.FromSlash(name))); err != nil {
			return err
		}
	}
	for _, tree := range Trees {
		if err := removeEmptyDirs(filepath.Join(docs, tree)); err != nil {
			return err
		}
	}
	return nil
}

// extras are the files in the trees that files does not hold.
func extras(docs string, files map[string][]byte) ([]string, error) {
	var out []string
	for _, tree := range Trees {
		root := filepath.Join(docs, tree)
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && p == root {
				return filepath.SkipDir
			}
			if err != nil || d.IsDir() {
				return err
			}
			r, err := filepath.Rel(docs, p)
			if err != nil {
				return err
			}
			if name := filepath.ToSlash(r); files[name] == nil {
				out = append(out, name)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func removeEmptyDirs(root string) error {
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if errors.Is(err, fs.ErrNotExist) && p == root {
			return filepath.SkipDir
		}
		if err == nil && d.IsDir() && p != root {
			dirs = append(dirs, p)
		}
		return err
	})
	if err != nil {
		return err
	}
	slices.Reverse(dirs)
	for _, d := range dirs {
		if entries, err := os.ReadDir(d); err == nil && len(entries) == 0 {
			if err := os.Remove(d); err != nil {
				return err
			}
		}
	}
	return nil
}

// StaleError says the manual on disk is not what the server generates.
type StaleError struct{ Files []string }

func (e *StaleError) Error() string {
	list := e.Files
	more := ""
	if len(list) > 10 {
		list, more = list[:10], fmt.Sprintf(", and %d more", len(e.Files)-10)
	}
	return fmt.Sprintf("docs/ is stale (%s%s): run make docs and commit docs/manual and docs/site", strings.Join(list, ", "), more)
}
