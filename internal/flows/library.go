package flows

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// The library is a read-only shelf of flows an operator publishes: every
// principal can list, read and run them, and none but an operator can
// change or delete them. It is a folder of flow documents, one per file,
// beside the principals' folders (WithLibrary), so an operator can also
// publish by copying files in.

// LibraryOwner is the owner a library flow is listed with.
const LibraryOwner = "library"

// Option configures a Store.
type Option func(*Store)

// WithLibrary keeps the library in dir; without it there is none.
func WithLibrary(dir string) Option { return func(s *Store) { s.library = dir } }

// LibraryError refuses a change to a library flow by a caller who is not
// an operator.
type LibraryError struct{ Name string }

func (e *LibraryError) Error() string {
	return fmt.Sprintf("The flow %q is in the shared library, which only an operator can change. Run it with run_flow as it is, or save a copy of your own under another name with save_flow", e.Name)
}

// InLibrary reports whether the library holds a flow of that name.
func (s *Store) InLibrary(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, err := s.readLibrary(name)
	return err == nil
}

func (s *Store) readLibrary(name string) (Flow, error) {
	if s.library == "" || !validName(name) {
		return Flow{}, ErrNotFound
	}
	b, err := os.ReadFile(filepath.Join(s.library, name+".json"))
	if err != nil {
		return Flow{}, ErrNotFound
	}
	var f Flow
	if err := json.Unmarshal(b, &f); err != nil || f.Name != name {
		return Flow{}, fmt.Errorf("the library flow %q is damaged; an operator can publish it again with save_flow library=true", name)
	}
	return f, nil
}

func (s *Store) libraryFlows() []Flow {
	if s.library == "" {
		return nil
	}
	var out []Flow
	for _, name := range flowFiles(s.library) {
		if f, err := s.readLibrary(name); err == nil {
			out = append(out, f)
		}
	}
	return out
}

// Publish puts f into the library, replacing one of the same name; the
// caller has checked that an operator asks. It reports whether it is new.
func (s *Store) Publish(f Flow) (created bool, err error) {
	if s.library == "" {
		return false, errors.New("this server has no flow library")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return writeFlow(s.library, f)
}

// Unpublish removes a flow from the library; the caller has checked that
// an operator asks.
func (s *Store) Unpublish(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.readLibrary(name); err != nil {
		return fmt.Errorf("the library has no flow named %q; flow://flows lists the library's flows (library: true)", name)
	}
	if err := os.Remove(filepath.Join(s.library, name+".json")); err != nil {
		return fmt.Errorf("cannot delete the library flow: %w", errors.Unwrap(err))
	}
	return nil
}
