package gitstore

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// A transaction, in order (crash steps in brackets, see CrashEnv):
//
//  1. under the lock, every touched file is checked against Change.Old;
//  2. blobs, trees and commits are written into the object store [objects];
//  3. the intent record graft-intent.json in the git dir is rewritten in
//     place and fsynced: ref, old and new tip, and per path the old and new
//     blob ids and modes, all already stored, then a SHA-256 of that text
//     [intent]. (A file rewritten in place costs no new inode; a record cut
//     short by a crash fails its checksum, and since no file is touched
//     before the record is synced, it is ignored as it should be);
//  4. each new content goes to a temporary file beside its target, synced
//     [temp], then every temporary file is renamed over its target and
//     every deleted file removed [rename];
//  5. the ref moves from the old tip to the new commit by compare-and-swap
//     [ref] (in branch mode the index entries of the paths follow);
//  6. the intent record is emptied [done].
//
// Syncs, and why each is needed: the intent record (step 3), because
// recovery can only undo or finish what it can read after a power cut, and
// it must be on disk before the first file is replaced; each temporary file
// (step 4), because a rename can reach the disk before the data it
// renames, which would leave a file that is neither before nor after, and
// recovery leaves such a file alone. Nothing else is synced: a rename, a
// ref move or the emptied record lost in a power cut leaves a state that
// recovery rolls forward or back like any interrupted call (a lost rename
// leaves the old file, which is one of the two states recovery expects),
// and branch refs are synced before they move because git does so.
//
// The commit point is step 5. Recovery (run by Open under the lock when an
// intent record exists) rolls forward when the ref already holds the new
// commit, and back otherwise: each file holding its new blob is given its
// old blob again (or removed if it was created). Both directions are
// idempotent, so a crash during recovery is recovered by the next one.

type intent struct {
	Version int    `json:"version"`
	Ref     string `json:"ref"`
	OldTip  string `json:"old,omitempty"`
	NewTip  string `json:"new"`
	Branch  bool   `json:"branch,omitempty"` // branch mode: update the index too
	// IndexOnly marks a landing of the journal (graft land): the worktree
	// is not touched, the index entries of Files follow the branch, and
	// Journal is reset to the new commit.
	IndexOnly bool   `json:"index_only,omitempty"`
	Journal   string `json:"journal,omitempty"`
	// JournalLog is the journal ref's reflog message for that reset.
	JournalLog string `json:"journal_log,omitempty"`
	// Reflog is the ref's reflog message for the move.
	Reflog string       `json:"reflog,omitempty"`
	Files  []intentFile `json:"files"`

	// content holds, by path, the new bytes of the files while the call
	// that made the intent runs, so that they are not read back from the
	// blobs just written (recovery, which has only the record, reads
	// the blobs).
	content map[string][]byte
}

type intentFile struct {
	Path    string `json:"path"`
	Old     string `json:"old,omitempty"` // blob id; "" when the file did not exist
	New     string `json:"new,omitempty"` // blob id; "" when the call deletes it
	OldPerm uint32 `json:"old_perm,omitempty"`
	NewPerm uint32 `json:"new_perm,omitempty"`
	// Stored is the blob the commit's tree records when it differs from
	// New, the worktree bytes' (a clean form: clean.go); the index gets it.
	Stored string `json:"stored,omitempty"`
}

func (s *Store) intentPath() string { return filepath.Join(s.gitDir, "graft-intent.json") }

// tmpName is the temporary file that carries path's new content in the
// transaction whose new commit is tip: beside the target, so the rename
// stays on one file system, and predictable, so recovery can remove it.
func (s *Store) tmpName(path, tip string) string {
	name := s.abs(path)
	return filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".graft-"+tip[:12]+".tmp")
}

// commitIntent runs steps 3 to 6 of a transaction whose objects exist.
func (s *Store) commitIntent(ctx context.Context, in *intent) error {
	if err := s.writeIntent(in); err != nil {
		return err
	}
	crashPoint("intent")
	if err := ctx.Err(); err != nil {
		return s.abort(in, err)
	}
	for _, f := range in.Files {
		if f.New == "" {
			continue
		}
		content, ok := in.content[f.Path]
		var err error
		if !ok {
			content, err = s.readBlob(oid(f.New))
		}
		if err == nil {
			err = writeTemp(s.tmpName(f.Path, in.NewTip), content, fs.FileMode(f.NewPerm))
		}
		if err != nil {
			return s.abort(in, fmt.Errorf("gitstore: %s: %w", f.Path, err))
		}
		crashPoint("temp")
	}
	for _, f := range in.Files {
		name := s.abs(f.Path)
		var err error
		if f.New == "" {
			err = os.Remove(name)
			if errors.Is(err, fs.ErrNotExist) {
				err = nil
			}
		} else {
			err = replaceFile(s.tmpName(f.Path, in.NewTip), name)
		}
		if err != nil {
			return s.abort(in, fmt.Errorf("gitstore: %s: %w", f.Path, err))
		}
		crashPoint("rename")
	}
	if err := s.moveRef(in); err != nil {
		return s.abort(in, err)
	}
	crashPoint("ref")
	if in.Branch {
		if err := s.updateIndex(in.Files); err != nil {
			// The commit is on the branch; the intent stays so that the
			// next graft command retries the index.
			return fmt.Errorf("gitstore: commit %s landed but the index was not updated (the next graft command retries): %w", in.NewTip[:12], err)
		}
	}
	// Not synced: if a power cut loses this, recovery finds the ref
	// already moved and rolls forward, which changes nothing.
	if err := s.clearIntent(false); err != nil {
		return err
	}
	crashPoint("done")
	return nil
}

// abort rolls an unfinished transaction back in process; when that fails
// too, the intent record stays for the next Open.
func (s *Store) abort(in *intent, cause error) error {
	if err := s.rollBack(in); err != nil {
		return fmt.Errorf("%w (rolling back: %v; the next graft command retries)", cause, err)
	}
	if err := s.clearIntent(true); err != nil {
		return fmt.Errorf("%w (%v)", cause, err)
	}
	return cause
}

// recover finishes or rolls back the transaction an intent record
// describes. It runs under the lock.
func (s *Store) recover() error {
	in, err := s.readIntent()
	if err != nil || in == nil {
		return err
	}
	cur, err := s.refs.read(in.Ref)
	forward := err == nil && cur.String() == in.NewTip
	if err != nil && !errors.Is(err, errRefNotFound) {
		// An empty or torn ref file: the crash came while the ref moved,
		// after every file was in place. Finish it.
		forward = true
	}
	rec := &Recovery{Ref: in.Ref, Commit: in.NewTip, Forward: forward}
	for _, f := range in.Files {
		rec.Files = append(rec.Files, f.Path)
	}
	switch {
	case in.IndexOnly && forward:
		err = s.finishLanding(in)
	case in.IndexOnly:
	case forward:
		err = s.rollForward(in)
	default:
		err = s.rollBack(in)
	}
	if err != nil {
		return err
	}
	s.recovered = rec
	return s.clearIntent(true)
}

// hasIntent reports whether an intent record is pending.
func (s *Store) hasIntent() bool {
	fi, err := os.Stat(s.intentPath())
	return err == nil && fi.Size() > 0
}

const intentSumPrefix = "sha256 "

// writeIntent makes the intent record durable: the JSON text and a line
// with its SHA-256, written over the record file in place, fsynced.
func (s *Store) writeIntent(in *intent) error {
	b, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	b = append(b, "\n"+intentSumPrefix+hex.EncodeToString(sum[:])+"\n"...)
	name := s.intentPath()
	_, statErr := os.Stat(name)
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("gitstore: intent record: %w", err)
	}
	_, err = f.WriteAt(b, 0)
	if err == nil {
		err = f.Truncate(int64(len(b)))
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("gitstore: intent record: %w", err)
	}
	if statErr != nil {
		syncDir(s.gitDir) // the record file is new: make its name durable too
	}
	return nil
}

// readIntent returns the pending intent record, or nil. A record whose
// checksum does not match was cut short by a crash while it was being
// written, before any file was touched: it is cleared and ignored.
func (s *Store) readIntent() (*intent, error) {
	b, err := os.ReadFile(s.intentPath())
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(b) == 0 {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("gitstore: intent record: %w", err)
	}
	text, sumLine, ok := cutLastLine(b)
	sum := sha256.Sum256(text)
	if !ok || sumLine != intentSumPrefix+hex.EncodeToString(sum[:]) {
		return nil, s.clearIntent(true)
	}
	var in intent
	if err := json.Unmarshal(text, &in); err != nil || in.NewTip == "" {
		return nil, fmt.Errorf("gitstore: %s: intent record with a valid checksum does not parse (%v); move it away to continue", s.intentPath(), err)
	}
	return &in, nil
}

// cutLastLine splits "TEXT\nLAST\n" into TEXT and LAST.
func cutLastLine(b []byte) ([]byte, string, bool) {
	b = bytes.TrimSuffix(b, []byte("\n"))
	i := bytes.LastIndexByte(b, '\n')
	if i < 0 {
		return nil, "", false
	}
	return b[:i], string(b[i+1:]), true
}

// clearIntent empties the intent record (the file stays, so the next
// transaction rewrites it without creating a file).
func (s *Store) clearIntent(sync bool) error {
	f, err := os.OpenFile(s.intentPath(), os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = f.Truncate(0)
		if err == nil && sync {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return fmt.Errorf("gitstore: intent record: %w", err)
	}
	return nil
}

// Recovery describes what Open did with an interrupted transaction.
type Recovery struct {
	// Ref and Commit are the ref the transaction was moving and the commit
	// it was moving it to.
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
	// Forward is true when the transaction was finished, false when it was
	// rolled back.
	Forward bool `json:"forward"`
	// Files are the paths of the transaction.
	Files []string `json:"files"`
}

// Recovered reports the interrupted transaction that Open finished or
// rolled back, or nil.
func (s *Store) Recovered() *Recovery { return s.recovered }

// rollForward completes a transaction whose commit point was reached.
func (s *Store) rollForward(in *intent) error {
	for _, f := range in.Files {
		if err := s.restore(f.Path, f.New, f.NewPerm, f.Old, in.NewTip); err != nil {
			return err
		}
	}
	if err := s.moveRefForce(in); err != nil {
		return err
	}
	if in.Branch {
		return s.updateIndex(in.Files)
	}
	return nil
}

// rollBack puts every file of the transaction back to its old content.
func (s *Store) rollBack(in *intent) error {
	for _, f := range in.Files {
		if err := s.restore(f.Path, f.Old, f.OldPerm, f.New, in.NewTip); err != nil {
			return err
		}
	}
	return nil
}

// restore makes path hold blob want (absent when "") if it currently holds
// want or other (the two sides of the transaction); a file holding
// something else was changed after the crash and is left alone. The
// transaction's temporary file is removed either way.
func (s *Store) restore(path, want string, perm uint32, other, tip string) error {
	defer os.Remove(s.tmpName(path, tip))
	name := s.abs(path)
	have := ""
	if b, err := os.ReadFile(name); err == nil {
		have = s.blobHash(b).String()
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("gitstore: recovering %s: %w", path, err)
	}
	if have == want || have != other {
		return nil
	}
	var err error
	if want == "" {
		err = os.Remove(name)
	} else {
		var content []byte
		content, err = s.readBlob(oid(want))
		if err == nil {
			tmp := s.tmpName(path, tip)
			if err = writeTemp(tmp, content, fs.FileMode(perm)); err == nil {
				err = replaceFile(tmp, name)
			}
		}
	}
	if err != nil {
		return fmt.Errorf("gitstore: recovering %s: %w", path, err)
	}
	crashPoint("recover")
	return nil
}

// moveRef moves the transaction's ref from its old tip to its new one by
// compare-and-swap (refs.go).
func (s *Store) moveRef(in *intent) error {
	_, who := s.identity(time.Now())
	return s.refs.update(in.Ref, oid(in.OldTip), oid(in.NewTip), false, who, reflogMessage(in.Reflog))
}

// moveRefForce makes the ref hold the new tip during recovery.
func (s *Store) moveRefForce(in *intent) error {
	if h, err := s.refs.read(in.Ref); err == nil && h.String() == in.NewTip {
		return nil
	}
	_, who := s.identity(time.Now())
	return s.refs.update(in.Ref, "", oid(in.NewTip), true, who, reflogMessage(in.Reflog))
}

// reflogMessage is the message of an intent's reflog field (which older
// versions of graft filled with a whole reflog line).
func reflogMessage(v string) string {
	if _, msg, ok := strings.Cut(v, "\t"); ok {
		return strings.TrimSpace(msg)
	}
	return v
}

// updateIndex points the index entries of the given paths at their new
// blobs (or removes them) with `git update-index --index-info`, which takes
// index.lock and keeps every extension git knows; only branch mode and
// `graft land` use it, never the journal's edit path.
func (s *Store) updateIndex(files []intentFile) error {
	var b strings.Builder
	for _, f := range files {
		if f.New == "" {
			fmt.Fprintf(&b, "0 %s\t%s\n", s.algo.zeroHex(), f.Path)
			continue
		}
		blob := f.New
		if f.Stored != "" {
			blob = f.Stored
		}
		fmt.Fprintf(&b, "%o %s\t%s\n", uint32(fileMode(f.NewPerm)), blob, f.Path)
	}
	return s.git(b.String(), "update-index", "--index-info")
}

// git runs the git CLI in the worktree with stdin.
func (s *Store) git(stdin string, args ...string) error {
	cmd := exec.Command("git", args...)
	cmd.Dir = s.root
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(out)))
	}
	return nil
}

// writeTemp writes content to name (created or truncated), sets perm and
// fsyncs it.
func writeTemp(name string, content []byte, perm fs.FileMode) error {
	if perm == 0 {
		perm = 0o644
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if err != nil {
		return err
	}
	_, err = f.Write(content)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
	}
	return err
}

// writeFileSync replaces name with content durably: temporary file, fsync,
// rename, fsync of the directory.
func writeFileSync(name string, content []byte, perm fs.FileMode) error {
	tmp := fmt.Sprintf("%s.%d.%d.tmp", name, os.Getpid(), time.Now().UnixNano())
	if err := writeTemp(tmp, content, perm); err != nil {
		return err
	}
	if err := replaceFile(tmp, name); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(name))
	return nil
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}
