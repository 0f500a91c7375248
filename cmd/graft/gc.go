package main

import (
	"os"
	"runtime/debug"
)

// oneShotMemoryLimit is the heap size at which a one-command graft process
// starts collecting garbage.
const oneShotMemoryLimit = 1 << 30

// oneShotGC turns the garbage collector off up to oneShotMemoryLimit for a
// process that runs one command and exits. Such a process allocates a few
// buffers the size of the files it edits; collecting on the way costs more
// than it frees (a third of the time of a one-line edit in a 10 MB file,
// measured in fixtures/bench/edges.sh) and lowers the peak little, since
// those buffers are alive to the end. `graft mcp`, which lives long, keeps
// the default collector. GOGC or GOMEMLIMIT in the environment win.
func oneShotGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotMemoryLimit)
}
