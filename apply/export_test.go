package apply

// SetBeforeLand makes e run f just before each call's changes go to the
// store: tests use it to change a file under a call.
func SetBeforeLand(e *Engine, f func()) { e.beforeLand = f }
