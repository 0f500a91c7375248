package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v6/plumbing"
)

// Read returns an object's type ("blob", "tree", "commit", "tag") and
// content, loose or packed (deltas resolved), in the repository or its
// alternates; ErrNotFound when no object has the id. A miss makes go-git
// list the packs again once, in case git repacked since.
func (r *Repo) Read(h ID) (string, []byte, error) {
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

// encoded is go-git's object h of type t (AnyObject for any).
func (r *Repo) encoded(t plumbing.ObjectType, h ID) (plumbing.EncodedObject, error) {
	ph, ok := hash(h)
	if !ok || ph.HexSize() != 2*r.format.Size() {
		return nil, fmt.Errorf("%q is not a %s object id", h, r.format.Name())
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
	_, err := os.Lstat(filepath.Join(r.commonDir, "objects", string(h[:2]), string(h[2:])))
	return err == nil
}

// Write stores a loose object of type typ whose content is the
// concatenation of parts and whose id the caller computed as h (Sum),
// through go-git's object writer, which names it by the id it computes
// while writing: a different id is an error. A write that fails (a full
// disk) leaves no temporary file behind, and never a partial object under
// the object's name: go-git's writer renames its temporary file into place
// on Close, so after a failed write the file is closed and removed here
// instead.
func (r *Repo) Write(typ string, parts [][]byte, h ID) error {
	t, err := plumbing.ParseObjectType(typ)
	if err != nil {
		return err
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	fan := string(h)[:2]
	r.objDir.Store(&fan) // its temporary file goes where it will stay (plainFS.TempFile)
	r.objTemp.Store(nil)
	defer r.objDir.Store(nil)
	defer r.objTemp.Store(nil)
	w, err := r.st.RawObjectWriter(t, int64(n))
	if err != nil {
		r.dropTemp()
		return fmt.Errorf("object %s: %w", h, err)
	}
	for _, p := range parts {
		if _, err := w.Write(p); err != nil {
			r.dropTemp()
			return fmt.Errorf("object %s: %w", h, err)
		}
	}
	if err := w.Close(); err != nil {
		r.dropTemp()
		return fmt.Errorf("object %s: %w", h, err)
	}
	if hw, ok := w.(interface{ Hash() plumbing.Hash }); ok {
		if got := fromHash(hw.Hash()); got != h {
			return fmt.Errorf("object %s: written as %s", h, got)
		}
	}
	return nil
}

// dropTemp closes and removes the temporary file of an object whose write
// failed (a file already renamed into place or removed is not there any
// more: nothing to do).
func (r *Repo) dropTemp() {
	f := r.objTemp.Swap(nil)
	if f == nil {
		return
	}
	_ = f.File.Close()
	_ = os.Remove(f.File.Name())
}
