//go:build !unix

package gitstore

import "errors"

func limitFileSize(uint64) error { return errors.ErrUnsupported }
