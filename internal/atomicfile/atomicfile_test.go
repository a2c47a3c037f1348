package atomicfile_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
)

// op is the signature Write and Create share.
type op func(path string, data []byte, perm fs.FileMode) error

var ops = []struct {
	name string
	f    op
}{
	{"Write", atomicfile.Write},
	{"WriteUnsynced", atomicfile.WriteUnsynced},
	{"Create", atomicfile.Create},
}

func TestNewFile(t *testing.T) {
	for _, o := range ops {
		for _, perm := range []fs.FileMode{0o600, 0o644, 0o755} {
			t.Run(o.name+"/"+perm.String(), func(t *testing.T) {
				dir := t.TempDir()
				p := filepath.Join(dir, "f.txt")
				assert.NilError(t, o.f(p, []byte("hello\n"), perm))
				have, err := os.ReadFile(p)
				assert.NilError(t, err)
				assert.Equal(t, string(have), "hello\n")
				fi, err := os.Stat(p)
				assert.NilError(t, err)
				// Exactly perm, whatever the umask: callers rely on 0600 for
				// private files and 0644 for published ones.
				assert.Equal(t, fi.Mode().Perm(), perm)
				assertNoTemp(t, dir)
			})
		}
	}
}

func TestExistingFile(t *testing.T) {
	for _, tc := range []struct {
		name    string
		f       op
		want    string // the contents afterwards
		wantErr error
	}{
		{"Write replaces", atomicfile.Write, "new", nil},
		{"WriteUnsynced replaces", atomicfile.WriteUnsynced, "new", nil},
		{"Create refuses", atomicfile.Create, "old", fs.ErrExist},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.txt")
			assert.NilError(t, os.WriteFile(p, []byte("old"), 0o600))
			err := tc.f(p, []byte("new"), 0o600)
			if tc.wantErr == nil {
				assert.NilError(t, err)
			} else {
				assert.Assert(t, errors.Is(err, tc.wantErr), "got %v", err)
				assertOp(t, err, "link", p)
			}
			have, rerr := os.ReadFile(p)
			assert.NilError(t, rerr)
			assert.Equal(t, string(have), tc.want)
			assertNoTemp(t, dir)
		})
	}
}

func TestFailureLeavesNoTemp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		f       op
		setup   func(t *testing.T, p string)
		wantOp  string
		wantErr error
	}{
		{
			name: "Write onto a directory",
			f:    atomicfile.Write,
			// The temporary file is written in full before the rename fails,
			// so this checks the cleanup after the last step.
			setup:  func(t *testing.T, p string) { assert.NilError(t, os.Mkdir(p, 0o700)) },
			wantOp: "rename",
		},
		{
			name:    "Create onto a directory",
			f:       atomicfile.Create,
			setup:   func(t *testing.T, p string) { assert.NilError(t, os.Mkdir(p, 0o700)) },
			wantOp:  "link",
			wantErr: fs.ErrExist,
		},
		{
			name:   "Write onto a directory that is not empty",
			f:      atomicfile.Write,
			setup:  func(t *testing.T, p string) { assert.NilError(t, os.MkdirAll(filepath.Join(p, "sub"), 0o700)) },
			wantOp: "rename",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "target")
			tc.setup(t, p)
			err := tc.f(p, []byte("data"), 0o644)
			assert.Assert(t, err != nil)
			if tc.wantErr != nil {
				assert.Assert(t, errors.Is(err, tc.wantErr), "got %v", err)
			}
			assertOp(t, err, tc.wantOp, p)
			fi, serr := os.Stat(p)
			assert.NilError(t, serr)
			assert.Assert(t, fi.IsDir(), "the directory was replaced")
			assertNoTemp(t, dir)
		})
	}
}

func TestMissingDirectory(t *testing.T) {
	for _, o := range ops {
		t.Run(o.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "no", "such", "f.txt")
			err := o.f(p, []byte("x"), 0o644)
			assert.Assert(t, errors.Is(err, fs.ErrNotExist), "got %v", err)
			assertOp(t, err, "create", p)
			entries, rerr := os.ReadDir(dir)
			assert.NilError(t, rerr)
			assert.Check(t, is.Len(entries, 0), "the directory was created")
		})
	}
}

// TestCreateRace has many writers race for one name: exactly one wins, and
// its bytes are the file's.
func TestCreateRace(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	const n = 16
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			errs[i] = atomicfile.Create(p, []byte{byte('a' + i)}, 0o600)
		})
	}
	wg.Wait()
	var won []int
	for i, err := range errs {
		if err == nil {
			won = append(won, i)
			continue
		}
		assert.Assert(t, errors.Is(err, fs.ErrExist), "writer %d: %v", i, err)
	}
	assert.Assert(t, is.Len(won, 1))
	have, err := os.ReadFile(p)
	assert.NilError(t, err)
	assert.Equal(t, string(have), string(rune('a'+won[0])))
	assertNoTemp(t, dir)
}

// assertOp checks that err is the documented *fs.PathError: it names the
// destination, not the temporary file, and the step that failed.
func assertOp(t *testing.T, err error, op, path string) {
	t.Helper()
	var pe *fs.PathError
	assert.Assert(t, errors.As(err, &pe), "%T %v is not an *fs.PathError", err, err)
	assert.Equal(t, pe.Op, op)
	assert.Equal(t, pe.Path, path)
	assert.Assert(t, !strings.Contains(err.Error(), atomicfile.TempPrefix), err.Error())
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	assert.NilError(t, err)
	for _, e := range entries {
		assert.Check(t, !strings.HasPrefix(e.Name(), atomicfile.TempPrefix), "temporary file %s left behind", e.Name())
	}
}
