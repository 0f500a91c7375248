//go:build pprof

package main

// Profiling a whole graft process: build with -tags pprof and set
// GRAFT_CPUPROFILE and/or GRAFT_MEMPROFILE to file names (used by the
// profile step of fixtures/bench/edges.sh). Not in normal builds, so that
// runtime/pprof costs nothing at start-up.

import (
	"os"
	"runtime"
	"runtime/pprof"
)

func init() {
	if name := os.Getenv("GRAFT_CPUPROFILE"); name != "" {
		if f, err := os.Create(name); err == nil {
			_ = pprof.StartCPUProfile(f)
			atExit = append(atExit, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if name := os.Getenv("GRAFT_MEMPROFILE"); name != "" {
		runtime.MemProfileRate = 4096
		atExit = append(atExit, func() {
			if f, err := os.Create(name); err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		})
	}
}
