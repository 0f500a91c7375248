package main

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"testing"

	"github.com/graftdev/graft/apply"
)

// A one-command process does not collect while its heap is small, but a
// call that makes much garbage from few live bytes does not grow to the
// old fixed limit of 1 GiB either (10,000 edits of one 2 MB file in one
// multi_edit reached 1 GB, issue 32 item 10): with 8 MB alive and 800 MB
// of garbage made 4 MB at a time, the heap stays within a few times the
// floor (the collector runs beside the allocations, and on a loaded
// machine falls behind for a while: the bound leaves room for that, and
// half the garbage).
func TestOneShotGCBoundsGarbage(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set: oneShotGC leaves the collector as they say")
	}
	defer func() {
		oneShotTuner.Store(false)
		debug.SetGCPercent(100)
		debug.SetMemoryLimit(math.MaxInt64)
	}()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	oneShotGC()
	live := make([]byte, 8<<20)
	live[len(live)-1] = 1
	var garbage []byte
	for range 200 {
		garbage = make([]byte, 4<<20)
		garbage[0] = 1
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(live)
	runtime.KeepAlive(garbage)
	if grew := int64(after.HeapSys) - int64(before.HeapSys); grew > 400<<20 {
		t.Errorf("the heap grew by %d MB for 8 MB alive; at most 400 MB", grew>>20)
	}
	if after.NumGC == before.NumGC {
		t.Error("no collection in 800 MB of garbage")
	}
}

// A big MCP call runs under a memory limit of three times its arguments
// (or GOGC 10 once the engine reports a phase over a big file), and the
// server's settings are as they were when it ends.
func TestBigCallMemorySettings(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set")
	}
	var m bigCallMemory
	m.start(10)
	m.end()
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Fatalf("a small call set a limit of %d", l)
	}
	args := make([]byte, 40<<20)
	m.start(len(args))
	limit := debug.SetMemoryLimit(-1)
	if limit == math.MaxInt64 || limit > int64(heapBytes())+3*int64(len(args)) {
		t.Errorf("a call of %d MB of arguments runs under a limit of %d MB", len(args)>>20, limit>>20)
	}
	m.phase()
	if g := debug.SetGCPercent(100); g != 10 {
		t.Errorf("GOGC %d during a phase over a big file, want 10", g)
	}
	debug.SetGCPercent(10)
	m.end()
	runtime.KeepAlive(args)
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("the limit is %d after the call", l)
	}
	if g := debug.SetGCPercent(100); g != 100 {
		t.Errorf("GOGC %d after the call", g)
	}
}

// The steps every call reports (diff, write, done: counted, with a total)
// leave the collector alone; only a phase over a big file (no total) sets
// it, so that a small call does not end with a forced collection.
func TestSmallCallProgressLeavesCollector(t *testing.T) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		t.Skip("GOGC or GOMEMLIMIT set")
	}
	s := &mcpServer{}
	s.mem.start(10)
	for _, p := range []apply.Progress{{Done: 0, Total: 1, Message: "diff a.txt"}, {Done: 1, Total: 2, Message: "write"}, {Done: 2, Total: 2, Message: "done"}} {
		s.progress(p)
	}
	if g := debug.SetGCPercent(100); g != 100 {
		debug.SetGCPercent(g)
		t.Errorf("GOGC %d after a small call's steps, want 100", g)
	}
	if s.mem.prevGC >= 0 {
		t.Errorf("a small call's steps count as a phase over a big file")
	}
	s.mem.end()
	s.progress(apply.Progress{Message: "read big.txt"})
	if g := debug.SetGCPercent(100); g != 10 {
		t.Errorf("GOGC %d during a phase over a big file, want 10", g)
	}
	s.mem.end()
}
