package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"
)

// TrailerCarry is the Graft-Tool value of a carry commit: the journal
// carried onto the branch's new commit after the branch moved.
const TrailerCarry = "carry"

// The journal survives the user's own commits. A journal belongs to a
// branch (refs/graft/<branch>) and records the agent's work on top of the
// branch commit it started from, its base. When the branch has moved since
// (a commit, an amend, a rebase, a pull, a reset), the journal is carried
// onto the branch's new commit H before anything is added to it:
//
//   - each path the journal changed from its base B (the agent's paths)
//     is looked at in H, in the worktree and in the journal's tree J:
//     landed when H holds the journal's version (the user committed the
//     agent's work); discarded when the worktree holds H's version and
//     H's is not the journal's (the user threw the agent's change away,
//     as git reset --hard or git checkout -- do, or committed the file as
//     the worktree holds it); pending otherwise, and then the journal's
//     change B→J is merged onto H's version at line level (an unchanged H
//     version simply takes J's; where the merge does not go through, J's
//     version stays);
//   - the carried tree is H's tree with the pending paths set so, so that
//     `git diff <branch> refs/graft/<branch>` shows the agent's work not
//     yet on the branch, and nothing the branch brought;
//   - the carry is a journal commit of its own ("Graft-Tool: carry") with
//     two parents, the journal's tip first and H second, and H as its
//     Graft-Base: the first-parent chain still runs through every earlier
//     entry, so history lists them, undo reverses them (three-way, while
//     their lines fit the files as they are) and diff ID shows them; the
//     second parent records the branch commit it was carried onto;
//   - a journal whose every path was discarded while the branch moved to a
//     commit that does not descend from its base (git reset --hard to
//     another commit, a checkout of another commit's files) restarts on H
//     instead: nothing of the agent's work is left to carry, and the old
//     entries stay in the journal ref's reflog.
//
// Reads (history, diff, status, land) see the carried journal at once;
// the carry commit is written with the next call that lands, in the same
// transaction. A detached HEAD's journal (refs/graft/detached) is not
// carried: it restarts whenever HEAD moves, as git's own detached work
// has no branch to follow. Carrying reads the worktree files of the
// agent's paths once per move of the branch; nothing else.

// carryPlan is what carrying a journal onto the branch's new commit gives.
type carryPlan struct {
	restart bool // nothing to carry: the journal restarts on HEAD
	tree    oid  // the carried tree (H's tree with the pending paths set)
	pending []string
}

// maxAncestry bounds the commits descends reads.
const maxAncestry = 100000

// descends reports whether commit h has base among its ancestors (or is
// it); a zero base (a journal started on an unborn branch) is everyone's.
// The walk stops at commits older than base by more than a day (clock
// skew) and after maxAncestry commits, answering no.
func (s *Store) descends(h, base oid) (bool, error) {
	if base.IsZero() || h == base {
		return true, nil
	}
	b, err := s.commit(base)
	if err != nil {
		return false, nil // not readable (a shallow clone): not known to descend
	}
	floor := b.Committer.When.Add(-24 * time.Hour)
	seen := map[oid]bool{h: true}
	queue := []oid{h}
	for n := 0; len(queue) > 0 && n < maxAncestry; n++ {
		c, err := s.commit(queue[0])
		queue = queue[1:]
		if err != nil {
			continue // beyond a shallow clone's boundary
		}
		for _, p := range c.Parents {
			if p == base {
				return true, nil
			}
			if seen[p] {
				continue
			}
			seen[p] = true
			if pc, err := s.commit(p); err == nil && !pc.Committer.When.Before(floor) {
				queue = append(queue, p)
			}
		}
	}
	return false, nil
}

// planCarry works out how the journal whose tip tree is journal, based on
// base, is carried onto head (whose tree is headTree). It writes the
// merged blobs and the carried trees (into the transaction's batch when
// one is open).
func (s *Store) planCarry(base, head, headTree, journal oid) (*carryPlan, error) {
	baseTree, err := s.commitTree(base)
	if err != nil {
		return nil, err
	}
	changes, err := s.treeChanges(baseTree, journal)
	if err != nil {
		return nil, err
	}
	plan := &carryPlan{tree: headTree}
	set := map[string]entry{}
	attrs := attrCache{}
	landed := 0
	for _, ch := range changes {
		h, err := s.lookup(headTree, ch.path)
		if err != nil {
			return nil, err
		}
		if h == ch.after {
			landed++
			continue
		}
		// A worktree file that cannot be read counts as holding the
		// agent's work.
		if w, err := s.worktreeEntry(ch.path, h, attrs); err == nil && w == h {
			continue // discarded, or committed as the worktree holds it
		}
		e := ch.after
		if h != ch.before && !ch.after.absent() && !h.absent() && !ch.before.absent() &&
			mergeable(ch.before.Mode) && mergeable(h.Mode) && mergeable(ch.after.Mode) {
			if m, ok, err := s.mergeOnto(ch, h); err != nil {
				return nil, err
			} else if ok {
				e = m
			}
		}
		if e != h {
			set[ch.path] = e
			plan.pending = append(plan.pending, ch.path)
		}
	}
	if len(set) == 0 && landed == 0 {
		ok, err := s.descends(head, base)
		if err != nil {
			return nil, err
		}
		if !ok {
			plan.restart = true
			return plan, nil
		}
	}
	if len(set) > 0 {
		if plan.tree, err = s.updateTree(headTree, set); err != nil {
			return nil, err
		}
		if plan.tree.IsZero() {
			if plan.tree, err = s.emptyTree(); err != nil {
				return nil, err
			}
		}
	}
	return plan, nil
}

// worktreeEntry is the entry git add would record for the worktree file
// at path (absent when there is none, or when it is not a regular file);
// stored is the branch's entry, for the safer autocrlf rule.
func (s *Store) worktreeEntry(path string, stored entry, attrs attrCache) (entry, error) {
	name := s.abs(path)
	fi, err := os.Lstat(name)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		t, err := os.Readlink(name)
		if err != nil {
			return entry{}, fmt.Errorf("gitstore: %w", err)
		}
		return entry{Hash: s.blobHash([]byte(t)), Mode: modeSymlink}, nil
	}
	if errors.Is(err, fs.ErrNotExist) || err == nil && !fi.Mode().IsRegular() {
		return entry{}, nil
	}
	if err != nil {
		return entry{}, fmt.Errorf("gitstore: %w", err)
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return entry{}, fmt.Errorf("gitstore: %w", err)
	}
	c, err := s.clean(path, b, s.conversionOf(path, attrs), stored, "")
	if err != nil {
		return entry{}, err
	}
	mode := fileMode(uint32(fi.Mode().Perm()))
	trustMode := s.cfg.get("core", "filemode") == "" || boolValue(s.cfg.get("core", "filemode"))
	if !trustMode && !stored.absent() {
		mode = stored.Mode
	}
	return entry{Hash: c.hash, Mode: mode}, nil
}

// mergeable reports whether a tree entry of mode m holds lines to merge
// (not a submodule, not a link).
func mergeable(m uint32) bool { return m != modeSubmodule && m != modeSymlink }

// mergeOnto merges the journal's change ch (before → after) onto the
// branch's version h of the same path, line by line; ok is false when the
// two overlap differently (or the file is binary).
func (s *Store) mergeOnto(ch fileChange, h entry) (entry, bool, error) {
	before, after, err := s.changeContents(ch)
	if err != nil {
		return entry{}, false, err
	}
	theirs, err := s.readBlob(h.Hash)
	if err != nil {
		return entry{}, false, err
	}
	if isBinary(before) || isBinary(after) || isBinary(theirs) {
		return entry{}, false, nil
	}
	m, err := mergeSame(before, after, theirs)
	if err != nil {
		return entry{}, false, nil
	}
	id, err := s.writeBlob(m)
	if err != nil {
		return entry{}, false, err
	}
	mode := ch.after.Mode
	if ch.before.Mode == ch.after.Mode {
		mode = h.Mode // the journal did not change the mode: the branch's
	}
	return entry{Hash: id, Mode: mode}, true, nil
}

// mergeSame applies the change base→ours to theirs (base changed another
// way) as merge3 does, except that a change both sides made alike is
// taken once instead of being a conflict.
func mergeSame(base, ours, theirs []byte) ([]byte, error) {
	a, b := lineEdits(base, ours), lineEdits(base, theirs)
	var o, t []ledit
	for _, e := range a {
		same := false
		for _, f := range b {
			if e == f {
				same = true
				break
			}
		}
		if !same {
			o = append(o, e)
		}
	}
	t = b
	for _, e := range o {
		for _, f := range t {
			if e.a0 <= f.a1 && f.a0 <= e.a1 {
				return nil, fmt.Errorf("lines %d-%d changed on both sides", e.a0+1, max(e.a1, e.a0+1))
			}
		}
	}
	return weave(base, o, t), nil
}

// carryMessage is the message of a carry commit onto head.
func (s *Store) carryMessage(head oid, pending []string, who Attribution) string {
	subj := "graft: journal carried onto " + head.Short()
	if c, err := s.commit(head); err == nil {
		subj += " (" + strings.TrimSpace(subject(c.Message)) + ")"
	}
	return commitMessage(subj, pending, append([]string{TrailerTool + ": " + TrailerCarry, TrailerBase + ": " + s.hexOrZero(head)}, who.lines()...))
}
