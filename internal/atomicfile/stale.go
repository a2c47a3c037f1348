package atomicfile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// StaleAge is how old a temporary file must be before RemoveStale takes it
// for abandoned. A write takes milliseconds; the margin lets a second
// server sharing the folder finish its own writes undisturbed.
const StaleAge = 10 * time.Minute

// RemoveStale removes, under root, every temporary file of this package
// last modified more than age ago: what a crash in the middle of a write
// left behind. It returns how many it removed; a folder it cannot read is
// skipped, since a stale temporary file is only clutter.
func RemoveStale(root string, age time.Duration) int {
	cutoff := time.Now().Add(-age)
	n := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() || !strings.HasPrefix(d.Name(), TempPrefix) {
			return nil
		}
		if fi, err := d.Info(); err == nil && fi.ModTime().Before(cutoff) && os.Remove(path) == nil {
			n++
		}
		return nil
	})
	return n
}
