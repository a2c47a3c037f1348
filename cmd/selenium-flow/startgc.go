package main

import (
	"io"
	"runtime/debug"
	"sync"
)

// startMemoryLimit bounds the heap while the garbage collector waits for
// the first answer (holdGC): past it the collector runs anyway.
const startMemoryLimit = 64 << 20

// holdGC turns the garbage collector off until the first message is
// written to out, and returns out wrapped to turn it back on then. A stdio
// client (an editor starting the server per workspace) waits for the
// initialize answer; a collection in the few megabytes start allocates
// costs milliseconds of that wait, most on a busy machine, where the
// collector's pauses wait for its threads. The heap stays bounded
// (startMemoryLimit) in case the first answer is slow to come.
func holdGC(out io.Writer) io.Writer {
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(startMemoryLimit)
	return &releaseOnWrite{w: out, release: func() {
		debug.SetMemoryLimit(limit)
		debug.SetGCPercent(percent)
	}}
}

// releaseOnWrite calls release once, after the first write.
type releaseOnWrite struct {
	w       io.Writer
	once    sync.Once
	release func()
}

func (r *releaseOnWrite) Write(p []byte) (int, error) {
	n, err := r.w.Write(p)
	r.once.Do(r.release)
	return n, err
}
