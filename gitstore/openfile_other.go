//go:build !unix

package gitstore

import (
	"io/fs"
	"os"
)

// openFile is os.OpenFile.
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return os.OpenFile(name, flag, perm)
}
