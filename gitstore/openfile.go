package gitstore

import (
	"io/fs"
	"os"

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// openFile is os.OpenFile for the regular files of a transaction, in one
// system call where the platform allows it (gitrepo.OpenFile: os.OpenFile
// offers every file to the network poller, five calls where one does).
func openFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	return gitrepo.OpenFile(name, flag, perm)
}
