//go:build cgo && (amd64 || arm64) && !race && !msan && !asan

package main

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// heapAdvice reports the VmFlags of this process's mapping that holds a
// fresh heap object: "hg" when huge pages were advised, "nh" when advised
// against, "" for neither.
func heapAdvice(t *testing.T) string {
	t.Helper()
	obj := new([1 << 10]byte)
	addr := uint64(uintptr(unsafe.Pointer(obj)))
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skip("no /proc/self/smaps:", err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) >= 5 && strings.Contains(fields[0], "-") && !strings.HasSuffix(fields[0], ":") {
			lo, hi, _ := strings.Cut(fields[0], "-")
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && l <= addr && addr < h
			continue
		}
		if in && len(fields) > 0 && fields[0] == "VmFlags:" {
			for _, fl := range fields[1:] {
				if fl == "hg" || fl == "nh" {
					return fl
				}
			}
			return ""
		}
	}
	t.Fatalf("no mapping of the heap object %#x in /proc/self/smaps", addr)
	return ""
}

// TestHugeHeapAdvised checks hugeheap_linux.go in a child process: the Go
// heap's mapping is advised huge pages, not with GRAFT_NOHUGEPAGES, and
// advised against once hugeHeapOff ran (what `graft mcp` does).
func TestHugeHeapAdvised(t *testing.T) {
	if mode := os.Getenv("GRAFT_HUGEHEAP_CHILD"); mode != "" {
		if mode == "off" {
			hugeHeapOff()
		}
		fmt.Printf("advice %q\n", heapAdvice(t))
		return
	}
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("the kernel has no transparent huge pages")
	}
	child := func(env ...string) string {
		s, _ := strconv.Unquote(childLine(t, "TestHugeHeapAdvised", "advice ", env...))
		return s
	}
	if got := child("GRAFT_HUGEHEAP_CHILD=on"); got != "hg" {
		t.Errorf("heap mapping advised %q, want hg (huge pages)", got)
	}
	if got := child("GRAFT_HUGEHEAP_CHILD=on", "GRAFT_NOHUGEPAGES=1"); got != "" {
		t.Errorf("with GRAFT_NOHUGEPAGES the heap mapping is advised %q, want nothing", got)
	}
	if got := child("GRAFT_HUGEHEAP_CHILD=off"); got != "nh" {
		t.Errorf("after hugeHeapOff the heap mapping is advised %q, want nh (advised back)", got)
	}
}
