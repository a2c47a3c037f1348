package browser

import (
	"bytes"
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// TestGrid runs a session on the Selenium Grid 4 named by SELENIUM_URL (for
// example http://127.0.0.1:4444), started with managed downloads enabled.
// The Grid's browsers must reach the fixture server on 127.0.0.1.
func TestGrid(t *testing.T) {
	gridURL := os.Getenv("SELENIUM_URL")
	if gridURL == "" {
		t.Skip("SELENIUM_URL is not set")
	}
	ctx := testenv.Context(t)
	d, err := Start(ctx, WithSeleniumURL(gridURL))
	assert.NilError(t, err)
	defer d.Close()
	assert.Assert(t, d.Remote())
	s, err := d.NewSession(ctx, SessionOptions{})
	assert.NilError(t, err)
	defer s.Close()
	assert.Assert(t, s.Remote())
	assert.Assert(t, s.ID() != "")

	gu, err := url.Parse(gridURL)
	assert.NilError(t, err)
	clean := func(err error) {
		t.Helper()
		assert.Assert(t, err != nil)
		for _, bad := range []string{gu.Host, ":" + gu.Port(), "/tmp", "session/"} {
			assert.Assert(t, !strings.Contains(err.Error(), bad), "error %q contains %q", err, bad)
		}
	}

	// Navigate and outline.
	assert.NilError(t, s.Navigate(page("/login")))
	out, err := s.Outline(nil)
	assert.NilError(t, err)
	assert.Assert(t, is.Contains(out, `form "login"`))
	assert.Assert(t, is.Contains(out, `password css:#password "Password"`))
	assert.NilError(t, s.Write(Locator{Label: "Email"}, "grid@example.com", true))
	assert.NilError(t, s.Click(Locator{Role: "button", Name: "Sign in"}))
	assert.NilError(t, s.WaitFor(ctx, Condition{Text: "Welcome grid@example.com"}, 10*time.Second))
	err = s.Click(Locator{Role: "button", Name: "Nope"})
	var le *LocatorError
	assert.Assert(t, errors.As(err, &le))
	clean(err)

	// Screenshot and print.
	png, err := s.Screenshot(nil, false)
	assert.NilError(t, err)
	assert.Assert(t, bytes.HasPrefix(png, pngMagic))
	w, h := pngSize(t, png)
	assert.Equal(t, w, DefaultWindow.Width)
	assert.Equal(t, h, DefaultWindow.Height)
	assert.NilError(t, s.Navigate(page("/article")))
	full, err := s.Screenshot(nil, true)
	assert.NilError(t, err)
	_, fh := pngSize(t, full)
	assert.Assert(t, fh > 2*DefaultWindow.Height)
	pdf, err := s.PrintPDF(PrintOptions{Background: true})
	assert.NilError(t, err)
	assert.Assert(t, bytes.HasPrefix(pdf, []byte("%PDF")))

	// Managed download.
	assert.NilError(t, s.Navigate(page("/download")))
	assert.NilError(t, s.Click(Locator{Role: "link", Name: "Download report (CSV)"}))
	var ds []Download
	testenv.Poll(testenv.Deadline(t, time.Minute), func() bool {
		ds, err = s.Downloads(ctx)
		assert.NilError(t, err)
		return len(ds) > 0
	})
	assert.DeepEqual(t, ds, []Download{{Name: "report.csv", Size: -1}})
	data, err := s.FetchDownload(ctx, "report.csv")
	assert.NilError(t, err)
	assert.Equal(t, string(data), reportCSV)
	_, err = s.FetchDownload(ctx, "missing.csv")
	assert.ErrorContains(t, err, `no such download; the downloads are "report.csv"`)
	clean(err)

	// An upload ships the file to the node: the page sees its name and size.
	assert.NilError(t, s.Navigate(page("/upload")))
	f := filepath.Join(t.TempDir(), "x.txt")
	assert.NilError(t, os.WriteFile(f, []byte("xyz"), 0o600))
	assert.NilError(t, s.Upload(Locator{Label: "Document"}, f))
	picked, err := s.ExecuteScript("const f = document.getElementById('doc').files[0]; return f.name + ' ' + f.size", nil)
	assert.NilError(t, err)
	assert.Check(t, is.Equal(string(picked), `"x.txt 3"`))
	err = s.Upload(Locator{Label: "Document"}, filepath.Join(t.TempDir(), "missing.txt"))
	assert.ErrorContains(t, err, "does not exist")
	clean(err)

	assert.NilError(t, s.Close())
	err = s.Navigate(page("/login"))
	assert.ErrorContains(t, err, "closed")
}
