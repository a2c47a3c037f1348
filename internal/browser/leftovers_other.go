//go:build !linux

package browser

import "syscall"

// procAttr starts chromedriver in its own process group, so that Close
// can stop it and every Chromium it started at once. Only Linux also
// ties its life to the server's.
func procAttr() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

func procMounted() bool { return false }

// killOrphans needs /proc; elsewhere leftovers are the operator's.
func killOrphans() {}

// listensInGroup needs /proc: elsewhere only the ports known in advance
// (the driver's, the server's) are protected.
func listensInGroup(pgid, port int) bool { return false }
