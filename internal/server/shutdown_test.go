package server_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"gotest.tools/v3/assert"
	is "gotest.tools/v3/assert/cmp"

	"github.com/selenium-flow/selenium-flow/internal/servertest"
	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// TestGracefulShutdown: SIGTERM to the real binary while a call is in
// flight (a navigation to a page that has not answered yet) lets the call
// finish with its answer, then the process exits and its chromedriver and
// Chromium are gone with it: nothing is orphaned.
func TestGracefulShutdown(t *testing.T) {
	testenv.NeedBrowser(t)
	arrived, release := make(chan struct{}), make(chan struct{})
	var once bool
	site := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/slow" && !once {
			once = true
			close(arrived)
			<-release
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write([]byte("<!doctype html><title>" + strings.Trim(r.URL.Path, "/") + "</title><p>ok"))
	}))
	defer site.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()

	srv := servertest.StartHTTP(t, nil, nil)
	got := send(t, "POST", srv.Base+"/browser/open_session", `{"url": "`+site.URL+`/start"}`)
	assert.Equal(t, got.code, http.StatusOK, "%s", got.body)
	driver := childrenOfPID(t, srv.PID())
	assert.Assert(t, len(driver) == 1, "the server's children: %v", driver)
	assert.Check(t, len(testenv.GroupProcesses(driver[0])) > 1, "chromedriver's group has no browser")

	answered := make(chan reply, 1)
	go func() { answered <- send(t, "POST", srv.Base+"/browser/navigate", `{"url": "`+site.URL+`/slow"}`) }()
	select {
	case <-arrived:
	case <-testenv.Context(t).Done():
		t.Fatal("the navigation never reached the page")
	}
	assert.NilError(t, syscall.Kill(srv.PID(), syscall.SIGTERM))
	// The server stops taking requests while the navigation still waits.
	testenv.Eventually(t, "the server stops listening", func() bool {
		_, err := http.Get(srv.Base + "/health")
		return err != nil
	})
	close(release)
	got = <-answered
	assert.Check(t, is.Equal(got.code, http.StatusOK), "the call in flight was cut off: %s", got.body)
	assert.Check(t, is.Contains(string(got.body), `\"slow\"`))

	testenv.Eventually(t, "the server exits", func() bool {
		return errors.Is(syscall.Kill(srv.PID(), 0), syscall.ESRCH)
	})
	testenv.Eventually(t, "chromedriver and Chromium are gone", func() bool {
		return len(testenv.GroupProcesses(driver[0])) == 0
	})
}

// childrenOfPID lists a process's children from /proc: those of each of
// its threads, since a child belongs to the thread that started it.
func childrenOfPID(t *testing.T, pid int) []int {
	t.Helper()
	lists, err := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/children")
	assert.NilError(t, err)
	var out []int
	for _, l := range lists {
		b, _ := os.ReadFile(l)
		for _, f := range strings.Fields(string(b)) {
			n, _ := strconv.Atoi(f)
			out = append(out, n)
		}
	}
	return out
}
