//go:build !unix

package gitstore

// openReplaced does nothing off Unix: on Windows an open handle would keep
// the file from being replaced.
func openReplaced(string) (int, bool) { return 0, false }

func closeReplaced(int) {}
