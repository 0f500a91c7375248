package gitstore

import (
	"errors"
	"time"
)

// The platform layer is two small pieces, one file per platform
// (platform_unix.go, platform_windows.go, platform_other.go):
//
//   - acquireLock takes the repository lock, an exclusive lock on a file
//     that the operating system releases when its holder dies (flock on
//     Unix, LockFileEx through github.com/gofrs/flock on Windows), and
//     returns a repoLock;
//   - renameOver moves a file over another in one step (rename(2) on Unix,
//     MoveFileEx with MOVEFILE_REPLACE_EXISTING|MOVEFILE_WRITE_THROUGH on
//     Windows), and transientReplace says which of its errors mean that
//     another program (an editor, a virus scanner, an indexer) holds the
//     file open for a moment.
//
// Everything around them is written once, here and in lock.go and txn.go,
// and tested on every platform: the holder note, the retry of a replace that
// another program holds up, the commit protocol.

// repoLock is the repository lock as one platform holds it.
type repoLock interface {
	// note replaces the holder note: who holds the lock, for a waiter's
	// error and graft status.
	note(text string) error
	// unlock clears the note and releases the lock.
	unlock() error
}

// replaceRetry is how long replaceFile keeps retrying a replacement that
// another program holds up before it gives up.
const replaceRetry = 2 * time.Second

// ErrHeldOpen is a file another program kept open (and locked against
// replacement) for longer than graft waits.
var ErrHeldOpen = errors.New("another program holds the file open")

// replaceFile moves tmp over name in one step. Where the platform refuses
// because another program holds name open for a moment, it retries with
// short pauses for up to replaceRetry, then fails with ErrHeldOpen.
func replaceFile(tmp, name string) error {
	return retryTransient(func() error { return renameOver(tmp, name) }, transientReplace, replaceRetry, time.Sleep)
}

// retryTransient runs op until it succeeds, fails with an error that
// transient does not accept, or budget has passed (then ErrHeldOpen, with
// the last error). Pauses grow from 5 ms to 100 ms; sleep is time.Sleep
// except in tests.
func retryTransient(op func() error, transient func(error) bool, budget time.Duration, sleep func(time.Duration)) error {
	pause, waited := 5*time.Millisecond, time.Duration(0)
	for {
		err := op()
		if err == nil || !transient(err) {
			return err
		}
		if waited >= budget {
			return errors.Join(ErrHeldOpen, err)
		}
		sleep(pause)
		waited += pause
		pause = min(pause*2, 100*time.Millisecond)
	}
}
