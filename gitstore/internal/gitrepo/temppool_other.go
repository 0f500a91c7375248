//go:build !unix

package gitrepo

import "os"

// poolSupported: off Unix an open file cannot be renamed, so there is no
// pool (StartPool does nothing).
const poolSupported = false

func lockPoolFile(*os.File) error   { return nil }
func tryLockPoolFile(*os.File) bool { return false }
