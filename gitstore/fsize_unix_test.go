//go:build linux || darwin

package gitstore

import "golang.org/x/sys/unix"

const canLimitFileSize = true

// limitFileSize makes every write past n bytes of a file fail in this
// process (RLIMIT_FSIZE: the write returns EFBIG, as a full disk returns
// ENOSPC, after the file was created).
func limitFileSize(n uint64) error {
	return unix.Setrlimit(unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: n, Max: n})
}
