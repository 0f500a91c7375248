//go:build !unix

package gitstore

import (
	"errors"
	"os"
	"time"
)

func currentUID() (int, bool)     { return 0, false }
func ownerUID(string) (int, bool) { return 0, false }
func processAlive(pid int) bool   { return pid > 0 }
func unlockFile(f *os.File) error { return nil }
func crashNow()                   { os.Exit(137) }

// lockFile on platforms without flock relies on the pid written in the
// lock file (see lock.go).
func lockFile(f *os.File, deadline time.Time) (bool, error) {
	return false, errors.New("gitstore: file locking is not supported on this platform")
}
