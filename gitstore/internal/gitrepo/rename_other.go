//go:build !linux

package gitrepo

import "errors"

// renameNoReplace is not available here: lock files are created.
func renameNoReplace(from, to string) error {
	return errors.New("no exclusive rename on this system")
}
