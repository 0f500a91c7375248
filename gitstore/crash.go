package gitstore

import (
	"os"
	"strconv"
	"strings"
	"sync"
)

// CrashEnv names the test hook: GRAFT_TEST_CRASH=STEP[:N] makes the process
// kill itself with SIGKILL the Nth time (default the first) it reaches the
// named step of a transaction. Steps, in the order a call reaches them:
//
//	locked    the repository lock is held
//	pending   the temporary files are announced, none written yet: in
//	          graft-temps for a big call, in the intent record (written,
//	          not yet synced) for a small one
//	temp      one file's temporary copy is written and synced (N counts
//	          files; on its own goroutine, so anywhere up to intent)
//	objects   blobs, trees and commits are written, and the intent record
//	          (maybe not yet synced)
//	intent    the intent record is durable, no file replaced yet
//	rename    one file is renamed into place (N counts files)
//	ref       the ref has moved, the intent record is still there
//	done      the intent record is removed, the lock still held
//	recover   recovery has restored one file (N counts files)
//
// It exists for the crash tests and does nothing when the variable is unset.
const CrashEnv = "GRAFT_TEST_CRASH"

var crashState struct {
	once  sync.Once
	step  string
	n     int
	count int
	mu    sync.Mutex
}

func crashPoint(step string) {
	crashState.once.Do(func() {
		v := os.Getenv(CrashEnv)
		if v == "" {
			return
		}
		name, num, _ := strings.Cut(v, ":")
		crashState.step = name
		crashState.n = 1
		if n, err := strconv.Atoi(num); err == nil && n > 0 {
			crashState.n = n
		}
	})
	if crashState.step == "" || crashState.step != step {
		return
	}
	crashState.mu.Lock()
	crashState.count++
	hit := crashState.count == crashState.n
	crashState.mu.Unlock()
	if hit {
		crashNow()
	}
}
