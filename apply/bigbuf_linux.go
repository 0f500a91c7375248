package apply

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// adviseHuge asks the kernel to back the 2 MiB-aligned interior of b with
// transparent huge pages (where THP is in "madvise" mode, the common
// default). Only advice: nothing changes if the kernel declines.
func adviseHuge(b []byte) {
	const huge = 2 << 20
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := int((p+huge-1)&^(huge-1) - p)
	end := int((p+uintptr(len(b)))&^(huge-1) - p)
	if end-start >= huge {
		_ = unix.Madvise(b[start:end], unix.MADV_HUGEPAGE)
	}
}
