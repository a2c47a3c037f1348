package files

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

func newBox(t *testing.T, principal string) (*Store, *Box, string) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "store")
	s, err := Open(root)
	assert.NilError(t, err)
	b, err := s.For(principal)
	assert.NilError(t, err)
	return s, b, root
}

func TestKeepAndRead(t *testing.T) {
	_, b, root := newBox(t, "alice")
	f, err := b.Keep(Screenshots, "page.png", []byte("\x89PNG data"))
	assert.NilError(t, err)
	assert.Equal(t, f.Name, "page.png")
	assert.Equal(t, f.Folder, Screenshots)
	assert.Equal(t, f.Size, int64(9))
	assert.Equal(t, f.MimeType, "image/png")
	assert.Assert(t, !f.Modified.IsZero())

	data, g, err := b.Read("page.png")
	assert.NilError(t, err)
	assert.Equal(t, string(data), "\x89PNG data")
	assert.Equal(t, g.Name, f.Name)
	assert.Equal(t, g.Folder, Screenshots)

	st, err := b.Stat("page.png")
	assert.NilError(t, err)
	assert.Equal(t, st.Size, int64(9))

	p, err := b.Path("page.png")
	assert.NilError(t, err)
	assert.Assert(t, strings.HasPrefix(p, root))

	fi, err := os.Stat(p)
	assert.NilError(t, err)
	assert.Equal(t, fi.Mode().Perm(), os.FileMode(0o600))
	di, err := os.Stat(filepath.Dir(p))
	assert.NilError(t, err)
	assert.Equal(t, di.Mode().Perm(), os.FileMode(0o700))
	ri, err := os.Stat(filepath.Join(root, "alice"))
	assert.NilError(t, err)
	assert.Equal(t, ri.Mode().Perm(), os.FileMode(0o700))

	// No temp files are left behind.
	entries, err := os.ReadDir(filepath.Dir(p))
	assert.NilError(t, err)
	assert.Equal(t, len(entries), 1)
}

func TestKeepDuplicateNamesAcrossFolders(t *testing.T) {
	_, b, _ := newBox(t, "bob")
	want := []struct {
		folder, name, got string
	}{
		{Downloads, "report.csv", "report.csv"},
		{Downloads, "report.csv", "report (1).csv"},
		{Uploads, "report.csv", "report (2).csv"}, // unique across folders
		{Prints, "report.csv", "report (3).csv"},
		{Prints, "Makefile", "Makefile"},
		{Prints, "Makefile", "Makefile (1)"},
		{Prints, "archive.tar.gz", "archive.tar.gz"},
		{Prints, "archive.tar.gz", "archive.tar (1).gz"},
	}
	for i, w := range want {
		f, err := b.Keep(w.folder, w.name, []byte(fmt.Sprint(i)))
		assert.NilError(t, err)
		assert.Equal(t, f.Name, w.got)
		assert.Equal(t, f.Folder, w.folder)
	}
	for i, w := range want {
		data, f, err := b.Read(w.got)
		assert.NilError(t, err)
		assert.Equal(t, string(data), fmt.Sprint(i), "file %s", w.got)
		assert.Equal(t, f.Folder, w.folder)
	}
	all, err := b.List()
	assert.NilError(t, err)
	assert.Equal(t, len(all), len(want))
	dl, err := b.ListFolder(Downloads)
	assert.NilError(t, err)
	assert.Equal(t, len(dl), 2)
}

func TestKeepConcurrentSameName(t *testing.T) {
	s, _, _ := newBox(t, "carol")
	const n = 20
	names := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := s.For("carol") // separate Box values share the lock
			if err != nil {
				t.Error(err)
				return
			}
			f, err := b.Keep(Screenshots, "shot.png", []byte{byte(i)})
			if err != nil {
				t.Error(err)
				return
			}
			names[i] = f.Name
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, n := range names {
		assert.Assert(t, !seen[n], "name %q used twice", n)
		seen[n] = true
	}
	b, _ := s.For("carol")
	all, err := b.List()
	assert.NilError(t, err)
	assert.Equal(t, len(all), n)
}

func TestBadNames(t *testing.T) {
	_, b, root := newBox(t, "dave")
	for _, name := range []string{
		"", ".", "..", "../x.png", "a/b.png", `a\b.png`, "x\x00.png", "tab\t.png",
		".hidden", "downloads", "Screenshots", strings.Repeat("a", 201),
	} {
		t.Run(fmt.Sprintf("%q", name), func(t *testing.T) {
			_, err := b.Keep(Downloads, name, []byte("x"))
			assert.ErrorContains(t, err, "invalid file name")
			assert.ErrorContains(t, err, "a name is a plain file name")
			assert.Assert(t, !strings.Contains(err.Error(), root))
			_, err = b.Stat(name)
			assert.ErrorContains(t, err, "invalid file name")
			_, _, err = b.Read(name)
			assert.ErrorContains(t, err, "invalid file name")
		})
	}
	// 200 bytes is fine, and a duplicate of it stays within the limit.
	long := strings.Repeat("a", 196) + ".png"
	f, err := b.Keep(Downloads, long, nil)
	assert.NilError(t, err)
	assert.Equal(t, f.Name, long)
	f, err = b.Keep(Downloads, long, nil)
	assert.NilError(t, err)
	assert.Assert(t, len(f.Name) <= MaxNameLen)
	assert.Assert(t, strings.HasSuffix(f.Name, " (1).png"), f.Name)

	_, err = b.Keep("secrets", "x.txt", nil)
	assert.ErrorContains(t, err, `unknown folder "secrets": use one of screenshots, downloads, prints, uploads`)
}

func TestBadPrincipals(t *testing.T) {
	s, err := Open(t.TempDir())
	assert.NilError(t, err)
	for _, p := range []string{"", ".", "..", "a/b", "a b", "ü", "../etc", strings.Repeat("p", auth.MaxPrincipalLen+1)} {
		_, err := s.For(p)
		assert.ErrorContains(t, err, "invalid principal name", "principal %q", p)
	}
	for _, p := range []string{"alice", "agent-7", "team.ops_1", "..x", strings.Repeat("p", auth.MaxPrincipalLen)} {
		_, err := s.For(p)
		assert.NilError(t, err, "principal %q", p)
	}
}

func TestMissingFileNamesExisting(t *testing.T) {
	_, b, root := newBox(t, "erin")
	_, err := b.Stat("nope.png")
	assert.Assert(t, errors.Is(err, ErrNotFound))
	assert.ErrorContains(t, err, "no files are kept yet")

	for i := 0; i < 12; i++ {
		_, err := b.Keep(Downloads, fmt.Sprintf("f%02d.txt", i), []byte("x"))
		assert.NilError(t, err)
	}
	_, _, err = b.Read("nope.png")
	assert.Assert(t, errors.Is(err, ErrNotFound))
	assert.ErrorContains(t, err, `no file named "nope.png"; kept files are`)
	assert.ErrorContains(t, err, "and 2 more")
	assert.Assert(t, is.Contains(err.Error(), `"f11.txt"`))
	assert.Assert(t, !strings.Contains(err.Error(), root))
	_, err = b.Path("nope.png")
	assert.Assert(t, errors.Is(err, ErrNotFound))
}

func TestPrincipalsAreIsolated(t *testing.T) {
	s, a, _ := newBox(t, "alice")
	m, err := s.For("mallory")
	assert.NilError(t, err)
	_, err = a.Keep(Downloads, "secret.csv", []byte("alice's data"))
	assert.NilError(t, err)

	files, err := m.List()
	assert.NilError(t, err)
	assert.Equal(t, len(files), 0)
	for _, name := range []string{"secret.csv", "../alice/downloads/secret.csv"} {
		_, _, err = m.Read(name)
		assert.Assert(t, err != nil)
		assert.Assert(t, !strings.Contains(err.Error(), "secret.csv") || errors.Is(err, ErrNotFound) || strings.Contains(err.Error(), "invalid file name"))
		_, err = m.Path(name)
		assert.Assert(t, err != nil)
	}
	// Mallory keeping the same name gets her own file, unnumbered.
	f, err := m.Keep(Downloads, "secret.csv", []byte("mallory's data"))
	assert.NilError(t, err)
	assert.Equal(t, f.Name, "secret.csv")
	data, _, err := a.Read("secret.csv")
	assert.NilError(t, err)
	assert.Equal(t, string(data), "alice's data")
}

func TestSymlinkIsNotFollowed(t *testing.T) {
	_, b, root := newBox(t, "frank")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	assert.NilError(t, os.WriteFile(outside, []byte("outside"), 0o600))
	assert.NilError(t, os.Symlink(outside, filepath.Join(root, "frank", Downloads, "link.txt")))
	_, _, err := b.Read("link.txt")
	assert.Assert(t, errors.Is(err, ErrNotFound))
	files, err := b.List()
	assert.NilError(t, err)
	assert.Equal(t, len(files), 0)
}

func TestMimeType(t *testing.T) {
	for name, want := range map[string]string{
		"a.png": "image/png", "a.JPG": "image/jpeg", "a.jpeg": "image/jpeg", "a.pdf": "application/pdf",
		"a.html": "text/html", "a.txt": "text/plain", "a.csv": "text/csv", "a.json": "application/json",
		"a.zip": "application/zip", "a": "application/octet-stream", "a.weird": "application/octet-stream",
	} {
		assert.Equal(t, MimeType(name), want, name)
	}
}

func TestOpenErrorsHidePath(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	assert.NilError(t, os.WriteFile(blocker, nil, 0o600))
	_, err := Open(filepath.Join(blocker, "store"))
	assert.ErrorContains(t, err, "cannot create the store directory")
	assert.Assert(t, !strings.Contains(err.Error(), dir), err.Error())
}
