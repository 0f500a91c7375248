package gitrepo

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"

	"github.com/go-git/go-git/v6/plumbing"
)

// Read returns an object's type ("blob", "tree", "commit", "tag") and
// content, loose or packed (deltas resolved), in the repository or its
// alternates; ErrNotFound when no object has the id. Packs and loose
// files are read here (pack.go says why); what this reader does not know
// is asked of go-git. A miss makes the packs be listed again once, in
// case git repacked since.
func (r *Repo) Read(h ID) (string, []byte, error) {
	typ, data, found, err := r.objs.read(h)
	if err != nil {
		return "", nil, err
	}
	if found {
		return typ, data, nil
	}
	if !r.objs.partial() {
		return "", nil, fmt.Errorf("object %s: %w", h, ErrNotFound)
	}
	return r.readGoGit(h)
}

// readGoGit reads an object through go-git's object storage.
func (r *Repo) readGoGit(h ID) (string, []byte, error) {
	o, err := r.encoded(plumbing.AnyObject, h)
	if err != nil {
		return "", nil, err
	}
	rd, err := o.Reader()
	if err != nil {
		return "", nil, fmt.Errorf("object %s: %w", h, err)
	}
	defer rd.Close()
	data := make([]byte, o.Size())
	if _, err := io.ReadFull(rd, data); err != nil {
		return "", nil, fmt.Errorf("object %s: %w", h, err)
	}
	return o.Type().String(), data, nil
}

// readAs reads object h, which must be of type typ, as go-git's memory
// object (for its decoders).
func (r *Repo) readAs(typ plumbing.ObjectType, h ID) (plumbing.EncodedObject, error) {
	t, data, err := r.Read(h)
	if err != nil {
		return nil, err
	}
	if t != typ.String() {
		return nil, fmt.Errorf("object %s is a %s, not a %s: %w", h, t, typ, ErrNotFound)
	}
	o := plumbing.NewMemoryObject(plumbing.FromObjectFormat(r.format.f))
	o.SetType(typ)
	o.Write(data)
	return o, nil
}

// encoded is go-git's object h of type t (AnyObject for any), read by
// go-git.
func (r *Repo) encoded(t plumbing.ObjectType, h ID) (plumbing.EncodedObject, error) {
	ph, ok := hash(h)
	if !ok || ph.HexSize() != 2*r.format.Size() {
		return nil, fmt.Errorf("%q is not a %s object id", h, r.format.Name())
	}
	if r.goGitStale.Swap(false) {
		_ = r.st.Reindex()
	}
	o, err := r.st.EncodedObject(t, ph)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		// git may have packed the object since the packs were listed
		// (and pruned it loose): look again, once.
		if r.st.Reindex() == nil {
			o, err = r.st.EncodedObject(t, ph)
		}
	}
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return nil, fmt.Errorf("object %s: %w", h, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("object %s: %w", h, err)
	}
	return o, nil
}

// Has reports whether object h is in the repository, loose or packed.
func (r *Repo) Has(h ID) bool {
	if r.objs.contains(h) {
		return true
	}
	if !r.objs.partial() {
		return false
	}
	ph, ok := hash(h)
	return ok && r.st.HasEncodedObject(ph) == nil
}

// HasLoose reports whether h is a loose object of the repository itself
// (not an alternate's): a write of it can be skipped without asking the
// pack indexes.
func (r *Repo) HasLoose(h ID) bool {
	if len(h) < 3 {
		return false
	}
	_, err := os.Lstat(loosePath(filepath.Join(r.commonDir, "objects"), h))
	return err == nil
}

// Write stores a loose object of type typ whose content is the
// concatenation of parts and whose id the caller computed as h (Sum), as
// git does: zlib of "TYPE SIZE\0" and the content (the level chosen as
// zlib.go says) written in one go into a new temporary file of the
// object's fan-out directory, read-only, renamed to its name. That is one
// file created, written, closed and renamed, where git commit also links
// and unlinks; nothing is synced (graft's intent record makes a lost
// object harmless, txn.go). A write that fails (a full disk) removes its
// temporary file and leaves nothing under the object's name.
func (r *Repo) Write(typ string, parts [][]byte, h ID) error {
	if typeCode(typ) == 0 {
		return fmt.Errorf("object %s: unknown type %q", h, typ)
	}
	if len(h) != 2*r.format.Size() {
		return fmt.Errorf("%q is not a %s object id", h, r.format.Name())
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	dir := filepath.Join(r.commonDir, "objects", string(h[:2]))
	final := filepath.Join(dir, string(h[2:]))
	if used, err := r.writePooled(typ, n, parts, dir, final); used {
		if err != nil {
			return fmt.Errorf("object %s: %w", h, err)
		}
		return nil
	}
	f, err := createTemp(dir, "tmp_obj_", 0o444)
	if err != nil {
		return fmt.Errorf("object %s: %w", h, err)
	}
	tmp := f.Name()
	err = writeLoose(f, typ, n, parts)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		if err = rename(tmp, final); err != nil {
			if _, serr := os.Lstat(final); serr == nil {
				err = nil // written meanwhile by someone else: the same bytes
			}
		}
	}
	if err != nil {
		os.Chmod(tmp, 0o644) // a read-only file cannot be removed on Windows
		os.Remove(tmp)
		return fmt.Errorf("object %s: %w", h, err)
	}
	return nil
}

// looseWriters are the zlib writers of loose objects, with their 64 KB
// output buffers, kept for reuse. They are a free list of a fixed size,
// not a sync.Pool, because a pool is emptied by every garbage collection,
// which a long-running server runs a few times a second: its writers'
// buffers were made again for most objects. The list holds as many
// writers as a call writes objects at once (two goroutines); a writer
// beyond them is made and dropped.
var looseWriters = make(chan *looseWriter, 2)

// looseWriter is a zlib writer and the buffer under it.
type looseWriter struct {
	zw levelWriter
	bw *bufio.Writer // nil until an object needs the whole 64 KB
}

// getLooseWriter takes a writer from the free list, or makes one.
func getLooseWriter() *looseWriter {
	select {
	case lw := <-looseWriters:
		return lw
	default:
		return &looseWriter{}
	}
}

// putLooseWriter gives lw back to the free list, or drops it when full.
func putLooseWriter(lw *looseWriter) {
	lw.zw.Reset(nil)
	if lw.bw != nil {
		lw.bw.Reset(nil)
	}
	select {
	case looseWriters <- lw:
	default:
	}
}

// writeLoose writes a loose object's zlib stream to w.
func writeLoose(w io.Writer, typ string, n int, parts [][]byte) error {
	lw := getLooseWriter()
	defer putLooseWriter(lw)
	var bw *bufio.Writer
	if n+64 < 64<<10 {
		bw = bufio.NewWriterSize(w, n+64) // a small object: a small buffer
	} else {
		if lw.bw == nil {
			lw.bw = bufio.NewWriterSize(w, 64<<10)
		}
		bw = lw.bw
		bw.Reset(w)
	}
	zw := &lw.zw
	zw.Reset(bw)
	head := make([]byte, 0, 32)
	head = append(head, typ...)
	head = append(head, ' ')
	head = strconv.AppendInt(head, int64(n), 10)
	head = append(head, 0)
	if _, err := zw.Write(head); err != nil {
		return err
	}
	for _, p := range parts {
		if _, err := zw.Write(p); err != nil {
			return err
		}
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return bw.Flush()
}

// tempSeq makes the names of temporary objects distinct within a process;
// O_EXCL keeps them distinct across processes.
var tempSeq atomic.Uint64

// createTemp creates a new file named prefix and a number in dir, as git's
// mkstemp does, with permissions perm (read-only for an object, as git's
// are), creating dir when missing.
func createTemp(dir, prefix string, perm fs.FileMode) (*os.File, error) {
	seed := uint64(os.Getpid())<<20 ^ tempSeq.Add(1)*0x9e3779b97f4a7c15
	for try := 0; ; try++ {
		if try == 100 {
			return nil, fmt.Errorf("%s: cannot create a temporary file", dir)
		}
		name := filepath.Join(dir, prefix+strconv.FormatUint(seed+uint64(try)*7919, 36))
		f, err := OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		switch {
		case err == nil:
			return f, nil
		case errors.Is(err, fs.ErrNotExist):
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
		case errors.Is(err, fs.ErrExist):
		default:
			return nil, err
		}
	}
}
