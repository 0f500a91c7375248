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
// earlier ones. For the duration of a big call:
//
//   - with arguments past bigBytes, a soft memory limit of three times
//     their bytes over what the server held before them (never above a
//     limit the user set with GOMEMLIMIT): the collector then runs as often
//     as it must to stay under it;
//   - on a file past the engine's 1 MiB progress phases, the collector
//     runs once the heap has grown by a tenth (GOGC 10), not doubled: a
//     rewrite of every line of a 60 MB file then peaks under three times
//     its bytes, at about a sixth more CPU than at GOGC 25. (A
//     memory limit there would have to guess the call's size, and one
//     below what the call holds live makes the collector run without end:
//     twice the time of a rewrite of every line of a 60 MB file.)
//
// When the call ends the settings are restored and the memory is given
// back to the system, so that a long-running server's resident memory
// returns to its size before the call.
type bigCallMemory struct {
	prevLimit int64 // the limit before the call; -1 when not changed
	prevGC    int   // GOGC before the call; -1 when not changed
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
	m.prevLimit, m.prevGC = -1, -1
	if argsBytes <= bigBytes {
		return
	}
	// The arguments are in the heap already: the bound counts from the
	// heap before them.
	base := heapBytes()
	base -= min(base, uint64(argsBytes))
	user := debug.SetMemoryLimit(-1)
	if limit := base + 3*uint64(argsBytes); limit < math.MaxInt64 && int64(limit) < user {
		m.prevLimit = debug.SetMemoryLimit(int64(limit))
	}
}

// phase is the engine's report of a phase over a big file.
func (m *bigCallMemory) phase() {
	if m.prevGC < 0 {
		if m.prevGC = debug.SetGCPercent(10); m.prevGC < 0 || m.prevGC <= 10 {
			debug.SetGCPercent(m.prevGC) // the user's GOGC is off or lower
		}
	}
}

// end restores the settings and returns the call's memory to the system.
func (m *bigCallMemory) end() {
	if m.prevLimit < 0 && m.prevGC < 0 {
		return
	}
	if m.prevLimit >= 0 {
		debug.SetMemoryLimit(m.prevLimit)
	}
	if m.prevGC >= 0 {
		debug.SetGCPercent(m.prevGC)
	}
	m.prevLimit, m.prevGC = -1, -1
	debug.FreeOSMemory()
}
