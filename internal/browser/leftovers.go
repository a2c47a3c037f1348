package browser

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// A server killed outright (SIGKILL, the OOM killer) cannot stop what it
// started. Its chromedriver dies with it (a parent-death signal, see
// procAttr), but the Chromium processes chromedriver started, and the
// session folders they write to, would stay forever. So everything a
// server starts carries its owner's process id — in the environment of
// chromedriver, which every Chromium inherits, and in the name of each
// session folder — and the next Driver started on the machine removes
// whatever belongs to an owner that is no longer running.

// ownerEnv is the environment variable naming the server process that
// started a chromedriver; its Chromium processes inherit it.
const ownerEnv = "SELENIUM_FLOW_OWNER"

// sessionDirPrefix starts the name of a local session's temporary folder,
// followed by the owner's process id and a dash.
const sessionDirPrefix = "selenium-flow-session-"

// sessionDirPattern is the os.MkdirTemp pattern of this process's session
// folders.
func sessionDirPattern() string {
	return sessionDirPrefix + strconv.Itoa(os.Getpid()) + "-*"
}

// ownerMark is this process's entry in a chromedriver's environment.
func ownerMark() string { return ownerEnv + "=" + strconv.Itoa(os.Getpid()) }

var reapOnce sync.Once

// reapLeftovers removes, once per process, the processes and session
// folders of servers that died without cleaning up. It never touches
// what belongs to a server still running.
func reapLeftovers() {
	reapOnce.Do(func() { reap(os.TempDir()) })
}

// reap kills the orphaned processes, then removes the orphaned session
// folders in dir. A Chromium being killed can still be starting a child
// that writes in its folder, so both steps repeat, a few times at most,
// until the folders are gone.
func reap(dir string) {
	for range 5 {
		killOrphans()
		if removeOrphanDirs(dir) {
			return
		}
	}
}

// ownerAlive reports whether the process pid (an owner named in a mark)
// still runs. A pid that cannot be parsed counts as alive: only what is
// surely abandoned is removed.
func ownerAlive(pid string) bool {
	n, err := strconv.Atoi(pid)
	if err != nil || n <= 0 {
		return true
	}
	if n == os.Getpid() {
		return true
	}
	if !procMounted() {
		return true
	}
	f := procStat(pid)
	// A zombie has died and waits only for its parent to notice.
	return len(f) > 0 && f[0] != "Z"
}

// procStat returns the fields of /proc/PID/stat after the command name —
// state, ppid, pgrp, … — or nil when there is no such process. The name
// may hold spaces and parentheses, so it ends at the last ')'.
func procStat(pid string) []string {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return nil
	}
	i := strings.LastIndexByte(string(stat), ')')
	if i < 0 {
		return nil
	}
	return strings.Fields(string(stat[i+1:]))
}

// removeOrphanDirs removes the session folders in dir whose owner has
// died, and reports whether all of them are gone.
func removeOrphanDirs(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return true
	}
	gone := true
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), sessionDirPrefix)
		if !ok || !e.IsDir() {
			continue
		}
		pid, _, ok := strings.Cut(rest, "-")
		if !ok || ownerAlive(pid) {
			continue
		}
		if os.RemoveAll(filepath.Join(dir, e.Name())) != nil {
			gone = false
		}
	}
	return gone
}
