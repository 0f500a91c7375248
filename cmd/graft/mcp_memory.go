package main

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
)

// bigCallMemory keeps a server's peak memory near what a big call holds
// live. Go collects when the heap has grown by GOGC% (100) since the last
// collection, so a call whose copies of a 60 MB file come one after the
// other could reach twice its live bytes before a collection freed the
// earlier ones. For a big call (arguments past bigBytes, or a file past the
// engine's 1 MiB progress phases) a soft memory limit of three times the
// call's bytes over what the server held before is set for the call's
// duration (never above a limit the user set with GOMEMLIMIT): the
// collector then runs as often as it must to stay under it, at most half
// the CPU when the call's live bytes exceed it. When the call ends the limit
// is restored and the memory is given back to the system, so that a
// long-running server's resident memory returns to its size before the
// call.
type bigCallMemory struct {
	prev int64 // the limit before the call; -1 when none was set
	base uint64
}

// heapBytes is the heap's current size (objects live or not yet freed).
func heapBytes() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// start is the beginning of a call of argsBytes bytes of arguments.
func (m *bigCallMemory) start(argsBytes int) {
	m.prev, m.base = -1, heapBytes()
	if argsBytes > bigBytes {
		m.bound(uint64(argsBytes))
	}
}

// phase is the engine's report of a phase over a big file: the heap holds
// the file by now (its growth since the call began is the file's bytes).
func (m *bigCallMemory) phase() {
	if m.prev >= 0 {
		return
	}
	if now := heapBytes(); now > m.base {
		m.bound(now - m.base)
	}
}

// bound sets the limit for a call of n bytes.
func (m *bigCallMemory) bound(n uint64) {
	user := debug.SetMemoryLimit(-1)
	limit := m.base + 3*n
	if limit > math.MaxInt64 || int64(limit) > user {
		return
	}
	m.prev = debug.SetMemoryLimit(int64(limit))
}

// end restores the limit and returns the call's memory to the system.
func (m *bigCallMemory) end() {
	if m.prev < 0 {
		return
	}
	debug.SetMemoryLimit(m.prev)
	m.prev = -1
	debug.FreeOSMemory()
}
