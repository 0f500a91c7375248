//go:build !linux && !darwin

package gitstore

import "errors"

const canLimitFileSize = false

func limitFileSize(uint64) error { return errors.ErrUnsupported }
