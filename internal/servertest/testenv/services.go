package testenv

import (
	"bufio"
	"encoding/json"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A test that needs Redis or a Selenium Grid of its own starts it here, on
// a free 127.0.0.1 port, in its own process group that dies with the test
// binary (Pdeathsig) and is killed at the test's end. Without the binary
// the test is skipped, and fails under CI=true like NeedBrowser.

// freePort returns a loopback port nobody listens on now.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("no free loopback port: %v", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// need skips t, or fails it under CI=true, with msg.
func need(t testing.TB, msg string) {
	t.Helper()
	if CI() {
		t.Fatalf("%s, and CI=true: .ci/run installs it", msg)
	}
	t.Skip(msg)
}

// start runs cmd for the test in its own process group, killed with the
// group when the test ends or the test binary dies.
func start(t testing.TB, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", cmd.Path, err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			<-done
		}
	})
}

// Redis starts a redis-server (Debian's redis-server package) for the test
// and returns its URL, redis://127.0.0.1:PORT/0. It keeps nothing on disk.
func Redis(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		need(t, "redis-server is not installed (apt-get install redis-server)")
	}
	port := freePort(t)
	cmd := exec.Command(bin, "--port", strconv.Itoa(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", t.TempDir())
	start(t, cmd)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	Eventually(t, "redis-server to answer PING", func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err != nil {
			return false
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(time.Second))
		if _, err := c.Write([]byte("PING\r\n")); err != nil {
			return false
		}
		line, _ := bufio.NewReader(c).ReadString('\n')
		return strings.HasPrefix(line, "+PONG")
	})
	return "redis://" + addr + "/0"
}

// Grid starts a Selenium Grid 4 standalone from the jar SELENIUM_JAR names
// (.ci/run sets it), offline, with the local chromedriver and at most two
// sessions, plus args (e.g. "--session-timeout", "5"), and returns its
// URL.
func Grid(t testing.TB, args ...string) string {
	t.Helper()
	jar := os.Getenv("SELENIUM_JAR")
	if jar == "" {
		need(t, "SELENIUM_JAR is not set (the Selenium Grid standalone jar)")
	}
	java, err := exec.LookPath("java")
	if err != nil {
		need(t, "java is not installed")
	}
	driver := NeedBrowser(t)
	port := freePort(t)
	all := []string{"-jar", jar, "standalone", "--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"--selenium-manager", "false", "--enable-managed-downloads", "true", "--detect-drivers", "false",
		"--driver-configuration", "display-name=chromium", "max-sessions=2", "webdriver-executable=" + driver,
		`stereotype={"browserName":"chrome","platformName":"linux"}`}
	cmd := exec.Command(java, append(all, args...)...)
	cmd.Env = append(os.Environ(), "SE_OFFLINE=true", "SE_AVOID_STATS=true")
	start(t, cmd)
	u := "http://127.0.0.1:" + strconv.Itoa(port)
	Eventually(t, "the Grid to be ready", func() bool {
		resp, err := http.Get(u + "/status")
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		var st struct {
			Value struct{ Ready bool } `json:"value"`
		}
		return json.NewDecoder(resp.Body).Decode(&st) == nil && st.Value.Ready
	})
	return u
}
