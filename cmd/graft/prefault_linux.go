//go:build cgo

package main

// A graft CLI process lives for a few tens of milliseconds, and on a
// virtual machine a good part of that is page faults: the first touch of
// each stretch of the binary's code traps into the kernel, which maps
// the pages around it from the page cache (fault-around, 16 pages at a
// time). Mapping the whole executable segment (7 MB) in one system call
// before the Go runtime starts, with madvise(MADV_POPULATE_READ), costs
// less than the faults it replaces: `graft --version` 12 to 14% faster,
// a CLI edit 8 to 13% less CPU and 6 to 10% less time (docs/BENCHMARKS.md,
// "Seventh look"), for 1.8 MB more resident (shared, clean file pages).
// Only the code: mapping the read-only data too (20 MB, mostly the
// grammars' tables, read sparsely) saved no more time and made 12 MB more
// resident than the code alone.
//
// It runs as a C constructor because the Go runtime and the libraries'
// package initialisers, which fault in most of what a short process
// touches, all run before any of graft's own Go code. Linux 5.14 or later
// (MADV_POPULATE_READ); before that the call fails and nothing changes.
// GRAFT_NOPREFAULT set in the environment skips it (to measure it).

/*
#define _GNU_SOURCE
#include <link.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_READ
#define MADV_POPULATE_READ 22
#endif

static int graft_populate_code(struct dl_phdr_info *info, size_t size, void *data) {
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_X)) {
			continue;
		}
		uintptr_t start = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)4095;
		uintptr_t end = (info->dlpi_addr + ph->p_vaddr + ph->p_filesz + 4095) & ~(uintptr_t)4095;
		madvise((void *)start, end - start, MADV_POPULATE_READ);
	}
	return 1; // the executable is the first object: stop there
}

__attribute__((constructor)) static void graft_prefault(void) {
	if (getenv("GRAFT_NOPREFAULT") == NULL) {
		dl_iterate_phdr(graft_populate_code, NULL);
	}
}
*/
import "C"
