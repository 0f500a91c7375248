package apply

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/internal/lineindex"
)

// sinceVersion relates the version of a file that an agent read (the blob
// id file_read returned) to the file as it is now. When they differ, line
// numbers from the read are carried to the current content through the
// line diff between the two, as long as the lines they name were not
// touched; anything else is a conflict that shows what changed.
type sinceVersion struct {
	rel, version string
	edits        []lineEdit // base → current
	diff         string     // unified diff base → current, for messages
}

// since returns nil when version is empty or is the file's current
// content, and otherwise the map from that version to the current content.
// A version graft never stored (file_read stores every version it returns)
// is a conflict.
//
// Without a version, a call that is being recomputed because the file
// changed between its read and its write (Engine.locked) takes what it
// read then as the base, the same way: its line numbers referred to that.
func (tx *Tx) since(f *TxFile, version, edit string) (*sinceVersion, error) {
	if !f.Exists {
		return nil, nil
	}
	var base []byte
	if version == "" {
		read, ok := tx.e.reread[f.Rel]
		if !ok || read == nil || bytes.Equal(read, f.Old) {
			return nil, nil
		}
		base = read
	} else {
		if tx.e.store.BlobID(f.Old) == version {
			return nil, nil
		}
		var err error
		base, err = tx.e.store.Blob(version)
		if errors.Is(err, gitstore.ErrUnknownBlob) {
			return nil, errorf(CodeConflict, f.Rel, edit, "version %s is unknown (not from file_read here): read the file again", short(version))
		}
		if err != nil {
			return nil, &Error{Code: CodeInternal, Path: f.Rel, Edit: edit, Msg: err.Error(), Err: err}
		}
	}
	ai, bi := lineindex.New(f.decode(base)), lineindex.New(f.decode(f.Old))
	edits := diffLines(ai, 1, ai.Count()+1, bi, 1, bi.Count()+1)
	tx.e.log.Debug("stale version", "path", f.Rel, "version", short(version), "changes", len(edits))
	return &sinceVersion{rel: f.Rel, version: version, edits: edits,
		diff: unified("a/"+f.Rel+" (read)", "b/"+f.Rel+" (now)", ai, bi, edits)}, nil
}

// shift is how many lines the changes before base line n moved it.
func (v *sinceVersion) shift(n int) int {
	d := 0
	for _, e := range v.edits {
		if e.A1 <= n {
			d += (e.B1 - e.B0) - (e.A1 - e.A0)
		}
	}
	return d
}

// lines carries the base range first..last to the current content, or
// refuses when a change touched it.
func (v *sinceVersion) lines(first, last int, edit string) (int, int, error) {
	if v == nil {
		return first, last, nil
	}
	for _, e := range v.edits {
		touches := e.A0 <= last && e.A1 > first // changed lines inside
		inside := e.A0 == e.A1 && e.A0 > first && e.A0 <= last
		if touches || inside {
			return 0, 0, v.conflict(edit, lineedit.Desc(first, last))
		}
	}
	d := v.shift(first)
	return first + d, last + d, nil
}

// after carries the insertion point after base line n (0 = the top).
func (v *sinceVersion) after(n int, edit string) (int, error) {
	if v == nil || n == 0 {
		return n, nil
	}
	f, _, err := v.lines(n, n, edit)
	return f, err
}

func (v *sinceVersion) conflict(edit, what string) *Error {
	diff := clipLines(v.diff, 60)
	e := errorf(CodeConflict, v.rel, edit,
		"%s changed since version %s was read; read the file again. What changed since:\n%s", what, short(v.version), diff)
	if v.version == "" {
		e = errorf(CodeConflict, v.rel, edit,
			"%s changed while the call ran (another writer); read the file again. What changed:\n%s", what, diff)
	}
	return e
}

// clipLines keeps the first n lines of text and says how many it left out.
func clipLines(text string, n int) string {
	if lines := strings.SplitAfter(text, "\n"); len(lines) > n {
		return strings.Join(lines[:n], "") + fmt.Sprintf("... (%d more lines)\n", len(lines)-n)
	}
	return text
}

// notFound turns a string edit's refusal on a stale version into a
// conflict that shows what changed since the read.
func (v *sinceVersion) notFound(err error, edit string) error {
	if v == nil || CodeOf(err) != CodeTextNotFound {
		return err
	}
	c := v.conflict(edit, "the old text was not found, and the file")
	c.Err = err
	var e *Error
	if errors.As(err, &e) {
		c.Candidates = e.Candidates // the nearest places, as a refusal lists them
	}
	return c
}

// checkVersion refuses an edit based on a version of the file other than
// the one on disk. Tools that carry line numbers through changes use
// Tx.since instead.
func (tx *Tx) checkVersion(f *TxFile, version, edit string) error {
	if version == "" || !f.Exists {
		return nil
	}
	if cur := tx.e.store.BlobID(f.Old); cur != version {
		return errorf(CodeConflict, f.Rel, edit, "file changed since it was read (version %s, now %s): read it again", short(version), short(cur))
	}
	return nil
}
