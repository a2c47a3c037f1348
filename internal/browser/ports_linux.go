package browser

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// listensInGroup reports whether a process of the process group pgid (a
// chromedriver and every Chromium it started) listens on port, on any
// address: a DevTools port, or the driver's own.
func listensInGroup(pgid, port int) bool {
	inodes := listeners(port)
	if len(inodes) == 0 || pgid <= 0 {
		return false
	}
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true // cannot tell: closed is the safe answer
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil || groupOf(e.Name()) != pgid {
			continue
		}
		fds, err := os.ReadDir("/proc/" + e.Name() + "/fd")
		if err != nil {
			continue
		}
		for _, fd := range fds {
			link, err := os.Readlink("/proc/" + e.Name() + "/fd/" + fd.Name())
			if err == nil && inodes[link] {
				return true
			}
		}
	}
	return false
}

// listeners returns the sockets ("socket:[inode]", as /proc/PID/fd links
// name them) listening on port.
func listeners(port int) map[string]bool {
	out := map[string]bool{}
	hexPort := fmt.Sprintf(":%04X", port)
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(table)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
			fields := strings.Fields(sc.Text())
			if len(fields) < 10 || fields[3] != "0A" || !strings.HasSuffix(fields[1], hexPort) {
				continue
			}
			out["socket:["+fields[9]+"]"] = true
		}
		f.Close()
	}
	return out
}

// groupOf returns the process group of pid, or 0.
func groupOf(pid string) int {
	f := procStat(pid)
	if len(f) < 3 {
		return 0
	}
	n, _ := strconv.Atoi(f[2])
	return n
}
