package atomicfile_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"gotest.tools/v3/assert"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
)

func TestRemoveStale(t *testing.T) {
	root := t.TempDir()
	sub := filepath.Join(root, "alice", "flows")
	assert.NilError(t, os.MkdirAll(sub, 0o700))
	old := time.Now().Add(-time.Hour)
	files := []struct {
		path    string
		modTime time.Time
		stays   bool
	}{
		{filepath.Join(sub, atomicfile.TempPrefix+"123"), old, false},       // abandoned by a crash
		{filepath.Join(root, atomicfile.TempPrefix+"456"), old, false},      // at the top too
		{filepath.Join(sub, atomicfile.TempPrefix+"789"), time.Now(), true}, // being written now
		{filepath.Join(sub, "login.json"), old, true},                       // a finished file
		{filepath.Join(sub, "x"+atomicfile.TempPrefix+"1"), old, true},      // only the prefix counts
	}
	for _, f := range files {
		assert.NilError(t, os.WriteFile(f.path, []byte("x"), 0o600))
		assert.NilError(t, os.Chtimes(f.path, f.modTime, f.modTime))
	}
	assert.Equal(t, atomicfile.RemoveStale(root, atomicfile.StaleAge), 2)
	for _, f := range files {
		_, err := os.Stat(f.path)
		assert.Equal(t, err == nil, f.stays, f.path)
	}
	assert.Equal(t, atomicfile.RemoveStale(filepath.Join(root, "missing"), atomicfile.StaleAge), 0)
}
