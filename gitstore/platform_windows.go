//go:build windows

package gitstore

import (
	"context"
	"errors"
	"os"
	"time"

	"github.com/gofrs/flock"
	"golang.org/x/sys/windows"
)

// winLock is the repository lock on Windows: LockFileEx on the lock file,
// through github.com/gofrs/flock. Windows locks are mandatory (the locked
// byte cannot be read through another handle), so the holder note is a file
// of its own beside the lock file.
type winLock struct {
	fl   *flock.Flock
	name string
}

// acquireLock takes the lock, polling every 5 ms until the deadline (ok
// false when it passes). Windows releases the lock when its holder's handle
// closes, which its death does.
func acquireLock(name string, deadline time.Time) (repoLock, bool, error) {
	fl := flock.New(name)
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 5*time.Millisecond)
	if errors.Is(err, context.DeadlineExceeded) {
		return nil, false, nil
	}
	if err != nil || !ok {
		_ = fl.Close()
		return nil, false, err
	}
	return winLock{fl: fl, name: name}, true, nil
}

func (l winLock) note(text string) error {
	return os.WriteFile(holderPath(l.name), []byte(text), 0o644)
}

func (l winLock) unlock() error {
	_ = os.WriteFile(holderPath(l.name), nil, 0o644)
	err := l.fl.Unlock()
	if cerr := l.fl.Close(); err == nil {
		err = cerr
	}
	return err
}

// holderPath is where the holder note of the lock file name is.
func holderPath(name string) string { return name + ".holder" }

// renameOver is MoveFileEx with MOVEFILE_REPLACE_EXISTING (replace name in
// one step) and MOVEFILE_WRITE_THROUGH (return only once the move is on
// disk, which is what syncing the directory does on Unix).
func renameOver(tmp, name string) error {
	from, err := windows.UTF16PtrFromString(tmp)
	if err != nil {
		return err
	}
	to, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return err
	}
	if err := windows.MoveFileEx(from, to, windows.MOVEFILE_REPLACE_EXISTING|windows.MOVEFILE_WRITE_THROUGH); err != nil {
		return &os.LinkError{Op: "replace", Old: tmp, New: name, Err: err}
	}
	return nil
}

// transientReplace: another program has the file open without
// FILE_SHARE_DELETE (an editor saving, a virus scanner, the search
// indexer): it lets go within moments.
func transientReplace(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}
