package gitstore

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Squashed reports a landing of the journal on the branch (graft land).
type Squashed struct {
	// Commit is the new commit on Branch.
	Commit string `json:"commit"`
	// Branch is the full name of the branch it is on.
	Branch string `json:"branch"`
	// Entries is how many journal commits it squashes.
	Entries int `json:"entries"`
	// Files are the paths it changes against the branch's previous commit.
	Files []string `json:"files"`
}

// Squash lands the journal on the current branch as one commit with
// message (a summary when empty): its parent is the branch's commit the
// journal started from and its tree is the journal's tree. Only the index
// entries of the paths it changes are updated (through git update-index,
// which takes index.lock and keeps the index's extensions); the worktree is
// not touched, so a file changed after its last journal entry shows as a
// modification afterwards. The journal then restarts on the new commit;
// its old entries stay reachable through the journal ref's reflog.
//
// The trailers the user asked for (OpenOptions.Trailers, git config
// graft.trailer) end the message, {agent} expanded to each agent whose
// edits it lands.
//
// It fails with ErrNoJournal when there is nothing to land, with
// ErrFiltered for a path git would convert on commit, and with ErrNoBranch
// when HEAD is detached or the journal is outside a repository.
func (s *Store) Squash(ctx context.Context, message string) (Squashed, error) {
	if s.private {
		return Squashed{}, fmt.Errorf("gitstore: outside a repository there is %w to land on", ErrNoBranch)
	}
	var out Squashed
	err := s.withLock(func() error {
		commits, st, err := s.journal()
		if err != nil {
			return err
		}
		if len(commits) == 0 {
			return fmt.Errorf("gitstore: nothing to land: %w", ErrNoJournal)
		}
		if st.branch == "" {
			return fmt.Errorf("gitstore: HEAD is detached (%w); check out a branch to land the journal on", ErrNoBranch)
		}
		baseTree, err := s.commitTree(st.base)
		if err != nil {
			return err
		}
		// The journal's tree, carried onto the branch when the branch
		// moved since it started (carry.go): what is not on the branch.
		changes, err := s.treeChanges(baseTree, st.tree)
		if err != nil {
			return err
		}
		if len(changes) == 0 {
			return fmt.Errorf("gitstore: nothing to land: the journal's edits cancel out or are on the branch already: %w", ErrNoJournal)
		}
		in := &intent{Version: 1, Ref: st.branch, Branch: true, IndexOnly: true,
			Journal: st.ref, OldTip: st.head.String()}
		// The journal's blobs are clean forms already (clean.go): they go
		// to the branch and the index as they are.
		for _, ch := range changes {
			f := intentFile{Path: ch.path}
			if !ch.after.absent() {
				f.New = ch.after.Hash.String()
				f.NewPerm = 0o644
				if isExec(ch.after.Mode) {
					f.NewPerm = 0o755
				}
				if ch.after.Mode == modeSymlink {
					f.NewPerm = linkPerm
				}
			}
			in.Files = append(in.Files, f)
			out.Files = append(out.Files, ch.path)
		}
		if _, err := exec.LookPath("git"); err != nil {
			return fmt.Errorf("gitstore: landing updates the index with git, which is not installed: %w", err)
		}
		message = strings.TrimSpace(message)
		if message == "" {
			message = fmt.Sprintf("graft: land %d journal entries", len(commits))
		}
		agents, err := s.landedAgents(commits)
		if err != nil {
			return err
		}
		if tr := s.userTrailers(agents); len(tr) > 0 {
			message += "\n\n" + strings.Join(tr, "\n")
		}
		author, committer := s.identity(time.Now())
		h, err := s.writeCommit(newCommit(author, committer, message+"\n", st.tree, st.head))
		if err != nil {
			return err
		}
		in.NewTip = h.String()
		in.Reflog = "graft land: " + message
		in.JournalLog = "graft land: journal restarts on the landed commit"
		if err := s.writeIntent(in); err != nil {
			return err
		}
		crashPoint("intent")
		if err := s.refs.update(st.branch, st.head, h, false, committer, in.Reflog); err != nil {
			_ = s.clearIntent(true)
			return err
		}
		crashPoint("ref")
		if err := s.finishLanding(in); err != nil {
			return fmt.Errorf("gitstore: commit %s landed on %s but: %w (the next graft command retries)", h.Short(), st.branch, err)
		}
		if err := s.clearIntent(false); err != nil {
			return err
		}
		s.pruneWorktreeJournals()
		out = Squashed{Commit: h.String(), Branch: string(st.branch), Entries: len(commits), Files: out.Files}
		return nil
	})
	return out, err
}

// finishLanding updates the index entries of a landing and restarts the
// journal on the landed commit.
func (s *Store) finishLanding(in *intent) error {
	if err := s.updateIndex(in.Files); err != nil {
		return err
	}
	_, who := s.identity(time.Now())
	return s.refs.update(in.Journal, "", oid(in.NewTip), true, who, reflogMessage(in.JournalLog))
}

// Status is what `graft status` shows.
type Status struct {
	Root    string `json:"root"`
	GitDir  string `json:"git_dir"`
	Private bool   `json:"private,omitempty"`
	// Mode is "journal" or "commit".
	Mode string `json:"mode"`
	// Branch is the current branch ("" when HEAD is detached).
	Branch string `json:"branch"`
	// Journal is the journal ref; Base the commit it started from.
	Journal string `json:"journal"`
	Base    string `json:"base,omitempty"`
	// Entries counts the journal's commits; Undoable and Redoable how many
	// edits undo and redo can take back or re-apply.
	Entries  int `json:"entries"`
	Undoable int `json:"undoable"`
	Redoable int `json:"redoable"`
	// Stale is set when the journal ref exists but HEAD has moved since it
	// started and nothing of it is carried (carry.go: a reset --hard to
	// another commit, a detached HEAD that moved): the next call starts a
	// new journal on HEAD.
	Stale bool `json:"stale,omitempty"`
	// Carried is set when the branch has moved since the journal started
	// and the journal is carried onto it (carry.go): Entries and the diff
	// are the carried journal's, and the next call that lands writes the
	// carry commit.
	Carried bool `json:"carried,omitempty"`
	// Lock is the process holding the repository's lock, if any.
	Lock *LockHolder `json:"lock,omitempty"`
	// InProgress is set when an intent record exists (a call is landing
	// in another process right now).
	InProgress bool `json:"in_progress,omitempty"`
	// Recovered is the interrupted call this process finished or rolled
	// back when it opened the repository.
	Recovered *Recovery `json:"recovered,omitempty"`
}

// Status reports the journal, the lock and any interrupted call.
func (s *Store) Status() (Status, error) {
	st := Status{Root: s.root, GitDir: s.gitDir, Private: s.private, Mode: "journal", Recovered: s.recovered}
	if s.mode == ModeCommit {
		st.Mode = "commit"
	}
	if s.private && !exists(filepath.Join(s.gitDir, "HEAD")) {
		st.Branch, st.Journal = "refs/heads/main", "refs/graft/main"
		return st, nil
	}
	commits, js, err := s.journal()
	if err != nil {
		return st, err
	}
	st.Branch, st.Journal = js.branch, js.ref
	st.Stale = !js.tip.IsZero() && !js.valid
	st.Carried = js.moved && js.valid
	if !js.base.IsZero() {
		st.Base = js.base.String()
	}
	st.Entries = len(commits)
	done, undone := stacks(commits)
	st.Undoable, st.Redoable = len(done), len(undone)
	if h, ok := readLockHolder(s.lockPath()); ok && (h.Alive) {
		st.Lock = &h
	}
	st.InProgress = s.hasIntent()
	return st, nil
}
