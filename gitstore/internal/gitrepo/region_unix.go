//go:build unix

package gitrepo

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// mapFile maps a whole file into memory, read-only. An empty file is a
// region of no bytes.
func mapFile(name string) (region, error) {
	f, err := OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if fi.Size() == 0 {
		return &memRegion{}, nil
	}
	if int64(int(fi.Size())) != fi.Size() {
		return nil, &fs.PathError{Op: "mmap", Path: name, Err: syscall.EFBIG}
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(fi.Size()), unix.PROT_READ, unix.MAP_SHARED)
	if err != nil {
		return nil, &fs.PathError{Op: "mmap", Path: name, Err: err}
	}
	return &memRegion{b: b, unmap: func() { _ = unix.Munmap(b) }}, nil
}

// OpenFile is os.OpenFile in one system call: os.OpenFile offers every
// file to the network poller (two fcntl calls, an epoll_ctl that fails for
// a regular file, two more fcntl calls), five calls per file that go-git
// and graft open by the dozen in a call.
func OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	for {
		fd, err := syscall.Open(name, flag|syscall.O_CLOEXEC, uint32(perm.Perm()))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return os.NewFile(uintptr(fd), name), nil
	}
}

// rename is os.Rename without its stat of the target (which refuses to
// replace a directory: the names here are files).
func rename(from, to string) error {
	for {
		err := syscall.Rename(from, to)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
		}
		return nil
	}
}

// memRegion is a mapped file.
type memRegion struct {
	b     []byte
	unmap func()
}

func (r *memRegion) size() int64 { return int64(len(r.b)) }

func (r *memRegion) bytes(off, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off+n > int64(len(r.b)) {
		return nil, fmt.Errorf("%d bytes at %d out of the file", n, off)
	}
	return r.b[off : off+n : off+n], nil
}

func (r *memRegion) reader(off, n int64) io.Reader {
	if off < 0 || n < 0 || off+n > int64(len(r.b)) {
		return bytes.NewReader(nil)
	}
	return bytes.NewReader(r.b[off : off+n])
}

func (r *memRegion) close() {
	if r.unmap != nil {
		r.unmap()
		r.unmap = nil
	}
}
