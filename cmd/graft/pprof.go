//go:build pprof

package main

// Profiling a whole graft process: build with -tags pprof and set
// GRAFT_CPUPROFILE and/or GRAFT_MEMPROFILE to file names (used by the
// profile step of fixtures/bench/edges.sh); a "%d" in a name becomes the
// process id, so that each process of a benchmark keeps its own profile.
// GRAFT_PPROF_ADDR (HOST:PORT) serves net/http/pprof there while the
// process runs (a long-running server's heap at any minute: the soak's);
// a process that finds the address taken (another graft has it) goes on
// without. Not in normal builds, so that runtime/pprof costs nothing at
// start-up.

import (
	"net"
	"net/http"
	_ "net/http/pprof" // the /debug/pprof handlers, on the default mux
	"os"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
)

func init() {
	if name := withPID(os.Getenv("GRAFT_CPUPROFILE")); name != "" {
		if f, err := os.Create(name); err == nil {
			_ = pprof.StartCPUProfile(f)
			atExit = append(atExit, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if name := withPID(os.Getenv("GRAFT_MEMPROFILE")); name != "" {
		runtime.MemProfileRate = 4096
		atExit = append(atExit, func() {
			// The profile holds what was allocated up to the last
			// collection: one now, so that the end of the run is in.
			runtime.GC()
			if f, err := os.Create(name); err == nil {
				_ = pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		})
	}
	if addr := os.Getenv("GRAFT_PPROF_ADDR"); addr != "" {
		if ln, err := net.Listen("tcp", addr); err == nil {
			runtime.MemProfileRate = 4096 // a heap profile fine enough to compare minutes
			go func() { _ = http.Serve(ln, http.DefaultServeMux) }()
		}
	}
}

// withPID puts the process id in place of a "%d" in name.
func withPID(name string) string {
	if strings.Contains(name, "%d") {
		return strings.Replace(name, "%d", strconv.Itoa(os.Getpid()), 1)
	}
	return name
}
