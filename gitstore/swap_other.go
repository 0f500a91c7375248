//go:build !linux && !darwin

package gitstore

// exchangeFiles: this platform has no swap of two names in one step.
func exchangeFiles(a, b string) error { return errNoSwap }

// renameNoReplace: this platform has no rename that refuses to replace.
func renameNoReplace(a, b string) error { return errNoSwap }
