package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"
	"time"

	"github.com/graftdev/graft/internal/testhook"
)

// Late writes: a process that does not take graft's lock (a logger, `echo
// >>`, a formatter, an editor) may write a file at any moment, also after
// the transaction's last check of it (step 1 in txn.go) and before its
// rename (step 5). POSIX has no compare-and-rename, so graft checks after.
// It puts the new content in place with a swap (renameat2 with
// RENAME_EXCHANGE on Linux, renamex_np with RENAME_SWAP on macOS: place),
// which leaves exactly the file it displaced under the temporary name,
// whoever put it there and whenever; where the file system cannot swap,
// it opens the file just before a plain rename (holdFile). It then waits,
// where the system can tell (a read lease on Linux), until no process has
// the displaced file open for writing, at most settleWait, and reads it:
// the open file sees every write made to it, appended or in place, up to
// that moment.
//
// What the displaced file holds, against Change.Old (what the call was
// computed from):
//
//   - the same bytes: nothing was written meanwhile;
//   - Old followed by more bytes, when the call's change leaves Old's last
//     line as it was or Old ends a line: bytes appended during the call.
//     They are appended to the new content in place (O_APPEND, no rename),
//     as if the append had come right after the call, which is what a
//     serial run of the two would give: the call's hunks stand where they
//     were located and the appended lines follow. The check before the
//     rename accepts such a grown file too (journal.go), so an appender
//     does not make the call run again;
//   - anything else (rewritten, truncated, replaced, created or deleted
//     meanwhile): the call is abandoned (txn.go: abandon). Every file it
//     replaced is put back (the written one by swapping the writer's own
//     file back, the others with their old content, each keeping what was
//     appended to it since the rename: restoreFile), the ref does not
//     move, and the call fails with ErrConflict naming the file, so that
//     the engine computes it again on the current content (apply:
//     Engine.locked, a bounded number of times) or refuses it.
//
// So no write that reached a file before graft's rename is lost, and a
// call whose file took such a write either lands on top of it or is
// refused with the file as the writer left it. What remains: a writer that
// keeps the file open across the rename for longer than settleWait (a log
// daemon) writes to a file no longer in the tree, as with any program that
// replaces files by rename (the `sed -i` caveat in the README); two
// appends, one landing on the displaced file and one on the new file in
// the microseconds between the rename and the carry, are kept in the other
// order; a kill -9 between the rename and the carry, or while an abandoned
// call is put back, loses the bytes the displaced file held beyond the
// call's own (recovery restores the call's before or after, txn.go); and
// where there is no swap, a writer that replaces the file by rename in
// the instant between graft's open and its rename is not seen. Off Unix an
// open file cannot be replaced, so its content is read just before each
// attempt to replace it instead.

// heldFile is a file a transaction is about to replace or remove, kept so
// that what was written to it up to the rename can be read after it.
type heldFile struct {
	f      *os.File // the file, open (Unix)
	snap   []byte   // off Unix: its content read just before the rename
	absent bool     // there was no file
	other  bool     // there was something graft does not read (a link), or a file not seen
	err    error    // it could not be kept: nothing can be told
	parked string   // the name the displaced file still has (place), removed on close
}

// size is the held file's current size.
func (h *heldFile) size() (int64, error) {
	if h.f == nil {
		return int64(len(h.snap)), nil
	}
	fi, err := h.f.Stat()
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// ReadAt implements io.ReaderAt over the held file.
func (h *heldFile) ReadAt(p []byte, off int64) (int, error) {
	if h.f != nil {
		return h.f.ReadAt(p, off)
	}
	if off >= int64(len(h.snap)) {
		return 0, io.EOF
	}
	n := copy(p, h.snap[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// close lets go of the held file, and removes it from where it is parked.
func (h *heldFile) close() {
	h.unpark()
	if h.f != nil {
		h.f.Close()
		h.f = nil
	}
}

// unpark removes the name the displaced file was parked at.
func (h *heldFile) unpark() {
	if h.parked != "" {
		os.Remove(h.parked)
		h.parked = ""
	}
}

// settleWait bounds how long settle waits for the processes that still
// have a replaced file open for writing to close it: a logger that opens,
// appends and closes does so in microseconds, unless it is descheduled in
// between; a process that keeps the file open (a log daemon) is the
// README's caveat, and is not waited for longer.
const settleWait = 100 * time.Millisecond

// settle waits, where the system can tell (Linux), until no process has
// the held file open for writing any more, so that no write can reach it
// after it is read: a writer that opened it before the rename and writes
// after would otherwise write to a file no longer in the tree. The wait
// is bounded by settleWait; most calls find no writer and do not wait.
func (h *heldFile) settle() {
	if h.f == nil {
		return
	}
	pause := 100 * time.Microsecond
	for waited := time.Duration(0); ; {
		writing, known := openForWriting(h.f)
		if !writing || !known || waited >= settleWait {
			return
		}
		time.Sleep(pause)
		waited += pause
		pause = min(2*pause, 5*time.Millisecond)
	}
}

// lateKind is what a replaced file received from other writers between the
// transaction's check and its rename.
type lateKind int

const (
	lateNone    lateKind = iota // nothing
	lateAppend                  // bytes appended after the base
	lateChanged                 // anything else
)

// checked is what the check before the rename saw of a file, so that an
// unchanged big file need not be read again after it.
type checked struct {
	fi   fs.FileInfo // nil: not seen, or grown since the call read it
	at   time.Time
	link bool // a symbolic link: its target was compared, nothing is read after
}

// A file whose size and modification time are unchanged was not written,
// unless the write came within the same tick of the file system's clock
// as the one before it: a file modified less than a tick before the check
// is read again. The tick is taken generously: 50 ms where modification
// times carry a fraction of a second (a jiffy of a coarse clock on Linux,
// 10 ms on exFAT), 3 s where they do not (1 s on HFS+ and ext3, 2 s on
// FAT).
const (
	fineTick   = 50 * time.Millisecond
	coarseTick = 3 * time.Second
)

// stampSame reports whether the held file is the one checked, with the
// same size and modification time, and whether those were old enough at
// the check to show that nothing wrote it since.
func (h *heldFile) stampSame(c checked) bool {
	if h.f == nil || c.fi == nil {
		return false
	}
	mt := c.fi.ModTime()
	tick := coarseTick
	if mt.Nanosecond() != 0 {
		tick = fineTick
	}
	if c.at.Sub(mt) < tick {
		return false
	}
	fi, err := h.f.Stat()
	return err == nil && os.SameFile(fi, c.fi) && fi.Size() == c.fi.Size() && fi.ModTime().Equal(mt)
}

// judge tells what the held file received against base (nil: there was
// no file). A file that grew past base is an append only when carry is set.
func (h *heldFile) judge(base [][]byte, baseAbsent bool, c checked, carry bool) (lateKind, error) {
	if h.err != nil {
		return lateNone, h.err
	}
	if h.other {
		return lateChanged, nil
	}
	if h.absent || baseAbsent {
		if h.absent && baseAbsent {
			return lateNone, nil
		}
		return lateChanged, nil
	}
	n := int64(partsLen(base))
	size, err := h.size()
	switch {
	case err != nil:
		return lateNone, err
	case size < n:
		return lateChanged, nil
	case size == n && h.stampSame(c):
		return lateNone, nil
	}
	same, err := hasPrefixParts(h, base)
	switch {
	case err != nil:
		return lateNone, err
	case !same:
		return lateChanged, nil
	case size == n:
		return lateNone, nil
	case carry:
		return lateAppend, nil
	}
	return lateChanged, nil
}

// chunks are the buffers in which a call reads a file it compares with
// bytes it holds (compareContent, hasPrefixParts): a file is compared a
// chunk at a time, so that the comparison holds no second copy of it. A
// call holding a copy of each file it checks made a long-running server's
// memory grow with the files it edits (the soak, docs/BENCHMARKS.md). A 10
// MB file takes 160 reads of 64 KB where it took 40 of 256 KB: some 120
// system calls more, about a tenth of a millisecond.
var chunks = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// hasPrefixParts reports whether r starts with the concatenation of parts,
// reading it in chunks.
func hasPrefixParts(r io.ReaderAt, parts [][]byte) (bool, error) {
	bp := chunks.Get().(*[]byte)
	defer chunks.Put(bp)
	buf := *bp
	off := int64(0)
	for _, p := range parts {
		for len(p) > 0 {
			k := min(len(p), len(buf))
			n, err := r.ReadAt(buf[:k], off)
			if n < k {
				if err == nil || err == io.EOF {
					return false, nil
				}
				return false, err
			}
			if !bytes.Equal(buf[:k], p[:k]) {
				return false, nil
			}
			p, off = p[k:], off+int64(k)
		}
	}
	return true, nil
}

// canCarry reports whether bytes appended to c's old content can follow
// its new content as they followed the old: the old content is empty or
// ends a line, or the call keeps its unterminated last line as the new
// content's end (so the appended bytes continue the same line).
func canCarry(c Change) bool {
	if c.Old == nil || c.deletes() || c.Mode&fs.ModeSymlink != 0 {
		return false
	}
	if len(c.Old) == 0 || c.Old[len(c.Old)-1] == '\n' {
		return true
	}
	last := c.Old[bytes.LastIndexByte(c.Old, '\n')+1:]
	return partsHasSuffix(c.newParts(), last)
}

// partsHasSuffix reports whether the concatenation of parts ends with s.
func partsHasSuffix(parts [][]byte, s []byte) bool {
	for i := len(parts) - 1; i >= 0 && len(s) > 0; i-- {
		p := parts[i]
		k := min(len(p), len(s))
		if !bytes.Equal(p[len(p)-k:], s[len(s)-k:]) {
			return false
		}
		s = s[:len(s)-k]
	}
	return len(s) == 0
}

// maxCarryRounds bounds how often carryTail looks again for bytes
// appended to the replaced file while it carried the earlier ones.
const maxCarryRounds = 8

// carryTail appends to the file at name what the held file holds past
// off, then looks again for bytes appended meanwhile, until none came. A
// file deleted since the rename takes nothing (its deletion came after).
func carryTail(h *heldFile, name string, off int64) error {
	for round := 0; round < maxCarryRounds; round++ {
		size, err := h.size()
		if err != nil {
			return err
		}
		if size <= off {
			return nil
		}
		f, err := openFile(name, os.O_WRONLY|os.O_APPEND, 0)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		_, err = io.Copy(f, io.NewSectionReader(h, off, size-off))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		off = size
		if h.f == nil {
			return nil // a snapshot does not grow
		}
	}
	return nil
}

// lateHook runs the tests' hook (testhook.LateWrite) at one moment of a
// file's replacement.
func lateHook(moment, path string) {
	if f := testhook.LateWrite; f != nil {
		f(moment, path)
	}
}

// errNoSwap: the platform or file system cannot swap two names, or rename
// without replacing, in one step.
var errNoSwap = errors.New("no atomic swap here")

// swapOff makes place work as where the system cannot swap (tests).
var swapOff bool

// placed is a file the transaction has replaced (or removed): what to put
// back should the call be abandoned.
type placed struct {
	i    int       // the change
	held *heldFile // when set, the writer's file the rename displaced: it goes back instead of the old content
}

// placeMode is what place does at a name.
type placeMode int

const (
	placeReplace placeMode = iota // src replaces the file at name
	placeCreate                   // src becomes name, which should not exist
	placeRemove                   // the file at name is removed (parked at src first)
)

// place puts the file at src where name is (or, for placeRemove, moves
// the file at name to the free name src), and returns the file it
// displaced, held, and whether anything changed at name. A removed file,
// and where the system can swap two names in one step (renameat2 on
// Linux, renamex_np on macOS) a replaced one, is exactly the file the
// rename took away: it is kept at src (heldFile.parked) until close; a
// file created at name since the check is then never replaced either.
// Elsewhere the file at name is held just before a plain rename
// (holdFile).
func place(src, name, path string, mode placeMode, moment string) (*heldFile, bool, error) {
	var err error
	switch mode {
	case placeRemove:
		lateHook(moment, path)
		err = replaceFile(name, src)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return &heldFile{absent: true}, false, nil // deleted since the check
		case err != nil:
			return nil, false, err
		}
		return parkedFile(src), true, nil
	case placeReplace:
		lateHook(moment, path)
		err = errNoSwap
		if !swapOff {
			err = exchangeFiles(src, name)
		}
		if err == nil {
			return parkedFile(src), true, nil
		}
		if errors.Is(err, fs.ErrNotExist) {
			if _, serr := os.Lstat(src); serr == nil {
				return &heldFile{absent: true}, false, nil // deleted since the check
			}
		}
	case placeCreate:
		lateHook(moment, path)
		err = errNoSwap
		if !swapOff {
			err = renameNoReplace(src, name)
		}
		if err == nil {
			return &heldFile{absent: true}, true, nil
		}
		if errors.Is(err, fs.ErrExist) {
			return &heldFile{other: true}, false, nil // created since the check
		}
	}
	if err != errNoSwap {
		return nil, false, err
	}
	h := holdFile(name)
	if err = replaceHeld(src, name, h); err != nil {
		h.close()
		return nil, false, err
	}
	return h, true, nil
}

// parkedFile holds the file a rename moved to name.
func parkedFile(name string) *heldFile {
	h := holdFile(name)
	if h.err != nil {
		// Not a file graft reads (a link, a special file): it is not
		// what the call read, and goes back as it is.
		h.err, h.other = nil, true
	}
	h.parked = name
	return h
}

// replaceHeld renames tmp over name, retried while another program holds
// name open for a moment (replaceFile); off Unix, h reads the file again
// before each attempt.
func replaceHeld(tmp, name string, h *heldFile) error {
	first := true
	return retryTransient(func() error {
		if !first {
			h.refresh(name)
		}
		first = false
		return renameOver(tmp, name)
	}, transientReplace, replaceRetry, time.Sleep)
}

// replaceChecked puts the new content of change c (at tmp; tmp is a free
// name when c deletes its file) in place, and returns what the file it
// displaced received from other writers since the check, and whether
// anything changed at the file's name. Appended bytes are carried onto
// the new content; for lateChanged the displaced file is returned held,
// for abandon to put back.
func (s *Store) replaceChecked(c Change, tmp string, chk checked) (lateKind, *heldFile, bool, error) {
	name := s.abs(c.Path)
	lateHook("check", c.Path)
	mode := placeReplace
	switch {
	case c.deletes():
		mode = placeRemove
	case c.Old == nil:
		mode = placeCreate
	}
	h, placed, err := place(tmp, name, c.Path, mode, "rename")
	if err != nil {
		return lateNone, nil, false, err
	}
	if placed {
		crashPoint("rename")
		lateHook("renamed", c.Path)
	}
	if chk.link {
		// A link replaced: nobody appends to a link.
		s.keepReplaced(h)
		return lateNone, nil, placed, nil
	}
	h.settle()
	var base [][]byte
	if c.Old != nil {
		base = [][]byte{c.Old}
	}
	kind, err := h.judge(base, c.Old == nil, chk, canCarry(c))
	if err == nil && kind == lateAppend {
		err = carryTail(h, name, int64(len(c.Old)))
	}
	if err != nil {
		h.close()
		return lateNone, nil, placed, fmt.Errorf("gitstore: %s: reading what the rename replaced: %w", c.Path, err)
	}
	if kind == lateChanged {
		return kind, h, placed, nil
	}
	s.keepReplaced(h)
	return kind, nil, placed, nil
}

// keepReplaced lets go of a replaced file: its parked name is removed,
// and the file kept open until ReleaseReplaced when DeferFrees is set (see
// OpenOptions), else closed.
func (s *Store) keepReplaced(h *heldFile) {
	h.unpark()
	if h.f == nil {
		return
	}
	if !s.opts.DeferFrees {
		h.close()
		return
	}
	if len(s.replaced) >= maxReplaced {
		for _, f := range s.replaced[:maxReplaced/2] {
			f.Close()
		}
		s.replaced = append(s.replaced[:0], s.replaced[maxReplaced/2:]...)
	}
	s.replaced = append(s.replaced, h.f)
	h.f = nil
}

// restoreFile makes path hold the file at src (nothing when src is "")
// where the transaction left cur (nothing when curAbsent; a link's target
// when curLink), keeping what other
// processes appended to cur since; a file another process rewrote or
// replaced since goes back as that process left it. tmp is a free name
// beside name. It takes src over.
func (s *Store) restoreFile(path, src, tmp string, cur [][]byte, curAbsent, curLink bool) error {
	name := s.abs(path)
	var h *heldFile
	var placed bool
	var err error
	switch {
	case src == "" && curAbsent:
		return nil
	case src == "":
		h, placed, err = place(tmp, name, path, placeRemove, "restore")
	case curAbsent:
		h, placed, err = place(src, name, path, placeCreate, "restore")
	default:
		h, placed, err = place(src, name, path, placeReplace, "restore")
	}
	if err != nil {
		if src != "" {
			os.Remove(src)
		}
		return fmt.Errorf("gitstore: %s: putting it back: %w", path, err)
	}
	defer h.close()
	if curLink && !curAbsent {
		// The call's link is displaced: nobody appends to a link.
		if !placed && src != "" {
			os.Remove(src)
		}
		return nil
	}
	h.settle()
	if !placed {
		// Removed, created or deleted by another process since: that
		// stays.
		if src != "" {
			os.Remove(src)
		}
		return nil
	}
	kind, err := h.judge(cur, curAbsent, checked{}, true)
	switch {
	case err != nil:
		return fmt.Errorf("gitstore: %s: putting it back: %w", path, err)
	case kind == lateAppend && src == "":
		// Appended to a file the call created: the appended bytes stay,
		// alone.
		size, err := h.size()
		off := int64(partsLen(cur))
		if err == nil {
			err = writeTempFrom(tmp, 0o644, io.NewSectionReader(h, off, size-off), size-off)
		}
		if err == nil {
			err = renameOver(tmp, name)
		}
		return err
	case kind == lateAppend:
		return carryTail(h, name, int64(partsLen(cur)))
	case kind == lateChanged:
		// Another process wrote the file after the transaction's rename:
		// what it wrote wins over the put-back.
		return s.giveBack(path, h, tmp)
	}
	return nil
}

// giveBack puts a file the transaction displaced, and should not have,
// back at path (h.parked when the system parked it, else its content).
func (s *Store) giveBack(path string, h *heldFile, tmp string) error {
	name := s.abs(path)
	var err error
	switch {
	case h.absent:
		err = os.Remove(name)
		if errors.Is(err, fs.ErrNotExist) {
			err = nil
		}
	case h.parked != "":
		err = renameOver(h.parked, name)
		if err == nil {
			h.parked = ""
		}
	default:
		perm := fs.FileMode(0o644)
		if h.f != nil {
			if fi, serr := h.f.Stat(); serr == nil {
				perm = fi.Mode().Perm()
			}
		}
		var size int64
		if size, err = h.size(); err == nil {
			err = writeTempFrom(tmp, perm, h, size)
		}
		if err == nil {
			err = renameOver(tmp, name)
		}
	}
	if err != nil {
		return fmt.Errorf("gitstore: %s: putting back what another process wrote: %w", path, err)
	}
	return nil
}

// writeTempFrom is writeTemp with the n bytes r holds.
func writeTempFrom(name string, perm fs.FileMode, r io.ReaderAt, n int64) error {
	content := make([]byte, n)
	if k, err := r.ReadAt(content, 0); err != nil && (err != io.EOF || int64(k) < n) {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return err
	}
	return writeTemp(name, perm, content)
}
