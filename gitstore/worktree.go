package gitstore

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// One journal per worktree. The main worktree keeps its journals at
// refs/graft/<branch> and refs/graft/detached. A linked worktree (one made
// by git worktree add) keeps its own below refs/graft-worktrees/<id>/, where
// <id> is the name git gave it (the last element of its git dir,
// .git/worktrees/<id>):
//
//	refs/graft-worktrees/<id>/heads/<branch>  on a branch
//	refs/graft-worktrees/<id>/detached        while HEAD is detached
//
// so two linked worktrees, detached or on the same branch (git worktree add
// --force), never share a journal, and undo, redo and land in one never see
// another's edits. "heads/" keeps a branch named "detached" apart from the
// detached journal, and the separate namespace keeps the main worktree's
// refs/graft/<branch> free of directory/file conflicts with worktree names.
//
// These refs are shared refs, not per-worktree refs (refs/worktree/...):
// git gc (2.39 measured) prunes objects that only another worktree's
// refs/worktree/ refs reach, which would lose a journal. So graft prunes
// them itself: when a journal starts (after a commit or a checkout) or is
// landed, the journals of worktrees whose git dir no longer exists (git
// worktree remove, or git worktree prune after the directory was deleted)
// are deleted. A worktree that git later makes again under the same name
// does not take the old journal over: the first call in a linked worktree
// leaves a mark in its git dir (journalMark), and a journal found without
// the mark is a leftover that the next call starts over.

// WorktreeJournals is the namespace of linked worktrees' journals.
const WorktreeJournals = "refs/graft-worktrees/"

// journalMark is the file in a linked worktree's git dir saying that its
// journals under WorktreeJournals are its own.
const journalMark = "graft-journal"

// isJournalRef reports whether name is one of graft's journal refs.
func isJournalRef(name string) bool {
	return strings.HasPrefix(name, "refs/graft/") || strings.HasPrefix(name, WorktreeJournals)
}

// linked reports whether the store is a linked worktree.
func (s *Store) linked() bool { return !s.private && s.gitDir != s.commonDir }

// worktreeID is the name of a linked worktree's journals, made from the
// last element of its git dir; an element that cannot be part of a ref name
// is replaced by a digest of it.
func worktreeID(gitDir string) string {
	id := filepath.Base(gitDir)
	if refComponentOK(id) {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "wt-" + hex.EncodeToString(sum[:8])
}

// refComponentOK reports whether s can be one element of a ref name.
func refComponentOK(s string) bool {
	if s == "" || s[0] == '.' || strings.HasSuffix(s, ".lock") || strings.Contains(s, "..") || strings.Contains(s, "@{") || s == "@" {
		return false
	}
	for _, c := range []byte(s) {
		if c <= ' ' || c == 0x7f || strings.IndexByte("~^:?*[\\/", c) >= 0 {
			return false
		}
	}
	return true
}

// journalRefFor names the journal of branch (refs/heads/X, or "" when HEAD
// is detached) in this worktree.
func (s *Store) journalRefFor(branch string) string {
	name := strings.TrimPrefix(branch, "refs/heads/")
	if !s.linked() {
		if branch == "" {
			return DetachedJournal
		}
		return "refs/graft/" + name
	}
	prefix := WorktreeJournals + worktreeID(s.gitDir) + "/"
	if branch == "" {
		return prefix + "detached"
	}
	return prefix + "heads/" + name
}

// ownsJournals reports whether the journals named for this worktree are
// its own: always in the main worktree; in a linked one once its first
// call left the mark.
func (s *Store) ownsJournals() bool {
	return !s.linked() || exists(filepath.Join(s.gitDir, journalMark))
}

// markJournals leaves the mark after a call landed in a linked worktree.
func (s *Store) markJournals() {
	if s.ownsJournals() {
		return
	}
	_ = os.WriteFile(filepath.Join(s.gitDir, journalMark), []byte("graft keeps this worktree's journals at "+WorktreeJournals+worktreeID(s.gitDir)+"/\n"), 0o644)
}

// mayHoldWorktreeJournals reports whether the repository may hold a
// linked worktree's journal, without a process: with the files ref
// storage, where the namespace has a loose directory or packed-refs names
// it; with reftable, always (git is asked). A new journal starts on every
// branch's first call, and a repository whose worktrees never had one
// (most) then asks git nothing.
func (s *Store) mayHoldWorktreeJournals() bool {
	if _, ok := s.refs.refStore.(*gitRefs); ok {
		return true
	}
	if exists(filepath.Join(s.commonDir, filepath.FromSlash(strings.TrimSuffix(WorktreeJournals, "/")))) {
		return true
	}
	b, err := os.ReadFile(filepath.Join(s.commonDir, "packed-refs"))
	if err != nil {
		return !errors.Is(err, fs.ErrNotExist)
	}
	return bytes.Contains(b, []byte(WorktreeJournals))
}

// pruneWorktreeJournals deletes the journals of linked worktrees that no
// longer exist. It asks git for the refs (any ref storage) and deletes
// each with a compare-and-swap, so a worktree made again meanwhile keeps
// its new journal. Pruning is housekeeping: it never fails a call.
func (s *Store) pruneWorktreeJournals() {
	if s.private || !s.mayHoldWorktreeJournals() {
		return
	}
	live := map[string]bool{}
	if ents, err := os.ReadDir(filepath.Join(s.commonDir, "worktrees")); err == nil {
		for _, e := range ents {
			if e.IsDir() {
				live[worktreeID(e.Name())] = true
			}
		}
	}
	git := func(stdin string, args ...string) ([]byte, error) {
		cmd := exec.Command("git", append([]string{"--git-dir", s.gitDir}, args...)...)
		cmd.Dir = s.root
		cmd.Stdin = strings.NewReader(stdin)
		return cmd.Output()
	}
	out, err := git("", "for-each-ref", "--format=%(objectname) %(refname)", WorktreeJournals)
	if err != nil {
		return
	}
	var del strings.Builder
	for _, line := range bytes.Split(out, []byte("\n")) {
		id, name, ok := strings.Cut(string(line), " ")
		if !ok {
			continue
		}
		wt, _, _ := strings.Cut(strings.TrimPrefix(name, WorktreeJournals), "/")
		if !live[wt] {
			del.WriteString("delete " + name + " " + id + "\n")
		}
	}
	if del.Len() > 0 {
		_, _ = git(del.String(), "update-ref", "--stdin")
	}
}
