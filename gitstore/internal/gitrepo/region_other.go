//go:build !unix

package gitrepo

import (
	"io/fs"
	"os"
)

// mapFile opens a file for reading at any offset (no mapping here: read
// through the file).
func mapFile(name string) (region, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return &fileRegion{f: f, n: fi.Size()}, nil
}

func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}

func rename(from, to string) error { return os.Rename(from, to) }
