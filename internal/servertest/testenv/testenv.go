// Package testenv is the part of the test helpers that imports nothing of
// selenium-flow, so every package's tests can use it, including the
// internal tests of packages internal/server depends on (internal/browser,
// internal/ui), which cannot import internal/servertest without a cycle.
//
// It holds three things:
//
//   - deadlines: Deadline, Context and Eventually derive every wait from
//     t.Deadline() (go test -timeout), minus a margin for cleanup, instead
//     of fixed seconds, so a slow machine slows a test down instead of
//     failing it, and a test that hangs fails with its own message before
//     the test binary's timeout panic (which runs no Cleanup);
//   - NeedBrowser: skip without chromedriver or Chromium, fail under CI=true;
//   - Main: a TestMain that kills the test process's children when the
//     binary is about to time out or is interrupted, and fails the package
//     when a child process or a goroutine of ours outlives its tests.
package testenv

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Fallback is the budget of a test that has no deadline: a benchmark, or a
// test run with -timeout 0.
const Fallback = 2 * time.Minute

// margin is what Deadline keeps back from the test binary's deadline for
// Cleanup (closing browsers, killing processes): a tenth of what is left,
// at least 5 s and at most 30 s.
func margin(left time.Duration) time.Duration {
	return min(max(left/10, 5*time.Second), 30*time.Second)
}

type deadliner interface {
	Deadline() (time.Time, bool)
}

// Deadline is when t's waits must give up: the test binary's deadline
// (t.Deadline) minus a margin for cleanup, or fallback from now when t has
// none (benchmarks, -timeout 0).
func Deadline(t testing.TB, fallback time.Duration) time.Time {
	if d, ok := t.(deadliner); ok {
		if end, ok := d.Deadline(); ok {
			return end.Add(-margin(time.Until(end)))
		}
	}
	return time.Now().Add(fallback)
}

// Remaining is how long t's waits have left (see Deadline), never below a
// millisecond, so it can be passed where zero means "no limit".
func Remaining(t testing.TB) time.Duration {
	return max(time.Until(Deadline(t, Fallback)), time.Millisecond)
}

// Context is a context that ends at Deadline(t, Fallback) and is cancelled
// once t and its Cleanups are done. Unlike t.Context it is still live in
// Cleanup, where browsers are closed.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithDeadline(context.Background(), Deadline(t, Fallback))
	t.Cleanup(cancel)
	return ctx
}

// Eventually polls ok, backing off from 10 ms to 200 ms, until it holds or
// t's deadline passes, and then fails t saying what it waited for.
func Eventually(t testing.TB, what string, ok func() bool) {
	t.Helper()
	if !Poll(Deadline(t, Fallback), ok) {
		t.Fatalf("gave up waiting for %s", what)
	}
}

// Poll polls ok, backing off from 10 ms to 200 ms, until it holds (true)
// or deadline passes (false).
func Poll(deadline time.Time, ok func() bool) bool {
	wait := 10 * time.Millisecond
	for !ok() {
		if time.Now().After(deadline) {
			return ok()
		}
		time.Sleep(min(wait, max(time.Until(deadline), time.Millisecond)))
		wait = min(wait*2, 200*time.Millisecond)
	}
	return true
}

// CI reports whether the tests run in CI (CI=true, as .ci/run sets), where
// a missing browser is a failure, not a reason to skip.
func CI() bool {
	v, _ := strconv.ParseBool(os.Getenv("CI"))
	return v
}

// Chromium is the browser binary the tests drive: the one internal/browser
// uses by default (/usr/bin/chromium), else chromium or chromium-browser on
// PATH; "" when there is none.
func Chromium() string {
	if fi, err := os.Stat("/usr/bin/chromium"); err == nil && !fi.IsDir() {
		return "/usr/bin/chromium"
	}
	for _, name := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// NeedBrowser skips t when chromedriver or Chromium is missing, and fails
// it instead under CI=true, where a missing browser must not pass as a
// green run of skipped tests. It returns chromedriver's path.
func NeedBrowser(t testing.TB) string {
	t.Helper()
	var missing []string
	driver, err := exec.LookPath("chromedriver")
	if err != nil {
		missing = append(missing, "chromedriver is not on PATH")
	}
	if Chromium() == "" {
		missing = append(missing, "Chromium is not installed (/usr/bin/chromium)")
	}
	if len(missing) == 0 {
		return driver
	}
	msg := strings.Join(missing, "; ")
	if CI() {
		t.Fatalf("%s, and CI=true: browser tests must run in CI (make setup installs both)", msg)
	}
	t.Skip(msg + " (make setup installs both)")
	return ""
}

// Main runs the package's tests as TestMain, then teardown (the package's
// own shared fixtures), then the leak checks, and exits:
//
//   - shortly before the binary's -test.timeout, and on SIGINT or SIGTERM,
//     every child process of the test binary is killed with its process
//     group, so a timed-out or interrupted run leaves no chromedriver,
//     Chromium or server behind (the timeout panic runs no Cleanup);
//   - after the tests, a child process still alive (chromedriver,
//     a selenium-flow binary) fails the package, and is killed;
//   - after the tests, a goroutine still running code of selenium-flow or
//     mcp-go fails the package, with its stack.
func Main(m *testing.M, teardown ...func()) {
	flag.Parse()
	start := time.Now()
	deadline := time.Time{}
	if f := flag.Lookup("test.timeout"); f != nil {
		if g, ok := f.Value.(flag.Getter); ok {
			if d, ok := g.Get().(time.Duration); ok && d > 0 {
				deadline = start.Add(d)
			}
		}
	}
	if !deadline.IsZero() {
		// Before the timeout panic, which kills the binary without Cleanup.
		at := time.Until(deadline) - min(max(time.Until(deadline)/50, time.Second), 5*time.Second)
		watchdog := time.AfterFunc(at, func() {
			if kids := KillChildren(); len(kids) > 0 {
				fmt.Fprintf(os.Stderr, "testenv: the test binary is about to time out; killed its child processes %s\n", strings.Join(kids, ", "))
			}
		})
		defer watchdog.Stop()
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	stop := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			KillChildren()
			signal.Reset(s)
			_ = syscall.Kill(os.Getpid(), s.(syscall.Signal))
		case <-stop:
		}
	}()

	code := m.Run()
	for _, f := range teardown {
		f()
	}
	signal.Stop(sigs)
	close(stop)

	// Leak checks: what the tests left must go away by itself soon; give it
	// until a few seconds past the end, bounded by the binary's deadline.
	settle := time.Now().Add(10 * time.Second)
	if !deadline.IsZero() && deadline.Before(settle) {
		settle = deadline.Add(-time.Second)
	}
	if !Poll(settle, func() bool { return len(Children()) == 0 }) {
		fmt.Fprintf(os.Stderr, "testenv: child processes outlived the tests (killed now): %s\n", strings.Join(KillChildren(), ", "))
		code = 1
	}
	var leaked []string
	if !Poll(settle, func() bool { leaked = Goroutines(); return len(leaked) == 0 }) {
		fmt.Fprintf(os.Stderr, "testenv: %d goroutine(s) outlived the tests:\n\n%s\n", len(leaked), strings.Join(leaked, "\n\n"))
		code = 1
	}
	os.Exit(code)
}

// ClosedNetwork is the Chromium argument every test browser gets: no name
// but the loopback ones resolves, so a test makes no outside DNS look-up.
// A test setting, never the product's default (browser.WithBrowserArgs,
// FLOW_BROWSER_ARGS).
const ClosedNetwork = "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost"

// Process is a live child of the test binary.
type Process struct {
	PID, PGID int
	Name      string
}

func (p Process) String() string { return fmt.Sprintf("%s (pid %d)", p.Name, p.PID) }

// Children lists the live (not zombie) children of the test binary.
func Children() []Process { return childrenOf(os.Getpid()) }

func childrenOf(parent int) []Process {
	return processes(func(ppid, _ int) bool { return ppid == parent })
}

// GroupProcesses lists the live (not zombie) processes of a process group.
func GroupProcesses(pgid int) []int {
	var pids []int
	for _, p := range processes(func(_, g int) bool { return g == pgid }) {
		pids = append(pids, p.PID)
	}
	return pids
}

// processes lists the live processes whose parent and group keep says yes
// to, from /proc.
func processes(keep func(ppid, pgid int) bool) []Process {
	var out []Process
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp ...; comm may hold spaces and parens.
		s := string(b)
		open, closing := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || closing < open {
			continue
		}
		f := strings.Fields(s[closing+1:])
		if len(f) < 3 || f[0] == "Z" || f[0] == "X" {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		pgid, _ := strconv.Atoi(f[2])
		if !keep(ppid, pgid) {
			continue
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
		out = append(out, Process{PID: pid, PGID: pgid, Name: s[open+1 : closing]})
	}
	return out
}

// KillChildren kills every live child of the test binary with SIGKILL, and
// with it the process group the child leads (chromedriver's Chromium, a
// server's chromedriver is its own child and group: see servertest), and
// names what it killed.
func KillChildren() []string {
	var names []string
	for _, p := range Children() {
		// Grandchildren first: a selenium-flow binary's chromedriver leads
		// a group of its own, which killing the binary would orphan.
		for _, g := range childrenOf(p.PID) {
			killGroup(g)
		}
		killGroup(p)
		names = append(names, p.String())
	}
	return names
}

func killGroup(p Process) {
	if p.PGID == p.PID && p.PGID != syscall.Getpgrp() {
		_ = syscall.Kill(-p.PGID, syscall.SIGKILL)
	}
	_ = syscall.Kill(p.PID, syscall.SIGKILL)
}

// ours are the code a leaked goroutine would be running.
var ours = []string{"github.com/selenium-flow/selenium-flow/", "github.com/mark3labs/mcp-go/"}

// Goroutines are the stacks of running goroutines that are in code of
// selenium-flow or mcp-go, other than the caller's and testenv's own.
func Goroutines() []string {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	var out []string
	for i, g := range strings.Split(string(buf), "\n\n") {
		if i == 0 || strings.Contains(g, "servertest/testenv.") {
			continue // the caller's, and this package's own
		}
		for _, o := range ours {
			if strings.Contains(g, o) {
				out = append(out, g)
				break
			}
		}
	}
	return out
}
