// Package testhook holds the moments at which tests may act inside graft's
// own code, where a test of another package needs to (the engine's tests
// write a file between a transaction's last check and its rename). Nothing
// here is set outside tests.
package testhook

// LateWrite, when set, runs at three moments of each file's replacement
// in a transaction (gitstore/late.go): "check" (after the transaction's
// last check of the file, before it is held), "rename" (held, just before
// the rename) and "renamed" (just after it, before the replaced file is
// read); and "restore" when a file is put back because the call was
// abandoned. path is the file's path relative to the worktree.
var LateWrite func(moment, path string)
