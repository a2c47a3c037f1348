package admin_test

import (
	"bytes"
	"compress/gzip"
	"io/fs"
	"strings"
	"testing"

	"github.com/selenium-flow/selenium-flow/internal/admin"
)

// bundleBudget is the admin page's gzip budget, all files together (the
// README says it; scripts/stamp.mjs in internal/ui refuses a build over it).
const bundleBudget = 48 * 1024

// TestBundleSize reports the built page's gzipped size and keeps it
// within budget. internal/ui's TestBuildIsFresh checks the build is fresh.
func TestBundleSize(t *testing.T) {
	total, files := 0, 0
	err := fs.WalkDir(admin.Dist(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".sha256") {
			return err
		}
		b, err := fs.ReadFile(admin.Dist(), p)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
		_, _ = zw.Write(b)
		_ = zw.Close()
		t.Logf("%s: %d bytes, %.1f KiB gzipped", p, len(b), float64(buf.Len())/1024)
		total += buf.Len()
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("admin page: %d files, %.1f KiB gzipped (budget %d KiB)", files, float64(total)/1024, bundleBudget/1024)
	if files < 3 {
		t.Fatalf("the admin page's build has %d files; build it with npm run build --prefix internal/ui", files)
	}
	if total > bundleBudget {
		t.Fatalf("the admin page is %d bytes gzipped, over its %d byte budget", total, bundleBudget)
	}
}
