package apply

// SetBeforeLand makes e run f just before each call's changes go to the
// store: tests use it to change a file under a call.
func SetBeforeLand(e *Engine, f func()) { e.beforeLand = f }

// FoldCase makes e treat its worktree's file system as one that folds
// case, as Windows and macOS file systems do, on any platform.
func FoldCase(e *Engine) { e.rules.FoldCase = true }
