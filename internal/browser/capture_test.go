package browser

import (
	"bytes"
	"context"
	"errors"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

func pngSize(t *testing.T, data []byte) (w, h int) {
	t.Helper()
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	assert.NilError(t, err)
	return cfg.Width, cfg.Height
}

func TestScreenshot(t *testing.T) {
	s := open(t, "/article")
	view, err := s.Screenshot(nil, false)
	assert.NilError(t, err)
	vw, vh := pngSize(t, view)
	assert.Equal(t, vw, DefaultWindow.Width)
	assert.Equal(t, vh, DefaultWindow.Height)

	full, err := s.Screenshot(nil, true)
	assert.NilError(t, err)
	fw, fh := pngSize(t, full)
	assert.Equal(t, fw, vw)
	assert.Assert(t, fh > 2*vh, "full page %dx%d, viewport %dx%d", fw, fh, vw, vh)

	// The window is put back.
	again, err := s.Screenshot(nil, false)
	assert.NilError(t, err)
	aw, ah := pngSize(t, again)
	assert.Equal(t, aw, vw)
	assert.Equal(t, ah, vh)

	el, err := s.Screenshot(&Locator{Role: "heading", Name: "A short history of driving browsers"}, false)
	assert.NilError(t, err)
	ew, eh := pngSize(t, el)
	assert.Assert(t, ew > 100 && ew <= vw && eh > 10 && eh < 200, "element %dx%d", ew, eh)

	_, err = s.Screenshot(&Locator{Role: "heading", Name: "No such heading"}, false)
	assert.ErrorContains(t, err, `screenshot of heading:"No such heading": no element matches`)
}

func TestPrintPDF(t *testing.T) {
	s := open(t, "/article")
	for _, o := range []PrintOptions{{}, {Landscape: true, Background: true}} {
		pdf, err := s.PrintPDF(o)
		assert.NilError(t, err)
		assert.Assert(t, bytes.HasPrefix(pdf, []byte("%PDF-")))
		assert.Assert(t, len(pdf) > 10000, "PDF of %d bytes", len(pdf))
	}
}

func TestDownload(t *testing.T) {
	// A session of its own: the shared one keeps its download folder across
	// runs (-count), and a second report.csv would land as "report (1).csv".
	shared(t)
	ctx := testenv.Context(t)
	s, err := sharedDriver.NewSession(ctx, SessionOptions{})
	assert.NilError(t, err)
	defer s.Close()
	assert.NilError(t, s.Navigate(page("/download")))
	assert.NilError(t, s.Click(Locator{Role: "link", Name: "Download report"}))
	ds, err := s.Downloads(ctx)
	assert.NilError(t, err)
	assert.Assert(t, is.Contains(ds, Download{Name: "report.csv", Size: int64(len(reportCSV))}), "downloads %v", ds)
	for _, d := range ds {
		assert.Assert(t, !strings.HasSuffix(d.Name, ".crdownload"))
	}
	data, err := s.FetchDownload(ctx, "report.csv")
	assert.NilError(t, err)
	assert.Equal(t, string(data), reportCSV)

	_, err = s.FetchDownload(ctx, "other.csv")
	assert.ErrorContains(t, err, `fetch download "other.csv": no such download; the downloads are "report.csv"`)
	_, err = s.FetchDownload(ctx, "../profile/Local State")
	assert.ErrorContains(t, err, "give the plain file name")
	for _, e := range []error{err} {
		assert.Assert(t, !strings.Contains(e.Error(), os.TempDir()))
	}
}

func TestUpload(t *testing.T) {
	s := open(t, "/upload")
	dir := t.TempDir()
	doc := filepath.Join(dir, "notes.txt")
	assert.NilError(t, os.WriteFile(doc, []byte("twelve bytes"), 0o600))
	avatar := filepath.Join(dir, "me.png")
	assert.NilError(t, os.WriteFile(avatar, []byte("\x89PNG fake"), 0o600))

	assert.NilError(t, s.Upload(Locator{Label: "Document"}, doc))
	assert.NilError(t, s.Upload(Locator{Label: "Avatar"}, avatar)) // a hidden file input
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Assert(t, is.Contains(out, `file css:#doc "Document" file:"notes.txt"`))
	assert.Assert(t, !strings.Contains(out, dir))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Upload"}))
	assert.NilError(t, s.WaitFor(context.Background(), Condition{Text: "Uploaded doc: notes.txt (12 bytes)"}, testenv.Remaining(t)))
	assert.NilError(t, s.Assert(Assertion{TextPresent: "Uploaded avatar: me.png (9 bytes)"}))

	assert.NilError(t, s.Navigate(page("/upload")))
	for _, tc := range []struct {
		loc  Locator
		path string
		want string
	}{
		{Locator{Label: "Document"}, filepath.Join(dir, "missing.txt"), "the file to upload does not exist"},
		{Locator{Label: "Document"}, "relative.txt", "must be given by absolute path"},
		{Locator{Role: "button", Name: "Upload"}, doc, "it is a button, not a file input"},
		{Locator{Label: "Nothing"}, doc, `no element matches label:"Nothing"`},
	} {
		err := s.Upload(tc.loc, tc.path)
		assert.ErrorContains(t, err, tc.want)
		assert.Assert(t, !strings.Contains(err.Error(), dir), err.Error())
	}
}

// TestSessionCloseRemovesProfile checks that a session's temporary profile
// and downloads are removed on Close, and that a closed session refuses
// further work.
func TestSessionCloseRemovesProfile(t *testing.T) {
	needChromedriver(t)
	shared(t)
	ctx := testenv.Context(t)
	dl := t.TempDir()
	s, err := sharedDriver.NewSession(ctx, SessionOptions{Browser: "chromium", Window: Window{Width: 800, Height: 600}, DownloadDir: dl})
	assert.NilError(t, err)
	assert.Equal(t, s.Browser(), "chrome")
	assert.Equal(t, s.Window(), Window{Width: 800, Height: 600})
	assert.Assert(t, s.ID() != "")
	assert.Assert(t, !s.Remote())
	tmp := s.tmpDir
	_, err = os.Stat(filepath.Join(tmp, "profile"))
	assert.NilError(t, err)

	assert.NilError(t, s.Navigate(page("/download")))
	var inner struct{ IW, IH float64 }
	assert.NilError(t, func() error { s.begin(); defer s.mu.Unlock(); return s.script("pageSize", nil, nil, &inner) }())
	assert.Equal(t, inner.IW, 800.0)
	assert.Equal(t, inner.IH, 600.0)
	assert.NilError(t, s.Click(Locator{Text: "Download report"}))
	ds, err := s.Downloads(ctx)
	assert.NilError(t, err)
	assert.Equal(t, len(ds), 1)
	_, err = os.Stat(filepath.Join(dl, "report.csv"))
	assert.NilError(t, err, "the download lands in the given directory")

	assert.NilError(t, s.Close())
	assert.NilError(t, s.Close()) // twice is fine
	_, err = os.Stat(tmp)
	assert.Assert(t, errors.Is(err, os.ErrNotExist), "profile left behind")
	err = s.Navigate(page("/login"))
	assert.ErrorContains(t, err, "the browser session is closed")

	_, err = sharedDriver.NewSession(ctx, SessionOptions{Browser: "firefox"})
	assert.ErrorContains(t, err, `unsupported browser "firefox"; use chrome (alias chromium)`)
}
