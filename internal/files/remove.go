package files

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// Remove deletes the kept file called name, from whichever folder holds
// it. The operator's admin page tidies kept files with it.
func (b *Box) Remove(name string) error {
	if err := CheckName(name); err != nil {
		return err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	_, p, err := b.find(name)
	if err != nil {
		return b.notFound(name)
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("files: remove %q: %w", name, clean(err))
	}
	return nil
}

// Clear deletes every file kept in folder and reports how many it removed.
func (b *Box) Clear(folder string) (int, error) {
	if err := checkFolder(folder); err != nil {
		return 0, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	fs, err := b.ListFolder(folder)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, f := range fs {
		if err := os.Remove(filepath.Join(b.dir, folder, f.Name)); err != nil && !os.IsNotExist(err) {
			return n, fmt.Errorf("files: clear %s: %w", folder, clean(err))
		}
		n++
	}
	return n, nil
}

// Principals lists the principals that have a box, so an operator can see
// every principal's files without knowing the names beforehand.
func (s *Store) Principals() []string {
	ents, _ := os.ReadDir(s.root)
	var out []string
	for _, e := range ents {
		if e.IsDir() && auth.ValidPrincipal(e.Name()) {
			out = append(out, e.Name())
		}
	}
	return out
}

// Has reports whether the principal has a box, without creating one.
func (s *Store) Has(principal string) bool {
	if !auth.ValidPrincipal(principal) {
		return false
	}
	fi, err := os.Stat(filepath.Join(s.root, principal))
	return err == nil && fi.IsDir()
}
