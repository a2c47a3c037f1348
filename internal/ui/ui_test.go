package ui

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// roots are the inputs of the build, as scripts/stamp.mjs lists them.
var roots = []string{"index.html", "package.json", "package-lock.json", "tsconfig.json", "vite.config.ts", "vite.host.config.ts", "vite.admin.config.ts", "src", "e2e", "admin"}

// built are the outputs the stamp vouches for: the shell, the e2e host
// page and every file of the admin page's build (../admin/dist, embedded
// by package admin), whose names are hashed.
func built(t *testing.T) []string {
	t.Helper()
	out := []string{"dist/index.html", "testdata/host.html"}
	err := filepath.WalkDir("../admin/dist", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && !strings.HasPrefix(d.Name(), ".") {
			out = append(out, filepath.ToSlash(p))
		}
		return err
	})
	if err != nil {
		t.Fatalf("walking ../admin/dist: %v (%s)", err, rebuild)
	}
	return out
}

const gzipLimit = 110 * 1024

const rebuild = "run `npm ci --prefix internal/ui && npm run build --prefix internal/ui` and commit internal/ui/dist, internal/ui/testdata and internal/admin/dist"

func fileSHA(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, r := range roots {
		err := filepath.WalkDir(r, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p != r && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.Type().IsRegular() {
				files = append(files, filepath.ToSlash(p))
			}
			return nil
		})
		if err != nil {
			t.Fatalf("walking %s: %v", r, err)
		}
	}
	sort.Strings(files)
	return files
}

type stamp struct {
	sources string
	files   map[string]string // path -> sha256
	order   []string
	built   map[string]string
}

func readStamp(t *testing.T) stamp {
	t.Helper()
	b, err := os.ReadFile("dist/source.sha256")
	if err != nil {
		t.Fatalf("dist/source.sha256: %v (%s)", err, rebuild)
	}
	st := stamp{files: map[string]string{}, built: map[string]string{}}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 0 || strings.HasPrefix(f[0], "#"):
		case f[0] == "sources" && len(f) == 2:
			st.sources = f[1]
		case f[0] == "file" && len(f) == 3:
			st.files[f[2]] = f[1]
			st.order = append(st.order, f[2])
		case f[0] == "built" && len(f) == 3:
			st.built[f[2]] = f[1]
		default:
			t.Fatalf("dist/source.sha256: unreadable line %q", sc.Text())
		}
	}
	return st
}

// TestBuildIsFresh fails when a source of the shell (or of the e2e host page)
// changed since dist/index.html was built, or a built file was edited by hand.
func TestBuildIsFresh(t *testing.T) {
	st := readStamp(t)
	var problems []string
	var lines strings.Builder
	seen := map[string]bool{}
	for _, f := range sourceFiles(t) {
		seen[f] = true
		sum := fileSHA(t, f)
		fmt.Fprintf(&lines, "file %s %s\n", sum, f)
		switch old, ok := st.files[f]; {
		case !ok:
			problems = append(problems, f+" is new")
		case old != sum:
			problems = append(problems, f+" changed")
		}
	}
	for _, f := range st.order {
		if !seen[f] {
			problems = append(problems, f+" is gone")
		}
	}
	if len(problems) == 0 {
		all := sha256.Sum256([]byte(lines.String()))
		if got := hex.EncodeToString(all[:]); got != st.sources {
			problems = append(problems, "the sources hash differs ("+got+" != "+st.sources+")")
		}
	}
	for _, f := range built(t) {
		want, ok := st.built[f]
		switch {
		case !ok:
			problems = append(problems, f+" is not stamped")
		case fileSHA(t, f) != want:
			problems = append(problems, f+" is not the file the build wrote")
		}
	}
	if len(problems) > 0 {
		t.Fatalf("dist/index.html is stale:\n  %s\n%s", strings.Join(problems, "\n  "), rebuild)
	}
}

// TestShellSize keeps the shell within its gzip budget.
func TestShellSize(t *testing.T) {
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	if _, err := zw.Write(Shell); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("dist/index.html: %d bytes, %.1f KiB gzipped", len(Shell), float64(buf.Len())/1024)
	if buf.Len() > gzipLimit {
		t.Fatalf("dist/index.html is %d bytes gzipped, over the %d byte budget", buf.Len(), gzipLimit)
	}
}

// TestShellIsSelfContained: one HTML file, nothing loaded from elsewhere.
func TestShellIsSelfContained(t *testing.T) {
	s := string(Shell)
	if !strings.HasPrefix(strings.ToLower(strings.TrimSpace(s)), "<!doctype html>") {
		t.Fatal("dist/index.html does not start with <!doctype html>")
	}
	for _, bad := range []string{`<script src=`, `<link rel="stylesheet"`, `type="module" src=`, `crossorigin src=`} {
		if strings.Contains(s, bad) {
			t.Errorf("dist/index.html loads a separate file (%s)", bad)
		}
	}
	if !strings.Contains(s, `<div id="app">`) {
		t.Error(`dist/index.html has no <div id="app">`)
	}
}
