//go:build unix

package gitstore

import "syscall"

// openReplaced opens the file a transaction is about to replace or
// remove, so that its inode outlives its name (holdReplaced). It never
// follows a link and never blocks on a special file; any failure only
// means the file is freed at once, as without DeferFrees.
func openReplaced(name string) (fd int, ok bool) {
	for {
		fd, err := syscall.Open(name, syscall.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err == syscall.EINTR {
			continue
		}
		return fd, err == nil
	}
}

func closeReplaced(fd int) { syscall.Close(fd) }
