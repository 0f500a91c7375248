package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
)

// Trailer keys written into journal commit messages.
const (
	TrailerTool = "Graft-Tool" // the tool that made the call ("snapshot" for snapshots)
	TrailerBase = "Graft-Base" // the branch commit the journal started from
	TrailerUndo = "Graft-Undo" // an edit this commit undoes
	TrailerRedo = "Graft-Redo" // an undone edit this commit redoes
)

// DetachedJournal is the journal ref used while the main worktree's HEAD
// is detached (a linked worktree has its own, see WorktreeJournals). It is
// restarted on the new HEAD commit whenever HEAD moves.
const DetachedJournal = "refs/graft/detached"

// state is where the next commit goes: the ref, its current value, the
// parent and tree to build on, and the journal's base.
type state struct {
	branch string // refs/heads/X, or "" when HEAD is detached
	head   oid    // HEAD's commit; zero on an unborn branch
	ref    string // where commits go
	tip    oid    // ref's current value; zero when absent
	base   oid    // journal base (HEAD's commit when it started)
	valid  bool   // tip is a journal based on head
	parent oid    // parent of the next commit; zero for a root commit
	tree   oid    // tree of parent; zero for empty

	// moved is set when the branch has moved since the journal at tip
	// started on oldBase (its tree oldTree): the journal is carried onto
	// head (carry.go), or restarts there.
	moved            bool
	oldBase, oldTree oid
	carried          bool // carry has run
}

// JournalRef names the journal ref of the current branch
// (refs/graft/<branch>, or DetachedJournal when HEAD is detached; in a
// linked worktree, its own below WorktreeJournals).
func (s *Store) JournalRef() (string, error) {
	if err := s.openStorage(); err != nil {
		return "", err
	}
	st, err := s.state(ModeJournal)
	if err != nil {
		return "", err
	}
	return string(st.ref), nil
}

func (s *Store) state(mode Mode) (*state, error) {
	st := &state{}
	branch, detached, err := s.refs.head()
	if err != nil {
		return nil, err
	}
	if branch != "" {
		st.branch = branch
		switch h, err := s.refs.read(branch); {
		case errors.Is(err, errRefNotFound):
		case err != nil:
			return nil, err
		default:
			st.head = h
		}
	} else {
		st.head = detached
	}
	if mode == ModeCommit {
		if st.branch == "" {
			return nil, fmt.Errorf("gitstore: branch mode needs a branch, and HEAD is detached (%w)", ErrNoBranch)
		}
		st.ref, st.tip, st.parent, st.base, st.valid = st.branch, st.head, st.head, st.head, true
		st.tree, err = s.commitTree(st.head)
		return st, err
	}
	st.ref = s.journalRefFor(st.branch)
	if h, err := s.refs.read(st.ref); err == nil {
		st.tip = h
	} else if !errors.Is(err, errRefNotFound) {
		return nil, fmt.Errorf("gitstore: %s: %w", st.ref, err)
	}
	// A linked worktree's journal left by a removed worktree of the same
	// name is not this one's (worktree.go).
	if !st.tip.IsZero() && s.ownsJournals() {
		c, err := s.commit(st.tip)
		if err != nil {
			return nil, err
		}
		st.base = s.journalBase(c)
		if st.base == st.head {
			st.valid, st.parent, st.tree = true, st.tip, c.Tree
			return st, nil
		}
		// The branch moved since the journal started: carry decides
		// whether it follows (carry.go). A detached HEAD's journal
		// restarts.
		st.moved = st.branch != "" && !st.head.IsZero()
		st.oldBase, st.oldTree = st.base, c.Tree
	}
	// No journal yet, or HEAD moved since it started: start on HEAD.
	st.base, st.parent = st.head, st.head
	st.tree, err = s.commitTree(st.head)
	return st, err
}

// journalBase is the base a journal commit records, or the commit itself
// when it is not a journal commit (a journal reset onto a branch commit).
func (s *Store) journalBase(c *commit) oid {
	if v := trailers(c.Message)[TrailerBase]; len(v) > 0 {
		h, _ := s.algo.Parse(v[len(v)-1])
		return h
	}
	return c.Hash
}

// carry carries a journal whose branch moved onto the branch's new commit,
// or leaves st to restart there (carry.go): on success st is a valid
// journal whose tree is the carried tree, based on HEAD. With write, the
// carry commit is written (into the transaction's batch) and is st's
// parent; without, st's parent is the old tip (reads need no commit).
// The carry commit names who (the call that writes it).
func (s *Store) carry(st *state, write bool, who Attribution) error {
	if !st.moved || st.carried {
		return nil
	}
	st.carried = true
	plan, err := s.planCarry(st.oldBase, st.head, st.tree, st.oldTree)
	if err != nil {
		return err
	}
	if plan.restart {
		return nil
	}
	st.tree, st.base, st.valid, st.parent = plan.tree, st.head, true, st.tip
	if !write {
		return nil
	}
	author, committer := s.identity(time.Now())
	c := &commit{Author: author, Committer: committer, Message: s.carryMessage(st.head, plan.pending, who),
		Tree: plan.tree, Parents: []oid{st.tip, st.head}}
	h, err := s.writeCommit(c)
	if err != nil {
		return err
	}
	st.parent = h
	return nil
}

func (s *Store) commitTree(h oid) (oid, error) {
	if h.IsZero() {
		return "", nil
	}
	if t, ok := s.commitTrees[h]; ok {
		return t, nil // a commit never changes: read once per session
	}
	c, err := s.commit(h)
	if err != nil {
		return "", err
	}
	if s.commitTrees == nil || len(s.commitTrees) > 1024 {
		s.commitTrees = map[oid]oid{}
	}
	s.commitTrees[h] = c.Tree
	return c.Tree, nil
}

// current is a touched file as it is on disk under the lock.
type current struct {
	exists bool
	perm   uint32
}

// statCurrent checks that the file still exists as c.Old says (or is
// still absent) and returns its state; checkContent then compares the
// bytes. A difference is ErrConflict wrapped with the path; an existing
// file its owner cannot write is ErrReadOnly (every call, undo and redo
// lands through here).
func (s *Store) statCurrent(c Change) (current, error) {
	name := s.abs(c.Path)
	fi, err := os.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if c.Old == nil {
			return current{}, nil
		}
		return current{}, fmt.Errorf("%s: deleted since it was read: %w", c.Path, ErrConflict)
	case err != nil:
		return current{}, fmt.Errorf("gitstore: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0 && c.Old != nil:
		// A symbolic link the call changes (undo of one graft made): its
		// content is its target.
		return current{exists: true, perm: linkPerm}, nil
	case !fi.Mode().IsRegular():
		return current{}, fmt.Errorf("gitstore: %s: not a regular file (%s)", c.Path, fi.Mode().Type())
	case c.Old == nil:
		return current{}, fmt.Errorf("%s: created since it was read: %w", c.Path, ErrConflict)
	}
	if fi.Mode().Perm()&0o200 == 0 {
		return current{}, fmt.Errorf("%s: %w (mode %04o): make it writable to change it", c.Path, ErrReadOnly, fi.Mode().Perm())
	}
	return current{exists: true, perm: uint32(fi.Mode().Perm())}, nil
}

// checkContent checks that an existing file still holds c.Old, or c.Old
// followed by bytes appended since that the call can carry (late.go), and
// returns what it saw for the check after the rename.
func (s *Store) checkContent(c Change) (checked, error) {
	name := s.abs(c.Path)
	if fi, err := os.Lstat(name); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// A symbolic link (undo of one graft made): its content is its
		// target.
		t, err := os.Readlink(name)
		if err != nil {
			return checked{}, fmt.Errorf("gitstore: %w", err)
		}
		if t != string(c.Old) {
			return checked{}, fmt.Errorf("%s: %w", c.Path, ErrConflict)
		}
		return checked{link: true}, nil
	}
	at := time.Now()
	same, grown, fi, err := compareContent(name, c.Old)
	if err != nil {
		return checked{}, fmt.Errorf("gitstore: %w", err)
	}
	if !same && !(grown && canCarry(c)) {
		return checked{}, fmt.Errorf("%s: %w", c.Path, ErrConflict)
	}
	if grown {
		fi = nil
	}
	return checked{fi: fi, at: at}, nil
}

// compareContent reports whether the file name holds exactly want, or
// want followed by more bytes (grown), reading it in chunks (no second
// copy of a big file in memory); fi is the file's state before it was
// read.
func compareContent(name string, want []byte) (same, grown bool, fi fs.FileInfo, err error) {
	f, err := openFile(name, os.O_RDONLY, 0)
	if err != nil {
		return false, false, nil, err
	}
	defer f.Close()
	if fi, err = f.Stat(); err != nil {
		return false, false, nil, err
	}
	bp := chunks.Get().(*[]byte)
	defer chunks.Put(bp)
	buf := *bp
	for {
		n, err := io.ReadFull(f, buf[:min(len(buf), len(want)+1)]) // +1 sees a file that grew
		if n > len(want) {
			return false, bytes.Equal(buf[:len(want)], want), fi, nil
		}
		if !bytes.Equal(buf[:n], want[:n]) {
			return false, false, fi, nil
		}
		want = want[n:]
		switch {
		case err == io.EOF || err == io.ErrUnexpectedEOF:
			return len(want) == 0, false, fi, nil
		case err != nil:
			return false, false, nil, err
		}
	}
}

// landLocked is Land under the lock. trailers are extra trailer lines
// (undo and redo use them).
func (s *Store) landLocked(ctx context.Context, call Call, changes []Change, extra []string) (Landed, error) {
	st, err := s.state(s.mode)
	if err != nil {
		return Landed{}, err
	}
	// git is asked who commits while the files are checked (ident.go).
	s.startIdentity()
	curs := make([]current, len(changes))
	for i, c := range changes {
		// A path of a submodule or a nested repository is not this
		// repository's (owner.go).
		if err := s.checkPathIn(st.tree, c.Path); err != nil {
			return Landed{}, err
		}
		if curs[i], err = s.statCurrent(c); err != nil {
			return Landed{}, err
		}
	}
	if err := ctx.Err(); err != nil {
		return Landed{}, err
	}
	if s.mode == ModeCommit {
		if _, err := exec.LookPath("git"); err != nil {
			return Landed{}, fmt.Errorf("gitstore: branch mode updates the index with git, which is not installed: %w", err)
		}
	}
	// The new contents' permission bits: asked for, else the file's, else
	// a new file's.
	perms := make([]uint32, len(changes))
	for i, c := range changes {
		perms[i] = uint32(c.Mode.Perm())
		if c.Mode&fs.ModeSymlink != 0 {
			perms[i] = linkPerm
		}
		if perms[i] == 0 {
			perms[i] = curs[i].perm
		}
		if perms[i] == 0 {
			perms[i] = 0o644
		}
	}
	in := &intent{Version: 1, Ref: st.ref, Branch: s.mode == ModeCommit, Temp: newTempToken()}
	// How git cleans each path (clean.go). A new content in parts is
	// joined when its path converts: the clean form is computed whole.
	attrs := attrCache{}
	convs := make([]conversion, len(changes))
	changes = slices.Clone(changes)
	newBytes := 0
	for i, c := range changes {
		convs[i] = s.conversionOf(c.Path, attrs)
		if perms[i] == linkPerm || curs[i].perm == linkPerm {
			convs[i] = conversion{} // a link's target is stored as it is
		}
		if c.NewParts != nil && (convs[i].external || convs[i].text) {
			changes[i].New, changes[i].NewParts = joinParts(c.NewParts), nil
		}
		newBytes += partsLen(changes[i].newParts())
	}
	// Big new contents go to their temporary files first, announced in
	// graft-temps: writing and syncing them is the longest part of such a
	// call. Small ones wait for the intent record, which announces them,
	// so that the two syncs run together (commitIntent).
	big := newBytes >= earlyTemps
	var temps *tempJob
	if big {
		if temps, err = s.startTemps(in.Temp, changes, perms); err != nil {
			return Landed{}, err
		}
		defer temps.finish()
	}
	// The bytes are compared (for a big call, while its temporary files
	// are written).
	checks := make([]checked, len(changes))
	for i, c := range changes {
		if curs[i].exists {
			if checks[i], err = s.checkContent(c); err != nil {
				return Landed{}, err
			}
		}
	}
	// The objects are collected, and written once the intent record is.
	s.startBatch()
	defer s.dropBatch()
	// A journal whose branch moved is carried onto it first (carry.go).
	who := AttributionFrom(ctx)
	if s.mode == ModeJournal {
		if err := s.carry(st, true, who); err != nil {
			return Landed{}, err
		}
	}
	if !st.tip.IsZero() {
		in.OldTip = st.tip.String()
	}

	// A snapshot first when a touched file changed outside graft. With
	// core.fileMode false, as git does, the executable bit on disk is not
	// trusted: the recorded mode is kept.
	trustMode := s.cfg.get("core", "filemode") == "" || boolValue(s.cfg.get("core", "filemode"))
	// Journal blobs are clean forms (clean.go): what git add would store.
	haves := make([]entry, len(changes))
	oldIDs := make([]oid, len(changes)) // blob ids of the worktree bytes before the call
	// The new contents' ids are computed on another core meanwhile when
	// they are big: hashing is then a good part of the call.
	newIDs := make([]oid, len(changes))
	hashed := make(chan struct{})
	hashNew := func() {
		defer close(hashed)
		for i, c := range changes {
			if !c.deletes() {
				newIDs[i] = s.hashOfParts(c.NewHash, c.newParts())
			}
		}
	}
	if big {
		go hashNew()
		defer func() { <-hashed }()
	} else {
		hashNew()
	}
	snap := map[string]entry{}
	for i, c := range changes {
		have, err := s.lookup(st.tree, c.Path)
		if err != nil {
			return Landed{}, err
		}
		haves[i] = have
		want := entry{}
		var old cleaned
		if c.Old != nil {
			oldIDs[i] = s.hashOf(c.OldHash, c.Old)
			if old, err = s.clean(c.Path, c.Old, convs[i], have, oldIDs[i]); err != nil {
				return Landed{}, err
			}
			if old.changed {
				// Recovery restores the worktree bytes from their blob,
				// which the tree (holding the clean form) does not hold.
				if _, err := s.writeBlob(c.Old); err != nil {
					return Landed{}, err
				}
			}
			want = entry{Hash: old.hash, Mode: fileMode(curs[i].perm)}
			if !trustMode && !have.absent() {
				want.Mode = have.Mode
			}
		}
		if have != want {
			if err := s.store(old); err != nil {
				return Landed{}, err
			}
			snap[c.Path] = want
		}
	}
	author, committer := s.identity(time.Now())
	parent, tree := st.parent, st.tree
	var landed Landed
	landed.Ref = st.ref
	baseTrailer := []string{TrailerBase + ": " + s.hexOrZero(st.base)}
	if s.mode == ModeCommit {
		baseTrailer = nil
	}
	if len(snap) > 0 {
		t, err := s.updateTree(tree, snap)
		if err != nil {
			return Landed{}, err
		}
		msg := commitMessage("graft: snapshot of changes made outside graft", sortedKeys(snap),
			append([]string{TrailerTool + ": snapshot"}, baseTrailer...))
		h, err := s.writeCommit(newCommit(author, committer, msg, t, parent))
		if err != nil {
			return Landed{}, err
		}
		parent, tree = h, t
		landed.Snapshot = h.String()
	}

	set := map[string]entry{}
	var paths []string
	<-hashed
	for i, c := range changes {
		f := intentFile{Path: c.Path, OldPerm: curs[i].perm}
		if c.Old != nil {
			f.Old = oldIDs[i].String()
		}
		perm := perms[i]
		f.NewPerm = perm
		if c.deletes() {
			set[c.Path] = entry{}
		} else {
			// The worktree bytes' blob is what recovery restores from; the
			// tree gets the clean form's.
			h := newIDs[i]
			if err := s.writePartsID("blob", c.newParts(), h); err != nil {
				return Landed{}, err
			}
			f.New = h.String()
			// Content in parts has no conversion (joined above otherwise):
			// its clean form is itself.
			nc := cleaned{hash: h}
			if c.NewParts == nil {
				if nc, err = s.clean(c.Path, c.New, convs[i], haves[i], h); err != nil {
					return Landed{}, err
				}
			}
			if nc.changed {
				if err := s.store(nc); err != nil {
					return Landed{}, err
				}
				h = nc.hash
				f.Stored = h.String()
			}
			mode := fileMode(perm)
			deliberate := c.Mode != 0 && perm != curs[i].perm
			if !trustMode && !haves[i].absent() && !deliberate {
				mode = haves[i].Mode
			}
			set[c.Path] = entry{Hash: h, Mode: mode}
		}
		in.Files = append(in.Files, f)
		paths = append(paths, c.Path)
	}
	t, err := s.updateTree(tree, set)
	if err != nil {
		return Landed{}, err
	}
	if t.IsZero() {
		if t, err = s.emptyTree(); err != nil {
			return Landed{}, err
		}
	}
	subj := strings.TrimSpace(call.Message)
	body := ""
	if subj == "" {
		subj = summary(call.Tool, paths)
	} else if first, rest, ok := strings.Cut(subj, "\n"); ok {
		subj, body = strings.TrimSpace(first), strings.TrimSpace(rest)
	}
	tool := call.Tool
	if tool == "" {
		tool = "graft"
	}
	tr := append([]string{TrailerTool + ": " + tool}, extra...)
	tr = append(tr, baseTrailer...)
	if s.mode == ModeJournal {
		tr = append(tr, who.lines()...)
	} else {
		// On the user's branch only the trailers the user asked for
		// (--trailer, graft.trailer).
		tr = append(tr, s.userTrailers([]string{who.Agent})...)
	}
	msg := commitMessage(subj, nil, tr)
	if body != "" {
		msg = commitMessage(subj+"\n\n"+body, nil, tr)
	}
	h, err := s.writeCommit(newCommit(author, committer, msg, t, parent))
	if err != nil {
		return Landed{}, err
	}
	landed.Commit = h.String()
	in.NewTip = h.String()
	// The reflog line names the tool once: a generated subject already
	// starts with it ("edit: a.txt (+1 -1)").
	in.Reflog = subj
	if !strings.HasPrefix(subj, tool+":") {
		in.Reflog = tool + ": " + subj
	}

	if err := s.commitIntent(ctx, in, temps, changes, perms, checks); err != nil {
		return Landed{}, err
	}
	if s.mode == ModeJournal {
		s.markJournals()
		if !st.valid {
			// A new journal: the time to drop removed worktrees' ones.
			s.pruneWorktreeJournals()
		}
	}
	return landed, nil
}

// earlyTemps is the size of a call's new content from which its temporary
// files are written before its objects are computed (landLocked).
var earlyTemps = 1 << 20

func newCommit(author, committer signature, msg string, tree, parent oid) *commit {
	c := &commit{Author: author, Committer: committer, Message: msg, Tree: tree}
	if !parent.IsZero() {
		c.Parents = []oid{parent}
	}
	return c
}

// hexOrZero is h's digits, or the all-zero id for none (as trailers and
// git's own records write it).
func (s *Store) hexOrZero(h oid) string {
	if h.IsZero() {
		return s.algo.ZeroHex()
	}
	return h.String()
}

// commitMessage assembles subject, an optional list of paths and trailers.
func commitMessage(subj string, paths []string, trailers []string) string {
	var b strings.Builder
	b.WriteString(subj)
	b.WriteString("\n")
	if len(paths) > 0 {
		b.WriteString("\n")
		for _, p := range paths {
			b.WriteString("  " + p + "\n")
		}
	}
	if len(trailers) > 0 {
		b.WriteString("\n")
		for _, t := range trailers {
			b.WriteString(t + "\n")
		}
	}
	return b.String()
}

// summary is the generated message of a call without a description.
func summary(tool string, paths []string) string {
	if tool == "" {
		tool = "graft"
	}
	names := make([]string, 0, 3)
	for i, p := range paths {
		if i == 3 {
			break
		}
		names = append(names, path.Base(p))
	}
	s := tool + ": " + strings.Join(names, ", ")
	if len(paths) > 3 {
		s += fmt.Sprintf(" and %d more", len(paths)-3)
	}
	return s
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
