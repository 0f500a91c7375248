//go:build unix

package gitstore

import (
	"os"
	"syscall"
)

// openReplaced opens the file a transaction is about to replace or
// remove, so that its inode outlives its name (holdReplaced). It never
// follows a link and never blocks on a special file; any failure only
// means the file is freed at once, as without DeferFrees.
func openReplaced(name string) (*os.File, error) {
	return openFile(name, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
