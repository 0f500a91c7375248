// Package gitstore is the repository side of graft: it finds the worktree,
// and lands a call's file changes all-or-nothing.
package gitstore
