//go:build cgo && (amd64 || arm64) && !race && !msan && !asan

package main

// A one-command graft process touches one to two megabytes of fresh Go
// heap, and on Linux each first touch of a 4 KiB page is a page fault: 370
// of them in a CLI edit, about 12 µs each on the virtual machines these
// figures come from, a fifth of the process's time. The same memory as
// transparent huge pages takes one fault per 2 MiB. Where the kernel's THP
// mode is "madvise" (the default of most distributions), a mapping gets
// huge pages only when madvise(MADV_HUGEPAGE) asks for them, and the Go
// runtime no longer asks (it stopped in Go 1.21.1: in a long-lived process
// the kernel's khugepaged re-collapses memory the runtime's scavenger has
// returned, and resident memory grows).
//
// So a cgo build asks for it here, for the Go heap only. The runtime maps
// each stretch of heap (4 MiB or more, fixed address, anonymous, read and
// write) through the C library's mmap when cgo is linked in (runtime/cgo's
// x_cgo_mmap, there for the sanitizers); this file defines mmap in the
// executable, so that call comes here: it makes the system call itself and
// advises MADV_HUGEPAGE on such a mapping. Nothing else calls it: the C
// library's own allocations use its internal entry point, the grammars
// call malloc. A CLI edit of a 1,000-file repository takes 14 to 25% less
// CPU, 14 to 23% less time and half the page faults, for 2 to 3 MB more
// resident (docs/BENCHMARKS.md, "Eighth look").
//
// The long-lived `graft mcp` turns it off (hugeHeapOff) as it starts, for
// the reason the runtime stopped: the ranges advised until then (the
// packages' initialisers' heap, 4 MiB) are advised back, and no later
// mapping is. GRAFT_NOHUGEPAGES set in the environment leaves every
// mapping as the runtime made it (to measure this). Sanitizer builds
// (race, memory, address) do not have it: they are for finding bugs, and
// the memory and address sanitizers interpose on mmap themselves.

/*
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef MADV_HUGEPAGE
#define MADV_HUGEPAGE 14
#endif
#ifndef MADV_NOHUGEPAGE
#define MADV_NOHUGEPAGE 15
#endif

static int graft_huge_on = 1;

// The ranges advised, so that hugeHeapOff can advise them back; a
// one-command process maps a few before its command runs, and later ones
// are not needed (the long-lived process turns the advice off first).
#define GRAFT_HUGE_MAX 16
static struct { void *p; size_t n; } graft_huge_ranges[GRAFT_HUGE_MAX];
static int graft_huge_count;

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
	void *p = (void *)syscall(SYS_mmap, addr, len, prot, flags, fd, off);
	if (p == MAP_FAILED || len < (2u << 20) || prot != (PROT_READ | PROT_WRITE) ||
	    (flags & (MAP_FIXED | MAP_ANONYMOUS)) != (MAP_FIXED | MAP_ANONYMOUS) ||
	    !__atomic_load_n(&graft_huge_on, __ATOMIC_ACQUIRE)) {
		return p;
	}
	if (madvise(p, len, MADV_HUGEPAGE) == 0) {
		int i = __atomic_fetch_add(&graft_huge_count, 1, __ATOMIC_ACQ_REL);
		if (i < GRAFT_HUGE_MAX) {
			graft_huge_ranges[i].p = p;
			graft_huge_ranges[i].n = len;
		}
	}
	return p;
}

static void graft_huge_off(void) {
	__atomic_store_n(&graft_huge_on, 0, __ATOMIC_RELEASE);
	int n = __atomic_load_n(&graft_huge_count, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n && i < GRAFT_HUGE_MAX; i++) {
		if (graft_huge_ranges[i].p != NULL) {
			madvise(graft_huge_ranges[i].p, graft_huge_ranges[i].n, MADV_NOHUGEPAGE);
		}
	}
}

__attribute__((constructor)) static void graft_huge_init(void) {
	if (getenv("GRAFT_NOHUGEPAGES") != NULL) {
		graft_huge_on = 0;
	}
}
*/
import "C"

// hugeHeapOff stops advising huge pages for the Go heap and advises back
// the ranges advised so far: for a process that lives long (`graft mcp`).
func hugeHeapOff() { C.graft_huge_off() }
