// Package atomicfile writes whole files so that a reader, or a crash, sees
// either the old contents or the new, never a mix and never an empty file.
//
// Both functions write into a temporary file in the destination's own
// directory and then move it into place under its final name. The
// temporary file's name starts with TempPrefix, so that one left behind by
// a crash can be recognised and removed later.
//
// Errors are *fs.PathError values naming the destination (never the
// temporary file) and keep the file system's reason, so errors.Is works on
// them (fs.ErrNotExist, fs.ErrPermission, fs.ErrExist). Their Op names the
// step that failed: "create" (the temporary file could not be made),
// "write", "chmod", "sync", "close", "rename" (Write), or "link" (Create).
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// TempPrefix starts the name of every temporary file this package makes.
// A file whose name has this prefix is never a finished file: it is either
// being written now or was abandoned by a crash.
const TempPrefix = ".tmp-atomic-"

// Write replaces the file at path with data, or creates it, with the
// permission bits perm (exactly, whatever the umask). The directory must
// exist. The steps, and why each is there:
//
//   - the temporary file is created in the same directory as path, because
//     a rename is only atomic within one file system;
//   - data is written and the mode set on the temporary file, so the file
//     never appears under its final name with partial contents or the
//     temporary file's private mode;
//   - the file is fsynced before the rename, or after a crash the new name
//     could point at a file whose contents never reached the disk;
//   - the rename swaps the new file in: readers see old or new, never a mix;
//   - the directory is fsynced so the rename itself survives a crash.
//
// On any failure the temporary file is removed and path is left as it was.
func Write(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, true)
}

// WriteUnsynced is Write without the two fsyncs: readers, and a crash of
// the writing process, still see the old contents or the new, but a crash
// of the machine may lose the write (or, on some file systems, leave the
// old contents). It suits state rewritten on every request that is only a
// best guess after the machine restarts anyway — where a workspace's
// browser was — and whose fsyncs would cost more than the request (about
// 5 ms each on a busy disk).
func WriteUnsynced(path string, data []byte, perm fs.FileMode) error {
	return write(path, data, perm, false)
}

func write(path string, data []byte, perm fs.FileMode, sync bool) error {
	tmp, err := writeTemp(path, data, perm, sync)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return &fs.PathError{Op: "rename", Path: path, Err: reason(err)}
	}
	if sync {
		syncDir(filepath.Dir(path))
	}
	return nil
}

// Create is Write for a file that must not exist yet: it never replaces
// anything at path. When path is taken it returns an error satisfying
// errors.Is(err, fs.ErrExist), so a caller can try another name.
//
// The finished temporary file is hard-linked to path, because a link,
// unlike a rename, fails when the name is taken, with no window between
// checking and taking. On a file system that cannot make hard links it
// falls back to checking that path is free and renaming; that fallback is
// only safe when the caller lets no one else create files in the directory
// at the same time.
func Create(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm, true)
	if err != nil {
		return err
	}
	err = os.Link(tmp, path)
	if err != nil && !errors.Is(err, fs.ErrExist) {
		// No hard links here (FAT, some network file systems): a rename is
		// the only way to put the file in place.
		if _, statErr := os.Lstat(path); statErr == nil {
			err = fs.ErrExist
		} else {
			err = os.Rename(tmp, path)
		}
	}
	// Linked or not, the temporary name is done with. It goes before the
	// directory sync, so one sync makes both changes durable.
	os.Remove(tmp)
	if err != nil {
		return &fs.PathError{Op: "link", Path: path, Err: reason(err)}
	}
	syncDir(filepath.Dir(path))
	return nil
}

// writeTemp writes data with mode perm to a new temporary file beside path,
// synced (when sync is set) and closed, and returns its name. On failure
// nothing is left.
func writeTemp(path string, data []byte, perm fs.FileMode, sync bool) (name string, err error) {
	f, err := os.CreateTemp(filepath.Dir(path), TempPrefix+"*")
	if err != nil {
		return "", &fs.PathError{Op: "create", Path: path, Err: reason(err)}
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err := f.Write(data); err != nil {
		return "", &fs.PathError{Op: "write", Path: path, Err: reason(err)}
	}
	// Chmod before Sync, so the synced file carries its final mode too.
	if err := f.Chmod(perm); err != nil {
		return "", &fs.PathError{Op: "chmod", Path: path, Err: reason(err)}
	}
	if sync {
		if err := f.Sync(); err != nil {
			return "", &fs.PathError{Op: "sync", Path: path, Err: reason(err)}
		}
	}
	if err := f.Close(); err != nil {
		// Closing twice in the deferred cleanup is harmless.
		return "", &fs.PathError{Op: "close", Path: path, Err: reason(err)}
	}
	return f.Name(), nil
}

// syncDir makes the directory's entries durable. Its errors are ignored:
// by now the new file is in place and visible, a failure only weakens what
// survives a power cut, and some systems (Windows) cannot sync a directory.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// reason strips the temporary file's name from an os error, keeping only
// why it failed, since that name means nothing to the caller.
func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
