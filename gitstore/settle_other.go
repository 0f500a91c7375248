//go:build !linux

package gitstore

import "os"

// openForWriting: this platform cannot tell whether another process has a
// file open for writing.
func openForWriting(*os.File) (writing, known bool) { return false, false }
