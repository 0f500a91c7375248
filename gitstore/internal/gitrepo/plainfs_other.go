//go:build !unix && !windows

package gitrepo

import "os"

// No file locks here: graft's repository lock already serialises its own
// processes.
func lockFile(*os.File) error   { return nil }
func unlockFile(*os.File) error { return nil }
