package workspaces

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/atomicfile"
	"github.com/selenium-flow/selenium-flow/internal/auth"
)

// fileStore is the embedded store: dir/OWNER/NAME.json, each written
// whole with atomicfile. The TTL slides with the file's modification
// time, which a Get moves forward without rewriting the file.
type fileStore struct {
	dir string
	ttl time.Duration
	now func() time.Time
}

func openFiles(dir string, ttl time.Duration) (*fileStore, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, errors.New("workspaces: the data folder (FLOW_DATA_DIR) cannot hold workspaces")
	}
	return &fileStore{dir: dir, ttl: ttl, now: time.Now}, nil
}

func (f *fileStore) path(owner, name string) (string, error) {
	if !auth.ValidPrincipal(owner) || !ValidName(name) {
		return "", errors.New("workspaces: invalid owner or workspace name")
	}
	return filepath.Join(f.dir, owner, name+".json"), nil
}

func (f *fileStore) Get(_ context.Context, owner, name string) (Record, bool, error) {
	p, err := f.path(owner, name)
	if err != nil {
		return Record{}, false, err
	}
	fi, err := os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		return Record{}, false, nil
	}
	if err != nil {
		return Record{}, false, storeErr("read a workspace", errors.New("the file cannot be read"))
	}
	now := f.now()
	if now.Sub(fi.ModTime()) > f.ttl {
		_ = os.Remove(p)
		return Record{}, false, nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return Record{}, false, storeErr("read a workspace", errors.New("the file cannot be read"))
	}
	var r Record
	if err := json.Unmarshal(data, &r); err != nil || r.Owner != owner || r.Name != name {
		// A damaged record is no workspace: the next Put replaces it.
		return Record{}, false, nil
	}
	_ = os.Chtimes(p, now, now)
	return r, true, nil
}

func (f *fileStore) Put(_ context.Context, r Record) error {
	p, err := f.path(r.Owner, r.Name)
	if err != nil {
		return err
	}
	return writeJSON(p, r, "write a workspace")
}

// writeJSON writes v to p as JSON, atomically (without fsync: a killed
// process loses nothing, see the package doc), making its folder first;
// what names the operation in the error.
func writeJSON(p string, v any, what string) error {
	data, err := json.Marshal(v)
	if err != nil {
		return storeErr(what, err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return storeErr(what, errors.New("the folder cannot be made"))
	}
	if err := atomicfile.WriteUnsynced(p, data, 0o600); err != nil {
		return storeErr(what, errors.New("the file cannot be written"))
	}
	return nil
}

func (f *fileStore) List(ctx context.Context, owner string) ([]Record, error) {
	if !auth.ValidPrincipal(owner) {
		return nil, errors.New("workspaces: invalid owner")
	}
	ents, err := os.ReadDir(filepath.Join(f.dir, owner))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, storeErr("list workspaces", errors.New("the folder cannot be read"))
	}
	var out []Record
	for _, e := range ents {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !ValidName(name) {
			continue
		}
		if r, ok, err := f.Get(ctx, owner, name); err == nil && ok {
			out = append(out, r)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func (f *fileStore) Close() error { return nil }
