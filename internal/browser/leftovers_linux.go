package browser

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"syscall"
	"time"
)

// procAttr starts chromedriver in its own process group, so that Close
// can stop it and every Chromium it started at once, and has the kernel
// kill it when the server dies.
func procAttr() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
}

func procMounted() bool {
	_, err := os.Stat("/proc/self/environ")
	return err == nil
}

// killOrphans kills every process whose environment names an owner that
// is no longer running, and waits a moment for them to go, so that none
// still writes in a folder about to be removed.
func killOrphans() {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return
	}
	var killed []int
	defer func() {
		for deadline := time.Now().Add(3 * time.Second); len(killed) > 0 && time.Now().Before(deadline); {
			killed = slices.DeleteFunc(killed, func(pid int) bool { return !ownerAlive(strconv.Itoa(pid)) })
			time.Sleep(20 * time.Millisecond)
		}
	}()
	prefix := []byte(ownerEnv + "=")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil {
			continue
		}
		for _, v := range bytes.Split(env, []byte{0}) {
			owner, ok := bytes.CutPrefix(v, prefix)
			if ok && !ownerAlive(string(owner)) && syscall.Kill(pid, syscall.SIGKILL) == nil {
				killed = append(killed, pid)
			}
		}
	}
}
