//go:build !unix && !windows

package gitstore

import (
	"errors"
	"os"
	"time"
)

// acquireLock: no cross-process lock is implemented on this platform.
func acquireLock(name string, deadline time.Time) (repoLock, bool, error) {
	return nil, false, errors.New("gitstore: file locking is not supported on this platform")
}

func holderPath(name string) string     { return name }
func renameOver(tmp, name string) error { return os.Rename(tmp, name) }
func transientReplace(error) bool       { return false }
