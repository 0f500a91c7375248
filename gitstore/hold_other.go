//go:build !unix

package gitstore

import (
	"errors"
	"os"
)

// openReplaced keeps nothing off Unix: on Windows an open handle would
// keep the file from being replaced.
func openReplaced(string) (*os.File, error) {
	return nil, errors.ErrUnsupported
}
