package browser

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// Download is a file the browser has downloaded in this session.
type Download struct {
	// Name is the file name, without any directory.
	Name string `json:"name"`
	// Size in bytes; -1 when the endpoint does not say (Selenium Grid).
	Size int64 `json:"size"`
}

// How long Downloads and FetchDownload wait for downloads in progress.
const (
	downloadSettle = 10 * time.Second
	downloadAppear = 2 * time.Second
)

const partialSuffix = ".crdownload"

// maxDownload bounds the size of a file FetchDownload returns.
const maxDownload = 256 << 20

// Downloads lists the files downloaded in this session. It waits briefly
// for downloads still in progress to finish (and, when there are none yet,
// for a download just started to appear). Partial files are never listed.
func (s *Session) Downloads(ctx context.Context) ([]Download, error) {
	return s.downloads(ctx, true)
}

// FinishedDownloads lists the files downloaded in this session without
// waiting for one to appear: a listing of kept files calls it, and it
// costs a directory read (a Grid: one request) unless a download is in
// flight, which it waits for as Downloads does.
func (s *Session) FinishedDownloads(ctx context.Context) ([]Download, error) {
	return s.downloads(ctx, false)
}

func (s *Session) downloads(ctx context.Context, appear bool) ([]Download, error) {
	const op = "list downloads"
	scan := s.scanDownloads
	if s.d.remote {
		scan = s.scanGrid(ctx)
	} else if err := s.alive(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	start := time.Now()
	for {
		done, partial, err := scan()
		if err != nil {
			return nil, s.fail(op, err)
		}
		if !appear && partial == 0 {
			return done, nil
		}
		waited := time.Since(start)
		settled := partial == 0 && (len(done) > 0 || waited >= downloadAppear)
		if settled || waited >= downloadSettle {
			return done, nil
		}
		select {
		case <-ctx.Done():
			return done, nil
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// scanGrid lists the managed downloads of a Grid session, sizes unknown.
func (s *Session) scanGrid(ctx context.Context) func() ([]Download, int, error) {
	return func() ([]Download, int, error) {
		names, err := s.gridFiles(ctx)
		if err != nil {
			return nil, 0, err
		}
		var done []Download
		partial := 0
		for _, n := range names {
			if isPartial(n) {
				partial++
				continue
			}
			done = append(done, Download{Name: n, Size: -1})
		}
		return done, partial, nil
	}
}

func isPartial(name string) bool {
	return strings.HasSuffix(name, partialSuffix) || strings.HasPrefix(name, ".com.google.Chrome.") || strings.HasPrefix(name, ".org.chromium.")
}

// alive reports a closed or ended session.
func (s *Session) alive() error {
	if err := s.begin(); err != nil {
		return err
	}
	s.mu.Unlock()
	return nil
}

func (s *Session) scanDownloads() (done []Download, partial int, err error) {
	entries, err := os.ReadDir(s.downloadDir)
	if err != nil {
		return nil, 0, safef("the download directory cannot be read")
	}
	for _, e := range entries {
		name := e.Name()
		if isPartial(name) {
			partial++
			continue
		}
		if !e.Type().IsRegular() {
			continue
		}
		fi, err := e.Info()
		if err != nil {
			continue
		}
		done = append(done, Download{Name: name, Size: fi.Size()})
	}
	sort.Slice(done, func(i, j int) bool { return done[i].Name < done[j].Name })
	return done, partial, nil
}

// FetchDownload returns the contents of a file downloaded in this session.
func (s *Session) FetchDownload(ctx context.Context, name string) ([]byte, error) {
	op := fmt.Sprintf("fetch download %q", truncate(name, 100))
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") {
		return nil, fmt.Errorf("%s: give the plain file name as listed by the downloads", op)
	}
	if s.d.remote {
		data, err := s.gridFetch(ctx, name)
		if err != nil {
			return nil, s.fail(op, err)
		}
		return data, nil
	}
	if err := s.alive(); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	p := filepath.Join(s.downloadDir, name)
	start := time.Now()
	for {
		fi, err := os.Lstat(p)
		if err == nil && fi.Mode().IsRegular() {
			if _, perr := os.Stat(p + partialSuffix); perr != nil { // complete
				if fi.Size() > maxDownload {
					return nil, fmt.Errorf("%s: the file is larger than %d MiB", op, maxDownload>>20)
				}
				data, err := os.ReadFile(p)
				if err != nil {
					return nil, fmt.Errorf("%s: the file cannot be read", op)
				}
				return data, nil
			}
		}
		done, partial, serr := s.scanDownloads()
		if serr != nil {
			return nil, fmt.Errorf("%s: %w", op, serr)
		}
		if partial == 0 || time.Since(start) >= downloadSettle || ctx.Err() != nil {
			return nil, fmt.Errorf("%s: no such download; %s", op, downloadNames(done))
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func downloadNames(ds []Download) string {
	if len(ds) == 0 {
		return "nothing has been downloaded in this session"
	}
	names := make([]string, len(ds))
	for i, d := range ds {
		names[i] = d.Name
	}
	return "the downloads are " + quoteList(names, 10)
}

// gridFiles lists the session's managed downloads on a Selenium Grid.
func (s *Session) gridFiles(ctx context.Context) ([]string, error) {
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	v, err := s.raw(ctx, "GET", "/se/files", nil)
	if err != nil {
		return nil, gridErr(err)
	}
	var r struct {
		Names []string `json:"names"`
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, safef("unexpected reply from the Grid")
	}
	sort.Strings(r.Names)
	return r.Names, nil
}

// gridFetch downloads one managed download from a Selenium Grid, which
// sends it as a base64-encoded zip archive.
func (s *Session) gridFetch(ctx context.Context, name string) ([]byte, error) {
	scan := s.scanGrid(ctx)
	start := time.Now()
	for {
		done, partial, err := scan()
		if err != nil {
			return nil, err
		}
		found := false
		for _, d := range done {
			found = found || d.Name == name
		}
		if found {
			break
		}
		if partial == 0 || time.Since(start) >= downloadSettle || ctx.Err() != nil {
			return nil, safef("no such download; %s", downloadNames(done))
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
	if err := s.begin(); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	v, err := s.raw(ctx, "POST", "/se/files", map[string]string{"name": name})
	if err != nil {
		return nil, gridErr(err)
	}
	var r struct {
		Filename string `json:"filename"`
		Contents string `json:"contents"`
	}
	if err := json.Unmarshal(v, &r); err != nil {
		return nil, safef("unexpected reply from the Grid")
	}
	zdata, err := base64.StdEncoding.DecodeString(r.Contents)
	if err != nil {
		return nil, safef("the Grid sent a download that cannot be decoded")
	}
	zr, err := zip.NewReader(bytes.NewReader(zdata), int64(len(zdata)))
	if err != nil {
		return nil, safef("the Grid sent a download that is not a zip archive")
	}
	for _, f := range zr.File {
		if filepath.Base(f.Name) != name && len(zr.File) > 1 {
			continue
		}
		if f.UncompressedSize64 > maxDownload {
			return nil, safef("the file is larger than %d MiB", maxDownload>>20)
		}
		rc, err := f.Open()
		if err != nil {
			return nil, safef("the Grid sent a damaged zip archive")
		}
		data, err := io.ReadAll(io.LimitReader(rc, maxDownload+1))
		rc.Close()
		if err != nil || len(data) > maxDownload {
			return nil, safef("the Grid sent a damaged zip archive")
		}
		return data, nil
	}
	return nil, safef("the Grid sent an archive without the file")
}

// gridErr explains the usual reason a managed-downloads call fails.
func gridErr(err error) error {
	c := clean(err)
	if errors.Is(c, ErrUnsupported) {
		return fmt.Errorf("the endpoint does not offer managed downloads (a Selenium Grid 4 started with --enable-managed-downloads true is needed): %w", ErrUnsupported)
	}
	return err
}
