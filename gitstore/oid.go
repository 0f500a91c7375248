package gitstore

import "github.com/graftdev/graft/gitstore/internal/gitrepo"

// Object ids, trees and commits are gitrepo's (go-git underneath); these
// names keep the journal's code short.

// oid is an object id: lowercase hex, "" when there is none.
type oid = gitrepo.ID

// objectFormat is a repository's hash algorithm (SHA-1 or SHA-256).
type objectFormat = gitrepo.Format

// treeEntry is one name in a tree.
type treeEntry = gitrepo.TreeEntry

// signature is an author or committer.
type signature = gitrepo.Signature

// commit is the part of a commit object graft reads and writes.
type commit = gitrepo.Commit

var (
	formatSHA1   = gitrepo.SHA1
	formatSHA256 = gitrepo.SHA256
)

// Tree entry modes as git writes them.
const (
	modeDir       = gitrepo.ModeDir
	modeRegular   = gitrepo.ModeRegular
	modeExec      = gitrepo.ModeExec
	modeSubmodule = gitrepo.ModeSubmodule
	modeSymlink   = gitrepo.ModeSymlink
)

// linkPerm stands, where graft records a worktree file's permission bits
// (intent records, Change.Mode's bits), for a symbolic link: its content
// is the link's target.
const linkPerm uint32 = 0o120000

// isExec reports whether a tree mode is an executable regular file (git
// reads the old group-writable 100664 as a regular file too).
func isExec(m uint32) bool { return m&0o170000 == 0o100000 && m&0o111 != 0 }
