package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// oneShotFloor is the heap size below which a one-command graft process
// does not collect garbage.
const oneShotFloor = 64 << 20

// oneShotGC sets the garbage collector of a process that runs one command
// and exits. Such a process allocates a few buffers the size of the files
// it edits; collecting on the way while the heap is small costs more than
// it frees (a third of the time of a one-line edit in a 10 MB file,
// measured in fixtures/bench/edges.sh), since those buffers are alive to
// the end. So the collector is off until the heap reaches oneShotFloor,
// and after each collection the next one comes when the heap reaches three
// times what the collection found alive (or the floor): the peak stays
// within three times the call's live bytes. A fixed limit of 1 GiB, as
// before, let a call that makes much garbage from little (10,000 edits of
// one 2 MB file in one multi_edit, an undo of 24 files of 2 MB) reach
// 0.5–1 GB (fixtures/bench/climem). `graft mcp`, which lives long, keeps
// the default collector. GOGC or GOMEMLIMIT in the environment win.
func oneShotGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(oneShotFloor)
	oneShotTuner.Store(true)
	armOneShot()
}

// oneShotTuner is whether the limit follows each collection (a test turns
// it off again).
var oneShotTuner atomic.Bool

// armOneShot sets a finalizer that runs after the next collection: it sets
// the limit from the live heap, and arms itself again.
func armOneShot() {
	sentinel := new([16]byte)
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		if !oneShotTuner.Load() {
			return
		}
		debug.SetMemoryLimit(max(oneShotFloor, 3*liveHeap()))
		armOneShot()
	})
}

// liveHeap is the heap the last collection found alive.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
