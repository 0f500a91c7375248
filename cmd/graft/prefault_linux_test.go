//go:build cgo

package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// codeResident is the share of the executable's code mapping of this
// process that is resident (Rss over Size in /proc/self/smaps).
func codeResident(t *testing.T) float64 {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	in, size, rss := false, 0.0, 0.0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		switch {
		case len(fields) >= 6 && strings.Contains(fields[0], "-"):
			in = strings.Contains(fields[1], "x") && fields[len(fields)-1] == exe
		case in && len(fields) == 3 && (fields[0] == "Size:" || fields[0] == "Rss:"):
			v, _ := strconv.ParseFloat(fields[1], 64)
			if fields[0] == "Size:" {
				size += v
			} else {
				rss += v
			}
		}
	}
	if size == 0 {
		t.Fatalf("no code mapping of %s in /proc/self/smaps", exe)
	}
	return rss / size
}

// TestPrefaultMapsCode checks that the constructor in prefault_linux.go
// made the whole executable code resident before the program ran, and
// that without it (GRAFT_NOPREFAULT) a process has far less of it: the
// check can tell the two apart.
func TestPrefaultMapsCode(t *testing.T) {
	if os.Getenv("GRAFT_PREFAULT_CHILD") != "" {
		fmt.Printf("resident %.4f\n", codeResident(t))
		return
	}
	// A kernel without MADV_POPULATE_READ (before 5.14) refuses it with
	// EINVAL, and the constructor does nothing there.
	page := make([]byte, os.Getpagesize())
	if _, _, e := syscall.Syscall(syscall.SYS_MADVISE, uintptrOf(page), uintptr(len(page)), 22); e == syscall.EINVAL {
		t.Skip("the kernel has no MADV_POPULATE_READ")
	}
	child := func(env ...string) float64 {
		v := childLine(t, "TestPrefaultMapsCode", "resident ", append([]string{"GRAFT_PREFAULT_CHILD=1"}, env...)...)
		r, _ := strconv.ParseFloat(v, 64)
		return r
	}
	with, without := child(), child("GRAFT_NOPREFAULT=1")
	t.Logf("code resident: %.1f%% with the constructor, %.1f%% without", 100*with, 100*without)
	if with < 0.95 {
		t.Errorf("with the constructor %.1f%% of the code is resident, want all of it", 100*with)
	}
	if without >= with {
		t.Errorf("without the constructor %.1f%% of the code is resident, no less than with it (%.1f%%)", 100*without, 100*with)
	}
}

// childLine runs this test binary's test again in a child process, with
// env added to the environment, and returns what follows prefix on the
// first line of its output that begins with it.
func childLine(t *testing.T, test, prefix string, env ...string) string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.count=1")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child %v: %v\n%s", env, err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(l, prefix); ok {
			return v
		}
	}
	t.Fatalf("child %v printed no %q line:\n%s", env, prefix, out)
	return ""
}

// uintptrOf is the address of b's first byte.
func uintptrOf(b []byte) uintptr { return uintptr(unsafe.Pointer(&b[0])) }
