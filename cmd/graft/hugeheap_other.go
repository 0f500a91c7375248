//go:build !(linux && cgo && (amd64 || arm64) && !race && !msan && !asan)

package main

// hugeHeapOff does nothing where the Go heap is not advised huge pages
// (hugeheap_linux.go says where it is, and why).
func hugeHeapOff() {}
