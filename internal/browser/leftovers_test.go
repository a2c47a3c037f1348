package browser

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/selenium-flow/selenium-flow/internal/servertest/testenv"
)

// leftoverChild makes the test binary play a server that opened a browser
// and is then killed.
const leftoverChild = "SELENIUM_FLOW_TEST_LEFTOVER_CHILD"

// TestKilledServerLeavesNothing kills a server process with SIGKILL while
// its browser is open: its chromedriver dies with it, and the next Driver
// started removes the Chromium processes and the session folder left
// behind.
func TestKilledServerLeavesNothing(t *testing.T) {
	if os.Getenv(leftoverChild) == "1" {
		playKilledServer(t)
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("parent-death signals and /proc are Linux's")
	}
	needChromedriver(t)
	ctx := testenv.Context(t)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestKilledServerLeavesNothing$", "-test.count=1")
	cmd.Env = append(os.Environ(), leftoverChild+"=1")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); cmd.Wait() })

	var dir string
	lines := bufio.NewScanner(out)
	for lines.Scan() {
		if d, ok := strings.CutPrefix(lines.Text(), "session-dir "); ok {
			dir = d
			break
		}
	}
	if dir == "" {
		t.Fatalf("the child server never opened its browser")
	}
	child := strconv.Itoa(cmd.Process.Pid)
	if len(markedBy(child)) < 2 {
		t.Fatalf("the child's chromedriver and Chromium do not carry its mark")
	}

	// SIGKILL the server alone, as the OOM killer would: not its group.
	syscall.Kill(cmd.Process.Pid, syscall.SIGKILL)
	cmd.Wait()
	testenv.Eventually(t, "the killed server's chromedriver to die with it", func() bool {
		for _, pid := range markedBy(child) {
			if strings.Contains(cmdline(pid), "chromedriver") {
				return false
			}
		}
		return true
	})
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the session folder should still be there before the next start: %v", err)
	}

	reap(filepath.Dir(dir))
	testenv.Eventually(t, "the orphaned Chromium processes to be gone", func() bool {
		return len(markedBy(child)) == 0
	})
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("the orphaned session folder is still there (err %v)", err)
	}
}

// playKilledServer opens a browser, says where its folder is, and waits
// to be killed.
func playKilledServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d, err := Start(ctx, WithBrowserArgs(testenv.ClosedNetwork))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.NewSession(ctx, SessionOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("session-dir %s\n", s.tmpDir)
	<-ctx.Done()
}

// markedBy lists the processes whose environment names owner.
func markedBy(owner string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	mark := []byte(ownerEnv + "=" + owner)
	for _, e := range entries {
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, v := range bytes.Split(env, []byte{0}) {
			if bytes.Equal(v, mark) && ownerAlive(e.Name()) {
				pids = append(pids, e.Name())
			}
		}
	}
	return pids
}

func cmdline(pid string) string {
	b, _ := os.ReadFile("/proc/" + pid + "/cmdline")
	return string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
}
