package gitstore

import (
	"bytes"
	"context"
	"crypto/rand"
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

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// A transaction, in order (crash steps in brackets, see CrashEnv):
//
//  1. under the lock, every touched file is checked against Change.Old
//     (existence and type first, its bytes while the temporary files of
//     a big call are written);
//  2. a call whose new content is big (earlyTemps) announces its
//     temporary files first: graft-temps in the git dir lists the paths
//     and the transaction's random token, which names each path's
//     temporary file beside it [pending] (not synced; a record cut short
//     fails its checksum, and no temporary file exists before it is
//     whole); then, on another goroutine while the next steps run, each
//     new content goes to its temporary file, synced [temp];
//  3. the blobs, trees and commits are computed, not yet written;
//  4. the intent record graft-intent.json in the git dir is rewritten in
//     place: ref, old and new tip, the token, and per path the old and
//     new blob ids and modes, then a SHA-256 of that text. A small call's
//     temporary files are announced by this record [pending] and written
//     from now on, on another goroutine [temp]. While the record is
//     fsynced, the objects are written into the object store [objects]
//     and, once the record is synced, for a journal ref the ref's lock
//     file (REF.lock) is created and the ref compared with the old tip (a ref moved meanwhile rolls
//     the call back before any file is replaced; a lock file an
//     interrupted call left is taken over by the next move, as any stale
//     lock of graft's refs is, once it outlives the wait);
//     once both are done [intent], no file has been replaced yet. (A file
//     rewritten in place costs no new inode; a record cut short by a crash
//     fails its checksum, and since no file is replaced before the record
//     is synced, it is ignored as it should be: graft-temps, or for a
//     small call nothing, says which temporary files to remove);
//  5. once every temporary file is synced, each is renamed over its
//     target and every deleted file removed [rename], the file it replaces
//     kept aside and read after the rename: bytes another process appended
//     to it meanwhile are carried onto the new content, and any other write
//     abandons the call, every file replaced so far put back (late.go);
//  6. the ref moves from the old tip to the new commit by compare-and-swap
//     [ref]: a journal ref's prepared lock file gets the new value and is
//     renamed over it, a branch is locked, compared and moved now (in
//     branch mode the index entries of the paths follow);
//  7. the intent record is emptied [done], then graft-temps.
//
// Syncing the record, the temporary files and writing the objects at once
// lets the disk work on all of them together: for a big file the sync of
// its new content is the largest single wait of a call, and for a small
// one the two syncs share one journal commit of the file system instead
// of waiting for two in a row.
//
// Syncs, and why each is needed: the intent record (step 4), because
// recovery can only undo or finish what it can read after a power cut, and
// it must be on disk before the first file is replaced; each temporary file
// (steps 2 and 4), because a rename can reach the disk before the data it
// renames, which would leave a file that is neither before nor after, and
// recovery leaves such a file alone. Nothing else is synced: a rename, a
// ref move or the emptied record lost in a power cut leaves a state that
// recovery rolls forward or back like any interrupted call (a lost rename
// leaves the old file, which is one of the two states recovery expects),
// and branch refs are synced before they move because git does so. A
// power cut before the record is synced can lose the announcement of a
// temporary file (graft-temps is never synced) and so leave that file
// behind, never a changed file.
//
// Recovery never needs an object the transaction wrote unless the ref
// moved, and the ref moves only after every object is written: rolling
// back restores old blobs, which were stored before the call (or, for a
// file whose bytes differ from its clean form, with the call's objects,
// and then only for a file already replaced).
//
// The commit point is step 5. Recovery (run by Open under the lock when an
// intent record exists) rolls forward when the ref already holds the new
// commit, and back otherwise: each file holding its new blob is given its
// old blob again (or removed if it was created). Both directions are
// idempotent, so a crash during recovery is recovered by the next one.

type intent struct {
	Version int    `json:"version"`
	Ref     string `json:"ref"`
	// Temp is the token in the names of the temporary files; records
	// written before it existed used the new tip's first 12 digits.
	Temp   string `json:"temp,omitempty"`
	OldTip string `json:"old,omitempty"`
	NewTip string `json:"new"`
	Branch bool   `json:"branch,omitempty"` // branch mode: update the index too
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
// transaction whose temporary files carry token: beside the target, so the
// rename stays on one file system, and predictable, so recovery can remove
// it.
func (s *Store) tmpName(path, token string) string {
	name := s.abs(path)
	return filepath.Join(filepath.Dir(name), "."+filepath.Base(name)+".graft-"+token+".tmp")
}

// tempToken is the token of the intent's temporary files.
func (in *intent) tempToken() string {
	if in.Temp != "" {
		return in.Temp
	}
	return in.NewTip[:min(12, len(in.NewTip))]
}

// newTempToken returns 12 random hex digits.
func newTempToken() string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		// crypto/rand does not fail on the platforms graft runs on; the
		// clock is unique enough for names that only this process writes
		// under the lock.
		return fmt.Sprintf("%012x", time.Now().UnixNano()&0xffffffffffff)
	}
	return hex.EncodeToString(b[:])
}

// tempJob writes a transaction's temporary files on its own goroutine.
type tempJob struct {
	s     *Store
	token string
	done  chan struct{}
	err   error
	names []string // the temporary files created, for cleanup

	announced bool // graft-temps lists the files (startTemps)
	renamed   bool // every temporary file was renamed into place
}

// pendingTemps is the record graft-temps: the temporary files a
// transaction may have created.
type pendingTemps struct {
	Token string   `json:"token"`
	Paths []string `json:"paths"`
}

func (s *Store) pendingPath() string { return filepath.Join(s.gitDir, "graft-temps") }

// startTemps announces the temporary files of the changes with new
// content in graft-temps, then writes and syncs them on another goroutine
// (writeTemps). perms are the new contents' permission bits.
func (s *Store) startTemps(token string, changes []Change, perms []uint32) (*tempJob, error) {
	var rec pendingTemps
	rec.Token = token
	for _, c := range changes {
		if !c.deletes() {
			rec.Paths = append(rec.Paths, c.Path)
		}
	}
	if len(rec.Paths) > 0 {
		if err := writeRecord(s.pendingPath(), &rec, false); err != nil {
			return nil, fmt.Errorf("gitstore: temporary files record: %w", err)
		}
		crashPoint("pending")
	}
	j := s.writeTemps(token, changes, perms)
	j.announced = len(rec.Paths) > 0
	return j, nil
}

// writeTemps writes and syncs the temporary files of the changes with new
// content on another goroutine. They must be announced already, in
// graft-temps or in the intent record, so that a crash leaves nothing
// recovery does not know of.
func (s *Store) writeTemps(token string, changes []Change, perms []uint32) *tempJob {
	j := &tempJob{s: s, token: token, done: make(chan struct{})}
	gr := s.gr // (read here: the goroutine must not race repo())
	go func() {
		defer close(j.done)
		for i, c := range changes {
			if c.deletes() {
				continue
			}
			name := s.tmpName(c.Path, token)
			j.names = append(j.names, name)
			if err := writePoolTemp(gr, name, fs.FileMode(perms[i]), c.newParts()...); err != nil {
				j.err = fmt.Errorf("gitstore: %s: %w", c.Path, err)
				return
			}
			crashPoint("temp")
		}
	}()
	return j
}

// wait returns once every temporary file is written, with the first error.
func (j *tempJob) wait() error {
	<-j.done
	return j.err
}

// finish waits for the goroutine, removes the temporary files still
// there (none after the renames) and empties graft-temps.
func (j *tempJob) finish() {
	<-j.done
	if !j.renamed {
		for _, name := range j.names {
			os.Remove(name)
		}
	}
	if j.announced {
		_ = j.s.clearPending()
	}
}

// clearPending empties graft-temps (the file stays for the next call).
func (s *Store) clearPending() error {
	f, err := openFile(s.pendingPath(), os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = f.Truncate(0)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
	}
	return err
}

// hasPending reports whether graft-temps lists files.
func (s *Store) hasPending() bool {
	fi, err := os.Stat(s.pendingPath())
	return err == nil && fi.Size() > 0
}

// recoverTemps removes the temporary files graft-temps lists (run after
// the intent record is recovered) and empties it. A record that fails its
// checksum was cut short before any temporary file was written.
func (s *Store) recoverTemps() error {
	var rec pendingTemps
	ok, err := readRecord(s.pendingPath(), &rec)
	if err != nil {
		return fmt.Errorf("gitstore: %s: %w", s.pendingPath(), err)
	}
	if ok {
		for _, p := range rec.Paths {
			if rec.Token == "" || !fs.ValidPath(p) {
				continue
			}
			if err := os.Remove(s.tmpName(p, rec.Token)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("gitstore: removing a temporary file of an interrupted call: %w", err)
			}
		}
	}
	return s.clearPending()
}

// commitIntent runs steps 3 to 7 of a transaction whose objects are
// collected in s.batch and whose temporary files temps is writing; when
// temps is nil, the intent record announces them and they are written
// once it is. checks are what the check before saw of each file.
func (s *Store) commitIntent(ctx context.Context, in *intent, temps *tempJob, changes []Change, perms []uint32, checks []checked) error {
	f, created, err := writeRecordFile(s.intentPath(), in)
	if err != nil {
		// landLocked drops the batch and finishes a big call's temporary
		// files on its way out.
		return fmt.Errorf("gitstore: intent record: %w", err)
	}
	if temps == nil {
		crashPoint("pending")
		temps = s.writeTemps(in.tempToken(), changes, perms)
		defer temps.finish()
	}
	// The record is synced while the objects are written and the
	// temporary files synced: the disk commits them together. Once it is
	// synced, the same goroutine prepares the ref's move (a journal ref's
	// lock file created and the ref compared) while the temporary files
	// and objects are still being written, so that only the move's write
	// and rename are left once the files are in place. (Not a goroutine of
	// its own: each goroutine started goes first in its processor's line,
	// and on two cores the ref's lock went ahead of the record's sync.)
	synced := make(chan error, 1)
	move := s.prepareMove(in, func() error {
		err := syncRecord(f, created)
		synced <- err
		return err
	})
	defer move.release()
	err = s.flushBatch()
	if err == nil {
		crashPoint("objects")
	}
	if serr := <-synced; err == nil && serr != nil {
		err = fmt.Errorf("gitstore: intent record: %w", serr)
	}
	if err == nil {
		crashPoint("intent")
	}
	// Whatever happened, the temporary files are finished before anything
	// is rolled back, so that none is created after its removal.
	if werr := temps.wait(); err == nil {
		err = werr
	}
	if merr := move.wait(); err == nil {
		err = merr
	}
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return s.abort(in, err)
	}
	// Each file is replaced holding the file it replaces, which is read
	// after the rename for what other processes wrote to it meanwhile
	// (late.go): appended bytes are carried onto the new content, any
	// other write abandons the call.
	var done []placed
	for i, f := range in.Files {
		kind, held, ok, err := s.replaceChecked(changes[i], s.tmpName(f.Path, in.tempToken()), checks[i])
		if ok {
			done = append(done, placed{i: i, held: held})
		} else if held != nil {
			held.close()
		}
		if err == nil && kind == lateChanged {
			err = fmt.Errorf("%s: written by another process while the call replaced it: %w", f.Path, ErrConflict)
		}
		if err != nil {
			return s.abandon(in, changes, done, err)
		}
	}
	temps.renamed = true
	if err := move.commit(); err != nil {
		return s.abandon(in, changes, done, err)
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

// abandon rolls back, in process, a transaction that has replaced the
// files done already: each goes back to its old content (or, for one
// another process wrote while the call replaced it, to what that process
// wrote), keeping what was appended to it since the rename (restoreFile).
// When that fails, the intent record stays for the next Open, whose
// recovery puts back every file still holding the call's content.
func (s *Store) abandon(in *intent, changes []Change, done []placed, cause error) error {
	var failed error
	for k := len(done) - 1; k >= 0; k-- {
		p := done[k]
		c, f := changes[p.i], in.Files[p.i]
		tmp := s.tmpName(f.Path, in.tempToken())
		src, err := "", error(nil)
		switch {
		case p.held != nil && p.held.parked != "":
			src, p.held.parked = p.held.parked, ""
		case p.held != nil && !p.held.absent:
			// Off Unix, or without a swap: the writer's bytes, read.
			perm := fs.FileMode(f.OldPerm)
			if p.held.f != nil {
				if fi, serr := p.held.f.Stat(); serr == nil {
					perm = fi.Mode().Perm()
				}
			}
			var size int64
			if size, err = p.held.size(); err == nil {
				err = writeTempFrom(tmp, perm, p.held, size)
			}
			src = tmp
		case p.held == nil && c.Old != nil:
			src, err = tmp, writeTemp(tmp, fs.FileMode(f.OldPerm), c.Old)
		}
		if p.held != nil {
			p.held.close()
		}
		if err == nil {
			err = s.restoreFile(f.Path, src, tmp, c.newParts(), c.deletes(), f.NewPerm == linkPerm)
		}
		if err != nil && failed == nil {
			failed = err
		}
	}
	if failed != nil {
		return fmt.Errorf("%w (putting the files back: %v; the next graft command retries)", cause, failed)
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

// hasIntent reports whether an intent record is pending: an empty record
// is at most one byte long (clearIntent).
func (s *Store) hasIntent() bool {
	fi, err := os.Stat(s.intentPath())
	return err == nil && fi.Size() > 1
}

const intentSumPrefix = "sha256 "

// writeIntent makes the intent record durable: the JSON text and a line
// with its SHA-256, written over the record file in place, fsynced.
func (s *Store) writeIntent(in *intent) error {
	if err := writeRecord(s.intentPath(), in, true); err != nil {
		return fmt.Errorf("gitstore: intent record: %w", err)
	}
	return nil
}

// writeRecord writes v as indented JSON and a line with its SHA-256 over
// the file name in place (a file rewritten in place costs no new inode),
// fsynced when sync is set (with the directory when the file is new).
func writeRecord(name string, v any, sync bool) error {
	f, created, err := writeRecordFile(name, v)
	if err != nil {
		return err
	}
	if !sync {
		return f.Close()
	}
	return syncRecord(f, created)
}

// syncRecord fsyncs and closes a record file writeRecordFile returned,
// and syncs its directory when the file was created.
func syncRecord(f *os.File, created bool) error {
	err := f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && created {
		syncDir(filepath.Dir(f.Name())) // the record file is new: make its name durable too
	}
	return err
}

// writeRecordFile is writeRecord without the sync: it returns the open
// file, and whether it was created.
func writeRecordFile(name string, v any) (f *os.File, created bool, err error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, false, err
	}
	sum := sha256.Sum256(b)
	b = append(b, "\n"+intentSumPrefix+hex.EncodeToString(sum[:])+"\n"...)
	f, err = openFile(name, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		created = true
		f, err = openFile(name, os.O_RDWR|os.O_CREATE, 0o644)
	}
	if err != nil {
		return nil, false, err
	}
	_, err = f.WriteAt(b, 0)
	if err == nil {
		err = f.Truncate(int64(len(b)))
	}
	if err != nil {
		f.Close()
		return nil, false, err
	}
	return f, created, nil
}

// readRecord reads a record writeRecord wrote into v. ok is false when the
// file is missing or empty, or its checksum does not match (it was cut
// short by a crash while it was written); an error means a record with a
// valid checksum that does not parse.
func readRecord(name string, v any) (ok bool, err error) {
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(b) <= 1 {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	text, sumLine, ok := cutLastLine(b)
	sum := sha256.Sum256(text)
	if !ok || sumLine != intentSumPrefix+hex.EncodeToString(sum[:]) {
		return false, nil
	}
	if err := json.Unmarshal(text, v); err != nil {
		return false, fmt.Errorf("a record with a valid checksum does not parse (%v); move it away to continue", err)
	}
	return true, nil
}

// readIntent returns the pending intent record, or nil. A record whose
// checksum does not match was cut short by a crash while it was being
// written, before any file was touched: it is cleared and ignored.
func (s *Store) readIntent() (*intent, error) {
	var in intent
	ok, err := readRecord(s.intentPath(), &in)
	switch {
	case err != nil:
		return nil, fmt.Errorf("gitstore: %s: %w", s.intentPath(), err)
	case !ok:
		return nil, s.clearIntent(true)
	case in.NewTip == "":
		return nil, fmt.Errorf("gitstore: %s: intent record without a new tip; move it away to continue", s.intentPath())
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

// clearIntent empties the intent record: the file stays, so the next
// transaction rewrites it without creating a file, and keeps one byte, a
// newline, so that it keeps its disk block too (on a file system mounted
// with discard, a block freed and allocated again per call costs a
// discard request in the next sync). A record of at most one byte is
// empty (hasIntent).
func (s *Store) clearIntent(sync bool) error {
	f, err := openFile(s.intentPath(), os.O_WRONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err == nil {
		err = f.Truncate(1)
		if err == nil {
			_, err = f.WriteAt([]byte{'\n'}, 0)
		}
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
		if err := s.restore(f.Path, f.New, f.NewPerm, f.Old, in.tempToken()); err != nil {
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
		if err := s.restore(f.Path, f.Old, f.OldPerm, f.New, in.tempToken()); err != nil {
			return err
		}
	}
	return nil
}

// restore makes path hold blob want (absent when "") if it currently holds
// want or other (the two sides of the transaction); a file holding
// something else was changed after the crash and is left alone. The
// transaction's temporary file is removed either way.
func (s *Store) restore(path, want string, perm uint32, other, token string) error {
	defer os.Remove(s.tmpName(path, token))
	name := s.abs(path)
	have := ""
	if b, _, err := readWorktree(name); err != nil {
		return fmt.Errorf("gitstore: recovering %s: %w", path, err)
	} else if b != nil {
		have = s.blobHash(b).String()
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
			tmp := s.tmpName(path, token)
			if err = writeTemp(tmp, fs.FileMode(perm), content); err == nil {
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

// pendingMove is the transaction's ref move, prepared on another
// goroutine (heldRefs.prepare) while the record is synced.
type pendingMove struct {
	done chan struct{}
	m    refMove
	err  error
}

// prepareMove runs first on another goroutine, then, unless it failed,
// prepares the move of the transaction's ref from its old tip to its new
// one there.
func (s *Store) prepareMove(in *intent, first func() error) *pendingMove {
	_, who := s.identity(time.Now())
	s.repo() // opened here, not on the goroutine
	p := &pendingMove{done: make(chan struct{})}
	go func() {
		defer close(p.done)
		if p.err = first(); p.err != nil {
			return
		}
		p.m, p.err = s.refs.prepare(in.Ref, oid(in.OldTip), oid(in.NewTip), who, reflogMessage(in.Reflog))
	}()
	return p
}

// wait returns once the move is prepared, with its error.
func (p *pendingMove) wait() error {
	<-p.done
	return p.err
}

// commit makes the prepared move.
func (p *pendingMove) commit() error {
	if err := p.wait(); err != nil {
		return err
	}
	err := p.m.commit()
	p.m = nil
	return err
}

// release abandons the move unless it was committed.
func (p *pendingMove) release() {
	<-p.done
	if p.m != nil {
		p.m.release()
		p.m = nil
	}
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
			fmt.Fprintf(&b, "0 %s\t%s\n", s.algo.ZeroHex(), f.Path)
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

// writePoolTemp is writeTemp through a file made ahead
// (OpenOptions.PoolFiles) when gr's pool has one, renamed to name.
func writePoolTemp(gr *gitrepo.Repo, name string, perm fs.FileMode, content ...[]byte) error {
	if gr != nil && uint32(perm) != linkPerm {
		if f := gr.TempFile(name); f != nil {
			if perm == 0 {
				perm = 0o644
			}
			return fillTemp(f, name, perm, content)
		}
	}
	return writeTemp(name, perm, content...)
}

// writeTemp writes content (its parts in order) to name (created or
// truncated), sets perm and fsyncs it.
func writeTemp(name string, perm fs.FileMode, content ...[]byte) error {
	if uint32(perm) == linkPerm {
		return writeLink(name, content...)
	}
	if perm == 0 {
		perm = 0o644
	}
	f, err := openFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
	if errors.Is(err, fs.ErrNotExist) {
		// A new file in a new directory.
		if err = os.MkdirAll(filepath.Dir(name), 0o755); err == nil {
			f, err = openFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, perm)
		}
	}
	if err != nil {
		return err
	}
	return fillTemp(f, name, perm, content)
}

// fillTemp writes content to f, the new empty file name, sets perm, fsyncs
// and closes it; on failure it removes name.
func fillTemp(f *os.File, name string, perm fs.FileMode, content [][]byte) error {
	var err error
	for _, p := range content {
		if err == nil {
			_, err = f.Write(p)
		}
	}
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

// writeLink makes name a symbolic link whose target is content (its parts
// in order), replacing what name was.
func writeLink(name string, content ...[]byte) error {
	target := string(bytes.Join(content, nil))
	os.Remove(name)
	err := os.Symlink(target, name)
	if errors.Is(err, fs.ErrNotExist) {
		// A new link in a new directory.
		if err = os.MkdirAll(filepath.Dir(name), 0o755); err == nil {
			err = os.Symlink(target, name)
		}
	}
	return err
}

// writeFileSync replaces name with content durably: temporary file, fsync,
// rename, fsync of the directory.
func writeFileSync(name string, content []byte, perm fs.FileMode) error {
	tmp := fmt.Sprintf("%s.%d.%d.tmp", name, os.Getpid(), time.Now().UnixNano())
	if err := writeTemp(tmp, perm, content); err != nil {
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
