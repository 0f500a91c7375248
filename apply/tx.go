package apply

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graftdev/graft/apply/syntax"
	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/internal/textedit"
)

// LineRange is a 1-based, inclusive range of lines.
type LineRange struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Located says where one operation landed and how it was found: the
// record of internal/edit's located change that a result lists.
type Located = textedit.Location

// FileResult is what a call did to one file.
type FileResult struct {
	Path string `json:"path"`
	// Diff is the unified diff; "" in a result whose big diffs are written
	// when the result is (WithLazyDiffs): WriteDiff writes it, and
	// MaterializeDiff makes it.
	Diff         string    `json:"diff"`
	LineRange    LineRange `json:"line_range"`
	Additions    int       `json:"additions"`
	Deletions    int       `json:"deletions"`
	Replacements int       `json:"replacements"`
	Hunks        []Located `json:"hunks"`
	Created      bool      `json:"created,omitempty"`
	Deleted      bool      `json:"deleted,omitempty"`
	// Note says what the call left as it was that a reader may expect
	// changed: a notebook's edited cells keep their outputs.
	Note string `json:"note,omitempty"`
	// Syntax is the syntax check of a file in a language graft knows:
	// which checker ran (or why none could: Checked false, Skipped), and
	// the errors the edit adds when --check=warn let it land anyway.
	Syntax *syntax.Report `json:"syntax,omitempty"`

	// lazy, when set, is the diff, to be written (Diff is "").
	lazy *unifiedDiff
}

// Landing is the common part of every editing tool's result.
type Landing struct {
	Success bool         `json:"success"`
	DryRun  bool         `json:"dry_run,omitempty"`
	Files   []FileResult `json:"files"`
	// Commit is the journal commit that records the call ("" in a dry run).
	Commit string `json:"commit,omitempty"`
	// Unchanged lists the operations of a batch that changed nothing (old
	// and new text identical); the rest of the call landed.
	Unchanged []Unchanged `json:"unchanged,omitempty"`
}

// Unchanged is a batch operation whose old text was found and whose new
// text is the same: reported, not applied, and no reason to refuse the
// others.
type Unchanged struct {
	Edit    string `json:"edit"`
	Path    string `json:"path"`
	Line    int    `json:"line"`
	EndLine int    `json:"end_line"`
	Note    string `json:"note"`
}

// unchangedNote is what an Unchanged says.
const unchangedNote = "unchanged: old and new are identical"

// Succeeded reports whether every part of the call succeeded.
func (l *Landing) Succeeded() bool { return l.Success }

// Tx collects one call's changes to files, each computed from the file as
// it was when the call first touched it, and lands them all at once.
type Tx struct {
	e         *Engine
	tool      string
	dryRun    bool
	files     []*TxFile
	byRel     map[string]*TxFile
	unchanged []Unchanged
	// resolved holds the paths resolved in this call, as given: a
	// multi_edit of many edits names one file many times, and resolving
	// it walks the path's directories and reads HEAD's tree.
	resolved map[string][2]string
}

// resolve is Engine.resolve, once per path and call.
func (tx *Tx) resolve(path, edit string) (rel, abs string, err error) {
	if r, ok := tx.resolved[path]; ok {
		return r[0], r[1], nil
	}
	if rel, abs, err = tx.e.resolve(path, edit); err == nil {
		if tx.resolved == nil {
			tx.resolved = map[string][2]string{}
		}
		tx.resolved[path] = [2]string{rel, abs}
	}
	return rel, abs, err
}

// TxFile is one file inside a transaction. Every format hands it located
// changes (internal/edit) of the file's text as the format saw it; the
// file keeps them as one set of changes of its bytes when the call began
// (Old), composing each step with the ones before, so that its content,
// its diff and its write are made the same way whatever the format and
// however many steps it took. Only a file the call creates, deletes or
// fills from another (a rename, a copy, binary data) holds a whole
// content instead.
type TxFile struct {
	// Rel is the path relative to the worktree root; Abs the real path.
	Rel, Abs string
	// Exists is false for a file the call creates.
	Exists bool
	// Old is the content when the call began.
	Old []byte
	// OldMode holds the permission bits when the call began; Mode the
	// ones to write (a patch may change them).
	OldMode, Mode fs.FileMode

	oldHash *gitstore.PendingHash // Old's blob id, for a big file
	// composed turns Old into the content so far (sorted, checked,
	// composed over the steps), unless whole is set. A step costs what it
	// touches, not every change before it (textedit.Composed).
	composed textedit.Composed
	// own is the buffer of the content so far when the file made it for
	// a later step (Step), and spare the one before it, which the next
	// step writes into.
	own, spare []byte
	// whole: the content so far is cur, set whole (a creation, a rename
	// or copy onto the path, binary data) and changed in place by later
	// steps.
	whole bool
	// cur is the content so far, when known; nil while it is held as
	// parts (a big file: see Content) or when there are no changes (Old).
	cur []byte
	// parts, when not nil, is the content so far as spans of Old and the
	// changes' texts: a big file is written and hashed from them, without
	// a second copy of the unchanged bytes.
	parts        [][]byte
	located      locatedList
	replacements int
	deleted      bool

	// enc is the file's encoding and encFrom how it was determined
	// (encoding.go); validUTF8: the content was valid UTF-8 when read.
	enc       *textedit.Encoding
	encFrom   string
	validUTF8 bool
	// raw: binary content (OpenBinary), taken as given.
	raw bool
	// cached is the view of the content so far, oldCached of Old (not
	// for UTF-8 files).
	cached, oldCached *textedit.View
	// lazy, when set, determines the encoding of a file read as plain
	// ASCII (resolveEncoding).
	lazy func()
	// source is what a rename or copy onto this path takes its content
	// from (inheritEncoding).
	source *renamed
	// err is a whole content's refusal (SetContent), reported by Land.
	err error
	// nb is the state of a notebook's view (notebook.go).
	nb nbState
	// lazyDiff, when positive, is the diff size past which the result
	// holds the diff unwritten (WithLazyDiffs).
	lazyDiff int
}

// Begin starts a transaction for one call of tool.
func (e *Engine) Begin(tool string, dryRun bool) *Tx {
	return &Tx{e: e, tool: tool, dryRun: dryRun, byRel: map[string]*TxFile{}}
}

// hashAheadBytes is the content size from which a file's blob ids are
// computed on another goroutine as soon as the content is known.
const hashAheadBytes = 1 << 20

// Open returns the file at path, reading it the first time: the path is
// checked (inside the worktree, not in the git directory) before anything
// is read, then size, type and binary content. A missing file is an error
// unless create is set, in which case it comes back with Exists false.
// edit names the operation for error messages.
func (tx *Tx) Open(path, edit string, create bool) (*TxFile, error) {
	return tx.open(path, edit, create, false)
}

// OpenBinary is Open for a file that a binary patch changes: its content
// may be binary.
func (tx *Tx) OpenBinary(path, edit string, create bool) (*TxFile, error) {
	return tx.open(path, edit, create, true)
}

func (tx *Tx) open(path, edit string, create, binary bool) (*TxFile, error) {
	rel, abs, err := tx.resolve(path, edit)
	if err != nil {
		return nil, err
	}
	if f, ok := tx.byRel[rel]; ok {
		if f.Missing() && !create {
			return nil, &Error{Code: CodeFileNotFound, Path: rel, Edit: edit, Msg: "file not found"}
		}
		return f, nil
	}
	f := &TxFile{Rel: rel, Abs: abs, Mode: 0o644, raw: binary}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist) && create:
		if !binary {
			f.enc, f.encFrom, _ = tx.encodingOf(rel, abs, nil, false)
			f.validUTF8 = f.enc.IsUTF8()
		}
	case err != nil:
		return nil, errFromFS(err, rel, edit)
	case fi.IsDir():
		return nil, invalidf(rel, edit, "is a directory, not a file")
	case !fi.Mode().IsRegular():
		return nil, invalidf(rel, edit, "not a regular file")
	case fi.Size() > tx.e.opts.MaxFileBytes:
		return nil, errorf(CodeTooLarge, rel, edit, "file too large: %s (the limit is %s; graft --max-file-size raises it)", sizeOf(fi.Size()), sizeOf(tx.e.opts.MaxFileBytes))
	default:
		tx.e.phase(fi.Size(), "read "+rel)
		content, err := readContent(abs, fi.Size())
		if err != nil {
			return nil, errFromFS(err, rel, edit)
		}
		var isBin bool
		switch {
		case binary:
		case plainASCII(content):
			// It reads the same in every encoding graft writes: what names
			// its encoding is read when new text needs it (encoding.go).
			f.enc, f.validUTF8 = textedit.UTF8, true
			f.lazy = func() {
				f.enc, f.encFrom, _ = tx.encodingOf(rel, abs, content, true)
				f.validUTF8 = f.enc.IsUTF8()
				f.cached, f.oldCached = nil, nil
			}
		default:
			f.enc, f.encFrom, isBin = tx.encodingOf(rel, abs, content, true)
			f.validUTF8 = f.enc.IsUTF8() && (f.encFrom == "" || utf8.Valid(content))
		}
		if isBin {
			verb := "edit"
			if t := Lookup(tx.tool); t != nil && t.ReadOnly {
				verb = "read"
			}
			return nil, errorf(CodeBinary, rel, edit, "cannot %s binary file (it has a NUL byte in its first %d bytes)", verb, binarySniff)
		}
		f.Exists, f.Old, f.OldMode, f.Mode = true, content, fi.Mode().Perm(), fi.Mode().Perm()
		if len(content) >= hashAheadBytes && !tx.dryRun {
			// Hashed on another core while the call computes its edit.
			f.oldHash = tx.e.store.HashAsync(content)
		}
		tx.e.log.Debug("read", "path", rel, "bytes", len(content))
	}
	tx.byRel[rel] = f
	tx.files = append(tx.files, f)
	return f, nil
}

// Missing reports whether the file has no content in the transaction: it
// did not exist and the call has not created it, or the call deleted it.
func (f *TxFile) Missing() bool {
	return f.deleted || !f.Exists && !f.whole
}

// Text is the file's text so far, as every format reads and locates in
// it: its content through its view (internal/textedit: a byte order mark
// belongs to the file, not to its first line, and a file in another
// encoding than UTF-8 is decoded). nil for a missing file.
func (f *TxFile) Text() []byte {
	if f.Missing() {
		return nil
	}
	return f.view().Text
}

// Step applies one step of an operation: changes of the file's text as it
// is so far (Text), located by any format, all checked together (inside
// the text, no two overlapping). Their Locations are what the result
// lists; each change with a Method counts as one replacement. The first
// step of a file sees the text the call began with; a later step
// (multi_edit's next edit, the next SEARCH/REPLACE block) sees the text
// the earlier ones left, and is composed with them.
func (f *TxFile) Step(changes []textedit.Change) (stepErr error) {
	if f.Missing() {
		return &Error{Code: CodeFileNotFound, Path: f.Rel, Msg: "file not found"}
	}
	f.resolveFor(changes)
	cur := f.Content()
	view := f.view()
	sorted, err := textedit.Check(len(view.Text), changes)
	if err != nil {
		return textedit.WithPath(err, f.Rel)
	}
	// Changes given in order come back as the caller's own slice: kept as
	// they are where the view maps text to bytes one to one (the file
	// holds them, and never writes to them), copied before a view that
	// maps them changes them.
	if len(sorted) > 0 && &sorted[0] == &changes[0] && !(f.identity() && len(view.Prefix) == 0) {
		sorted = slices.Clone(sorted)
	}
	// Next to bytes that do not decode, the result is checked to read as
	// the changed text (checkDecodes).
	var want []byte
	if view.Undecodable() > 0 {
		if want, err = textedit.Splice(view.Text, sorted); err != nil {
			return textedit.WithPath(err, f.Rel)
		}
	}
	if sorted, err = view.Bytes(sorted); err != nil {
		return textedit.WithPath(err, f.Rel)
	}
	prev := *f
	if want != nil {
		prev.composed = f.composed.Clone() // the step may be undone
	}
	defer func() {
		if want != nil && stepErr == nil {
			if err := f.checkDecodes(want); err != nil {
				*f = prev
				f.cached = nil
				stepErr = err
			}
		}
	}()
	f.cached = nil
	for _, c := range changes {
		if c.Method != "" {
			f.located.add(c.Location())
			f.replacements++
		}
	}
	if f.whole {
		out, err := textedit.Splice(cur, sorted)
		if err != nil {
			return textedit.WithPath(err, f.Rel)
		}
		f.cur = out
		return nil
	}
	// Compose keeps the file's changes sorted and apart by construction
	// (TestCompose), so they are not checked again per step. The file's
	// first step holds the step's changes as they are (not a copy).
	f.composed.Add(f.Old, sorted)
	if f.cur != nil {
		// A later step: the content so far is joined already (the step
		// located in it), and the step's changes are of it. The new
		// content is made from it, not from every change since the call
		// began (multi_edit's 10,000 edits of one file rebuilt it from
		// all the changes before each: quadratic), into the buffer of
		// the content before it when that is the file's own: nothing
		// holds a content of this call past the step after it (a change's
		// new text is never a slice of it, a view is made again), so two
		// buffers take turns rather than one new buffer per edit. A step
		// that may be undone (checkDecodes) keeps its content.
		parts := textedit.PartsOf(cur, sorted)
		n := textedit.Len(parts)
		var out []byte
		if want == nil && cap(f.spare) >= n {
			out = f.spare[:n]
		} else {
			out = makeContent(n + n/8)[:n]
		}
		textedit.JoinInto(out, parts)
		f.spare = nil
		if len(cur) > 0 && len(f.own) > 0 && &cur[0] == &f.own[0] && want == nil {
			f.spare = f.own[:0]
		}
		f.cur, f.own, f.parts = out, out, nil
		return nil
	}
	parts := textedit.PartsOf(f.Old, f.composed.Changes())
	if len(f.Old) >= partsBytes {
		f.cur, f.parts = nil, parts
	} else {
		f.cur, f.parts = joinPieces(parts), nil
	}
	return nil
}

// stepped reports whether a step changed the file already in this call.
func (f *TxFile) stepped() bool { return f.whole || f.composed.Len() > 0 || f.deleted }

// partsBytes is the file size from which Step keeps the result in parts.
const partsBytes = 4 << 20

// maxWindow is the largest window of a file (hunkWindow) that result
// diffs on its own.
const maxWindow = 1 << 20

// Content returns the file's content so far, joining its parts first if
// it is held in parts; nil for a file deleted or not yet created.
func (f *TxFile) Content() []byte {
	switch {
	case f.deleted:
		return nil
	case f.parts != nil:
		f.cur, f.parts = joinPieces(f.parts), nil
	case f.whole || f.cur != nil:
	case f.Exists:
		return f.Old
	}
	return f.cur
}

// size is len(f.Content()), without joining parts.
func (f *TxFile) size() int {
	if f.parts != nil {
		return textedit.Len(f.parts)
	}
	return len(f.Content())
}

// head is the first n bytes of the content so far (fewer if it is
// shorter), without joining parts.
func (f *TxFile) head(n int) []byte {
	if f.parts == nil {
		c := f.Content()
		return c[:min(n, len(c))]
	}
	var out []byte
	for _, p := range f.parts {
		if len(out) >= n {
			break
		}
		out = append(out, p[:min(len(p), n-len(out))]...)
	}
	return out
}

// SetContent gives the file a whole new content: a file the call creates
// (its text as given: a new file has no view to keep), or one a patch
// fills from another (a rename or copy onto its path, binary data).
// located records the operation, if it is one of its own.
func (f *TxFile) SetContent(content []byte, located ...Located) {
	if content == nil {
		content = []byte{}
	}
	f.resolveEncoding()
	content, f.err = f.encodeWhole(content)
	f.composed.Reset()
	f.cur, f.parts, f.whole, f.deleted, f.cached = content, nil, true, false, nil
	for _, l := range located {
		f.located.add(l)
		f.replacements++
	}
}

// Delete marks the file for deletion.
func (f *TxFile) Delete() {
	f.composed.Reset()
	f.cur, f.parts, f.whole, f.deleted, f.cached = nil, nil, false, true, nil
}

// Land computes each changed file's diff and, unless the call is a dry
// run, writes every change or none through the store, recording the call
// in the journal with message. A call that changes nothing is refused, and
// so is, dry run or not, one that changes or deletes a file its owner
// cannot write (mode 0444, the read-only attribute on Windows).
func (tx *Tx) Land(ctx context.Context, message string) (*Landing, error) {
	var changed []*TxFile
	var total int64 // bytes changed: removed plus added, over every file
	for _, f := range tx.files {
		if f.err != nil && !f.deleted {
			return nil, f.err
		}
		if f.changed() {
			if n := int64(f.size()); !f.deleted && n > tx.e.opts.MaxFileBytes {
				return nil, errorf(CodeTooLarge, f.Rel, "", "the file would be %s after the call (the limit is %s; graft --max-file-size raises it)", sizeOf(n), sizeOf(tx.e.opts.MaxFileBytes))
			}
			changed = append(changed, f)
			total += f.changedBytes()
		}
	}
	if len(changed) == 0 {
		return nil, invalidf(tx.onlyPath(), "", "the edit changes nothing: the new content equals the current content")
	}
	if len(changed) > tx.e.opts.MaxFiles {
		return nil, errorf(CodeTooLarge, "", "", "call changes %d files (the limit is %d; graft --max-files raises it)", len(changed), tx.e.opts.MaxFiles)
	}
	// A call changing one file is never held to less than that file (the
	// per-file limit bounds it).
	if total > tx.e.opts.MaxCallBytes && len(changed) > 1 {
		return nil, errorf(CodeTooLarge, "", "", "call changes %s across %d files (the limit is %s; graft --max-call-size raises it)", sizeOf(total), len(changed), sizeOf(tx.e.opts.MaxCallBytes))
	}
	for _, f := range changed {
		if err := f.checkNotebook(); err != nil {
			return nil, err
		}
		if f.Exists && f.OldMode&0o200 == 0 {
			verb := "edit"
			if f.deleted {
				verb = "delete"
			}
			return nil, &Error{Code: CodePermission, Path: f.Rel, Err: gitstore.ErrReadOnly,
				Msg: fmt.Sprintf("%s (mode %04o): make it writable to %s it", gitstore.ErrReadOnly, f.OldMode, verb)}
		}
	}
	res := &Landing{Success: true, DryRun: tx.dryRun, Unchanged: tx.unchanged}
	changes := make([]gitstore.Change, 0, len(changed))
	newHashes := make([]*gitstore.PendingHash, len(changed))
	for i, f := range changed {
		switch {
		case f.deleted || tx.dryRun || f.size() < hashAheadBytes:
		case f.parts != nil:
			// Hashed on another core while the results are computed.
			newHashes[i] = tx.e.store.HashPartsAsync(f.parts)
		default:
			newHashes[i] = tx.e.store.HashAsync(f.Content())
		}
	}
	for i, f := range changed {
		tx.e.progress(i, len(changed), "diff "+f.Rel)
		f.lazyDiff = lazyDiffBytes(ctx)
		r := f.result()
		if f.notebook() {
			r.Note = notebookEditNote
		}
		rep, err := tx.checkSyntax(f)
		if err != nil {
			return nil, err
		}
		r.Syntax = rep
		res.Files = append(res.Files, r)
		c := gitstore.Change{Path: f.Rel, Old: f.Old, New: f.cur, NewParts: f.parts, Mode: f.Mode, OldHash: f.oldHash, NewHash: newHashes[i]}
		if f.parts == nil {
			c.New = f.Content()
		}
		if !f.Exists {
			c.Old = nil
		}
		if f.deleted {
			c.New = nil
		}
		changes = append(changes, c)
	}
	if tx.dryRun {
		return res, nil
	}
	if message == "" {
		message = summary(tx.tool, res.Files)
	}
	tx.e.progress(len(changed), len(changed)+1, "write")
	if tx.e.beforeLand != nil {
		tx.e.beforeLand()
	}
	landed, err := tx.e.store.Land(ctx, gitstore.Call{Tool: tx.tool, Message: message}, changes)
	if errors.Is(err, gitstore.ErrConflict) {
		return nil, tx.changedUnder(err)
	}
	if err != nil {
		return nil, storeError(err, tx.onlyPath())
	}
	tx.e.progress(len(changed)+1, len(changed)+1, "done")
	res.Commit = landed.Commit
	tx.e.log.Debug("landed", "tool", tx.tool, "files", len(changes), "commit", landed.Commit)
	return res, nil
}

// checkSyntax parses the file before and after the call (in the languages
// graft knows) and refuses the call if it adds a syntax error, unless the
// check only warns. It returns the report for the result: nil when the
// check is off or the language unknown.
func (tx *Tx) checkSyntax(f *TxFile) (*syntax.Report, error) {
	if tx.e.opts.Check == CheckOff || f.deleted || isLink(f.Mode) {
		return nil, nil
	}
	before := f.Old
	if !f.Exists {
		before = nil
	}
	// A content's language is told by its name or its #! line (at most
	// 256 bytes long).
	if syntax.Detect(f.Rel, f.head(512)) == "" {
		return nil, nil
	}
	if f.size() >= phaseBytes {
		tx.e.phase(int64(f.size()), "check "+f.Rel)
	}
	after := f.Content()
	if !f.identity() {
		// The languages are read in their text, not in the file's bytes.
		before, after = f.oldView().Text, f.Text()
		if !f.Exists {
			before = nil
		}
	}
	rep, err := syntax.Check(f.Rel, before, after)
	if err != nil {
		tx.e.log.Debug("syntax check failed", "path", f.Rel, "err", err)
		return nil, nil
	}
	tx.e.log.Debug("syntax", "path", f.Rel, "language", rep.Language, "checked", rep.Checked, "added", rep.AddedCount)
	if rep.Language == "" {
		return nil, nil
	}
	if rep.Refuses() && tx.e.opts.Check == CheckReject {
		msg := strings.TrimPrefix(rep.String(), f.Rel+": ")
		return nil, &Error{Code: CodeSyntax, Path: f.Rel, Msg: msg + "\n(edit not applied; fix the new text. If another edit completes this one, such as a brace opened here and closed there, send both in one multi_edit or replace_in_file call. --check=warn lands it anyway)"}
	}
	return &rep, nil
}

func (tx *Tx) onlyPath() string {
	if len(tx.files) == 1 {
		return tx.files[0].Rel
	}
	return ""
}

func (f *TxFile) changed() bool {
	switch {
	case f.deleted:
		return f.Exists
	case !f.Exists:
		return f.whole
	case f.Mode != f.OldMode:
		return true
	case f.parts != nil:
		return f.size() != len(f.Old) || partsPrefix(f.Old, f.parts) != len(f.Old)
	}
	return !bytes.Equal(f.Old, f.Content())
}

// result renders a changed file's diff and statistics.
func (f *TxFile) result() FileResult {
	oldName, newName := "a/"+f.Rel, "b/"+f.Rel
	if !f.Exists {
		oldName = "/dev/null"
	}
	if f.deleted {
		newName = "/dev/null"
	}
	if !f.identity() {
		return f.textResult(oldName, newName)
	}
	if isBinary(f.Old) || isBinary(f.head(binarySniff)) {
		return FileResult{Path: f.Rel, Diff: fmt.Sprintf("Binary files %s and %s differ\n", oldName, newName),
			Replacements: f.replacements, Hunks: f.located.all(), Created: !f.Exists, Deleted: f.deleted}
	}
	var edits []lineEdit
	var ai, bi *lineindex.Index
	base := 0 // lines before the indexed windows
	if !f.whole && f.composed.Len() > 0 {
		sorted := f.composed.Changes() // sorted and checked by Step
		// Both contents are the same outside the hunks' window: only the
		// window is diffed, so that the cost follows the change, not the
		// file. Hunks far apart in a big file (a window over maxWindow)
		// are diffed on indexes of the whole contents from a few lines
		// before the first hunk.
		if ws, we := hunkWindow(f.Old, sorted); we-ws <= maxWindow {
			base = bytes.Count(f.Old[:ws], []byte("\n"))
			ai, bi, edits = windowEdits(f.Old, sorted, ws, we, base)
		} else {
			first := sorted[0].Start
			ai = lineindex.Window(f.Old, first, contextLines+1)
			regions := hunkRegionsOf(ai, sorted)
			// Once the regions are known the located changes (as many as
			// the file's lines, for a replaceAll of every line) are let go,
			// before the new content is joined and the line diff's own
			// memory comes on top of them. Land is the file's last step.
			f.composed.Reset()
			bi = lineindex.Window(f.Content(), first, contextLines+1)
			edits = regions.edits(ai, bi)
		}
	} else {
		ai, bi = lineindex.New(f.Old), lineindex.New(f.Content())
		edits = diffLines(ai, 1, ai.Count()+1, bi, 1, bi.Count()+1)
	}
	return f.resultOf(oldName, newName, ai, bi, edits, base)
}

// resultOf is a changed file's result from the line edits between its
// old and new lines (ai, bi; base lines precede them): the one way every
// result's diff, counts and line range are made, whatever view the lines
// were read through.
func (f *TxFile) resultOf(oldName, newName string, ai, bi *lineindex.Index, edits []lineEdit, base int) FileResult {
	r := FileResult{Path: f.Rel, Replacements: f.replacements, Hunks: f.located.all(), Created: !f.Exists, Deleted: f.deleted}
	d := newUnified(oldName, newName, ai, bi, edits, base)
	if f.Exists && !f.deleted && f.Mode != f.OldMode {
		d.mode = fmt.Sprintf("old mode %o\nnew mode %o\n", gitMode(f.OldMode), gitMode(f.Mode))
	}
	if f.lazyDiff > 0 && len(edits) > 0 && d.estimate() > f.lazyDiff {
		r.lazy = d
	} else {
		r.Diff = d.String()
	}
	for _, e := range edits {
		r.Additions += e.B1 - e.B0
		r.Deletions += e.A1 - e.A0
	}
	if len(edits) > 0 {
		first, last := edits[0], edits[len(edits)-1]
		r.LineRange = LineRange{Start: max(1, first.B0), End: max(first.B0, last.B1-1, 1)}
	}
	return r
}

// gitMode is the git file mode of permission bits: 100755 or 100644, or
// 120000 for a symbolic link.
func gitMode(m fs.FileMode) int {
	if isLink(m) {
		return gitLinkMode
	}
	if m&0o111 != 0 {
		return 0o100755
	}
	return 0o100644
}

// summary is the journal message of a call without a description.
func summary(tool string, files []FileResult) string {
	var names []string
	add, del := 0, 0
	for _, f := range files {
		names = append(names, f.Path)
		add += f.Additions
		del += f.Deletions
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(files)-3))
	}
	return fmt.Sprintf("%s: %s (+%d -%d)", tool, strings.Join(names, ", "), add, del)
}

// changedUnder is the error of a call whose files changed on disk between
// its read and its write (an editor or a formatter: another graft process
// waits for the lock). It names the first such file and shows what
// changed, and it carries what the call read, so that the engine can
// recompute the call against the current content (Engine.locked).
func (tx *Tx) changedUnder(cause error) error {
	e := &Error{Code: CodeConflict, Err: cause}
	reread := map[string][]byte{}
	for _, f := range tx.files {
		var read []byte
		if f.Exists {
			read = f.Old
		}
		reread[f.Rel] = read
		if e.Path != "" {
			continue
		}
		now, err := os.ReadFile(f.Abs)
		switch {
		case errors.Is(err, fs.ErrNotExist) && f.Exists:
			e.Path, e.Msg = f.Rel, "file deleted while the call ran"
		case err == nil && !f.Exists:
			e.Path, e.Msg = f.Rel, "file created while the call ran"
		case err == nil && !bytes.Equal(now, f.Old):
			ai, bi := lineindex.New(f.decode(f.Old)), lineindex.New(f.decode(now))
			edits := diffLines(ai, 1, ai.Count()+1, bi, 1, bi.Count()+1)
			e.Path = f.Rel
			e.Msg = "file changed while the call ran; read it again. What changed:\n" +
				clipLines(unified("a/"+f.Rel+" (read)", "b/"+f.Rel+" (now)", ai, bi, edits), 60)
		}
	}
	if e.Path == "" {
		e.Path, e.Msg = tx.onlyPath(), strings.TrimPrefix(cause.Error(), tx.onlyPath()+": ")
	}
	return &changedError{err: e, reread: reread}
}

// changedBytes is how many bytes the call changes in the file: those it
// removes plus those it adds, outside the common start and end.
func (f *TxFile) changedBytes() int64 {
	old := f.Old
	if !f.Exists {
		old = nil
	}
	if f.parts != nil {
		p := partsPrefix(old, f.parts)
		// The common suffix past the common prefix, without a copy of
		// the parts (one per change: 750,000 for a replaceAll of every
		// line of 60 MB) less their first p bytes.
		n := f.size()
		q := min(partsSuffix(old, f.parts), len(old)-p, n-p)
		return int64(len(old)-p-q) + int64(n-p-q)
	}
	cur := f.Content()
	p := commonPrefix(old, cur)
	q := commonSuffix(old[p:], cur[p:])
	return int64(len(old)-p-q) + int64(len(cur)-p-q)
}

// partsPrefix is commonPrefix(a, concatenation of parts). A part that is
// a's own bytes at the same place compares at once (the same memory).
func partsPrefix(a []byte, parts [][]byte) int {
	p := 0
	for _, part := range parts {
		n := commonPrefix(a[p:], part)
		p += n
		if n < len(part) {
			break
		}
	}
	return p
}

// partsSuffix is commonSuffix(a, concatenation of parts).
func partsSuffix(a []byte, parts [][]byte) int {
	q := 0
	for i := len(parts) - 1; i >= 0; i-- {
		n := commonSuffix(a[:len(a)-q], parts[i])
		q += n
		if n < len(parts[i]) {
			break
		}
	}
	return q
}

// commonPrefix is the length of the longest common prefix of a and b,
// compared a block at a time (vectorised) before the last block bytewise.
func commonPrefix(a, b []byte) int {
	const block = 4 << 10
	n := min(len(a), len(b))
	p := 0
	for p+block <= n && bytes.Equal(a[p:p+block], b[p:p+block]) {
		p += block
	}
	for p < n && a[p] == b[p] {
		p++
	}
	return p
}

// commonSuffix is the length of the longest common suffix of a and b.
func commonSuffix(a, b []byte) int {
	const block = 4 << 10
	n := min(len(a), len(b))
	q := 0
	for q+block <= n && bytes.Equal(a[len(a)-q-block:len(a)-q], b[len(b)-q-block:len(b)-q]) {
		q += block
	}
	for q < n && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return q
}

// sizeOf writes a byte count for people: "64 MiB", "1.5 KiB", "300 bytes".
func sizeOf(n int64) string {
	switch {
	case n >= 1<<30:
		return strconv.FormatFloat(float64(n)/(1<<30), 'f', -1, 64) + " GiB"
	case n >= 1<<20:
		return strconv.FormatFloat(float64(int64(float64(n)/(1<<20)*10))/10, 'f', -1, 64) + " MiB"
	case n >= 1<<10:
		return strconv.FormatFloat(float64(int64(float64(n)/(1<<10)*10))/10, 'f', -1, 64) + " KiB"
	}
	return strconv.FormatInt(n, 10) + " bytes"
}
