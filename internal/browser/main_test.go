package browser

import (
	"context"
	"net/http/httptest"
	"os"
	"os/exec"
	"sync"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/fixtures"
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

func TestMain(m *testing.M) {
	site = httptest.NewServer(fixtures.Handler())
	code := m.Run()
	if sharedDriver != nil {
		sharedDriver.Close()
	}
	site.Close()
	os.Exit(code)
}

// needChromedriver skips the test when chromedriver is not installed.
func needChromedriver(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("chromedriver"); err != nil {
		t.Skip("chromedriver is not on PATH")
	}
}

// shared returns the session shared by the tests.
func shared(t testing.TB) *Session {
	t.Helper()
	needChromedriver(t)
	sharedOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		sharedDriver, sharedErr = Start(ctx)
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
