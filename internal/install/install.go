package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
	"github.com/selenium-flow/selenium-flow/resources"
)

// File is one file of a skill as the table publishes it.
type File struct {
	// Path is where the file goes inside the skills directory, with
	// slashes: "selenium-flow/SKILL.md", "selenium-flow/references/base.md".
	Path string
	// URI is the resource that serves the same bytes.
	URI  string
	Body []byte
}

// Files lists every published skill file in the table's entries: each
// skill://<id>/SKILL.md and skill://<id>/references/<file>, the shared base
// page among the references. Templates and other resources are skipped.
func Files(entries []resources.Entry) ([]File, error) {
	var out []File
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.URI, "skill://")
		if !ok || e.Template || e.Hidden {
			continue
		}
		clean := path.Clean(rest)
		if clean != rest || strings.HasPrefix(clean, "../") || strings.Count(clean, "/") == 0 {
			return nil, fmt.Errorf("skill resource %s does not name a file inside its skill; it cannot be installed", e.URI)
		}
		if e.Kind != resources.Embedded {
			return nil, fmt.Errorf("skill resource %s is read at run time; only embedded skills can be installed", e.URI)
		}
		out = append(out, File{Path: clean, URI: e.URI, Body: []byte(e.Body)})
	}
	if len(out) == 0 {
		return nil, errors.New("this server publishes no skill (no skill://… resource), so there is nothing to install")
	}
	slices.SortFunc(out, func(a, b File) int { return strings.Compare(a.Path, b.Path) })
	return out, nil
}

// Action is what Install did, or would do, with one file.
type Action int

const (
	// Written: the file was missing or differed and has been written.
	Written Action = iota
	// Unchanged: the file on disk already holds exactly these bytes.
	Unchanged
	// WouldWrite: a dry run found the file missing or different.
	WouldWrite
	// Changed: the file differs and was left alone, since --force was not given.
	Changed
)

func (a Action) String() string {
	switch a {
	case Written:
		return "written"
	case Unchanged:
		return "unchanged"
	case WouldWrite:
		return "would write"
	case Changed:
		return "changed"
	}
	return fmt.Sprintf("Action(%d)", int(a))
}

// Result is one file's outcome.
type Result struct {
	// Path is the file's full path on disk.
	Path   string
	URI    string
	Action Action
}

// Option configures Install.
type Option func(*options)

type options struct {
	force, dryRun bool
}

// WithForce lets Install overwrite files that differ from what it would write.
func WithForce(force bool) Option { return func(o *options) { o.force = force } }

// WithDryRun makes Install report what it would do and write nothing.
func WithDryRun(dryRun bool) Option { return func(o *options) { o.dryRun = dryRun } }

// ChangedError refuses to overwrite files that someone changed.
type ChangedError struct {
	Paths []string
}

func (e *ChangedError) Error() string {
	what, it := "a file that differs", "it"
	if len(e.Paths) > 1 {
		what, it = fmt.Sprintf("%d files that differ", len(e.Paths)), "them"
	}
	return fmt.Sprintf("refusing to overwrite %s from what this server serves: %s. Nothing was written; keep your copy elsewhere, or run again with --force to replace %s.",
		what, strings.Join(e.Paths, ", "), it)
}

// Install writes files into dir, the client's skills directory. A file
// already holding the same bytes is left alone; a file holding other bytes
// is not overwritten unless WithForce is given, and then nothing at all is
// written, so an install never stops half-way over someone's changes. Each
// write goes to a temporary file in the same directory and is renamed into
// place. The results come in the order of files.
func Install(dir string, files []File, opts ...Option) ([]Result, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	results := make([]Result, len(files))
	var changed []string
	for i, f := range files {
		p := filepath.Join(dir, filepath.FromSlash(f.Path))
		results[i] = Result{Path: p, URI: f.URI}
		have, err := os.ReadFile(p)
		switch {
		case err == nil && bytes.Equal(have, f.Body):
			results[i].Action = Unchanged
		case err == nil && !o.force:
			results[i].Action = Changed
			changed = append(changed, p)
		case err == nil || errors.Is(err, fs.ErrNotExist):
			results[i].Action = WouldWrite
		default:
			return nil, fmt.Errorf("cannot read %s to compare it: %w", p, err)
		}
	}
	if len(changed) > 0 {
		return results, &ChangedError{Paths: changed}
	}
	if o.dryRun {
		return results, nil
	}
	for i, f := range files {
		if results[i].Action != WouldWrite {
			continue
		}
		if err := writeFile(results[i].Path, f.Body); err != nil {
			return results[:i], err
		}
		results[i].Action = Written
	}
	return results, nil
}

// writeFile puts data at p by way of atomicfile, creating p's directory
// first, so a reader never sees half a file. Its errors say which step
// failed, in Install's words, with the file system's reason.
func writeFile(p string, data []byte) error {
	dir := filepath.Dir(p)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %w", dir, err)
	}
	err := atomicfile.Write(p, data, 0o644)
	var pe *fs.PathError
	if err == nil || !errors.As(err, &pe) {
		return err
	}
	switch pe.Op {
	case "create":
		return fmt.Errorf("cannot write in %s: %w", dir, pe.Err)
	case "rename":
		return fmt.Errorf("cannot put %s in place: %w", p, pe.Err)
	}
	return fmt.Errorf("cannot write %s: %w", p, pe.Err)
}
