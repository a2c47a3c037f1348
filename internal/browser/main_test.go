package browser

import (
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// The fixture server and one shared browser session serve most tests: a
// session costs about 0.3 s and 150 MiB.
var (
	site *httptest.Server

	sharedOnce    sync.Once
	sharedDriver  *Driver
	sharedSession *Session
	sharedErr     error
)

// TestMain closes the shared session and the fixture site, then fails the
// package if a chromedriver, Chromium or goroutine of ours outlives the
// tests; a binary about to time out kills its children first (see
// testenv.Main).
func TestMain(m *testing.M) {
	site = httptest.NewServer(fixtures.Handler())
	testenv.Main(m, func() {
		if sharedDriver != nil {
			sharedDriver.Close()
		}
		site.Close()
	})
}

// needChromedriver skips the test when chromedriver or Chromium is not
// installed, and fails it under CI=true.
func needChromedriver(t testing.TB) {
	t.Helper()
	testenv.NeedBrowser(t)
}

// shared returns the session shared by the tests.
func shared(t testing.TB) *Session {
	t.Helper()
	needChromedriver(t)
	sharedOnce.Do(func() {
		ctx, cancel := context.WithDeadline(context.Background(), testenv.Deadline(t, time.Minute))
		defer cancel()
		sharedDriver, sharedErr = Start(ctx, WithBrowserArgs(testenv.ClosedNetwork))
		if sharedErr != nil {
			return
		}
		sharedSession, sharedErr = sharedDriver.NewSession(ctx, SessionOptions{})
	})
	if sharedErr != nil {
		t.Fatalf("starting the shared session: %v", sharedErr)
	}
	return sharedSession
}

func page(path string) string { return site.URL + path }

// localhostPage is a fixture page by the name localhost: another origin
// than page's 127.0.0.1 on the same server.
func localhostPage(path string) string {
	return strings.Replace(site.URL, "127.0.0.1", "localhost", 1) + path
}

// open navigates the shared session to a fixture page.
func open(t testing.TB, path string) *Session {
	t.Helper()
	s := shared(t)
	if err := s.Navigate(page(path)); err != nil {
		t.Fatalf("navigate to %s: %v", path, err)
	}
	return s
}

// reportCSV is what the fixture site's download link serves.
const reportCSV = fixtures.ReportCSV
