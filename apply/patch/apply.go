package patch

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/graftdev/graft/internal/textedit"
)

// Source reads the files a patch applies to.
type Source interface {
	// ReadFile returns the content of the file at the slash-separated
	// path, or an error matching fs.ErrNotExist when there is none.
	ReadFile(path string) ([]byte, error)
}

// Options tune Apply. The zero value locates with every fuzzy tier and the
// matcher's default budget.
type Options struct {
	// ExactOnly turns the fuzzy tiers off: a hunk lands only where its
	// lines are, byte for byte (line endings aside).
	ExactOnly bool
	// Budget is the matcher's work budget per hunk (0 = its default).
	Budget int
	// MaxBinaryBytes bounds the size of a binary fragment's data (0 = 64 MiB).
	MaxBinaryBytes int64
}

// Change is the final state of one path after the whole patch.
type Change struct {
	Path string
	// Old is the content before the patch (nil: the file did not exist);
	// New the content after it (nil: the file is deleted).
	Old, New []byte
	// Mode is the git mode the patch gives the file (0o100644, 0o100755),
	// or 0 to keep the file's own.
	Mode fs.FileMode
	// Binary is set when a binary patch produced New.
	Binary bool
	// Steps, for a text file changed in place, are the edits that turn Old
	// into New: each step's edits refer to the content the steps before it
	// left (one step per file section, or per SEARCH/REPLACE block), in
	// order and not overlapping. Nil when a whole-file operation (creation,
	// deletion, rename, copy, binary data) gave the path its content.
	Steps [][]textedit.Change
}

// FileReport says what the patch did for one of its file sections.
type FileReport struct {
	// OldPath and NewPath are the paths actually used ("" for a created or
	// deleted file; different for a rename or copy).
	OldPath, NewPath string
	Hunks            []textedit.Location
	// Unchanged are where the blocks that change nothing stood
	// (Hunk.Unchanged).
	Unchanged []textedit.Location
}

// Result is what applying a patch produces: the changes to write and
// where each hunk landed. Nothing has been written.
type Result struct {
	Changes []Change
	Files   []FileReport
}

type fileState struct {
	path       string
	orig, cur  []byte
	origExists bool
	exists     bool
	// written is set once a section has given the path content; a rename
	// away from a path deletes it only if no section writes it (two files
	// may swap names).
	written, renamedAway bool
	mode                 fs.FileMode
	binary               bool
	// steps are the text edits that made cur from orig, in order, unless
	// whole: a whole-file operation (creation, deletion, rename or copy
	// onto it, binary data) gave it content.
	steps [][]textedit.Change
	whole bool
}

type applier struct {
	src     Source
	opt     Options
	format  Format
	files   map[string]*fileState
	order   []*fileState
	vacated map[string]bool // paths the patch renames away or deletes
}

// Apply locates every hunk of p in the files it reads through src and
// works out each path's change: for a text file changed in place, the
// located hunks as byte edits (Change.Steps, which the caller lands as its
// own edits) and the content they leave; for a whole-file operation, the
// new content. It writes nothing. All files' sections are located before
// anything is returned, so that either every change is in the Result or
// none is.
//
// Sections apply in order, as git apply does: a section that changes a
// file in place sees what earlier sections made of it (a patch may list
// one file twice); a rename or copy reads its source as it was before the
// patch, and may target a path that another section renames away or
// deletes (two files may swap names).
//
// The error is Failures listing every section and hunk that failed: each an
// *failure matching ErrNoFile, ErrExists, ErrConflict, ErrAmbiguous or
// ErrMalformed, naming the file and hunk. An I/O error of src other than
// fs.ErrNotExist is returned as it is.
func Apply(p *Patch, src Source, opt Options) (*Result, error) {
	a := &applier{src: src, opt: opt, format: p.Format, files: map[string]*fileState{}, vacated: map[string]bool{}}
	for _, fp := range p.Files {
		if fp.IsRename || fp.IsDelete {
			a.vacated[fp.OldPath] = true
		}
	}
	res := &Result{}
	var fails []*failure
	for _, fp := range p.Files {
		rep, errs, err := a.file(fp)
		if err != nil {
			return nil, err
		}
		for _, e := range errs {
			if e.Path == "" {
				e.Path = fp.Name()
			}
		}
		fails = append(fails, errs...)
		if rep != nil {
			res.Files = append(res.Files, *rep)
		}
	}
	if len(fails) > 0 {
		return nil, errOf(fails)
	}
	for _, s := range a.order {
		if s.renamedAway && !s.written {
			s.cur, s.exists = nil, false
		}
		if s.origExists == s.exists && bytes.Equal(s.orig, s.cur) && s.mode == 0 {
			continue
		}
		c := Change{Path: s.path, Mode: s.mode, Binary: s.binary}
		if s.origExists {
			c.Old = s.orig
		}
		if s.exists {
			c.New = s.cur
			if c.New == nil {
				c.New = []byte{}
			}
			if s.origExists && !s.whole {
				c.Steps = s.steps
			}
		}
		res.Changes = append(res.Changes, c)
	}
	if len(res.Changes) == 0 {
		return nil, errOf([]*failure{{Kind: ErrMalformed, Reason: "the patch changes nothing: every file already has the content it leaves"}})
	}
	return res, nil
}

// state returns the tracked state of path, reading it on first use.
func (a *applier) state(path string) (*fileState, error) {
	if s, ok := a.files[path]; ok {
		return s, nil
	}
	s := &fileState{path: path}
	content, err := a.src.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		s.orig, s.cur, s.origExists, s.exists = content, content, true, true
	}
	a.files[path] = s
	a.order = append(a.order, s)
	return s, nil
}

// present reports whether a section can read s: as it is now for a change
// in place, as it was before the patch for a rename or copy.
func present(s *fileState, inPlace bool) bool {
	if inPlace || !s.origExists {
		return s.exists
	}
	return true
}

// resolve finds the existing file a section changes: OldPath, else the
// only existing one of its AltPaths.
func (a *applier) resolve(fp *FilePatch, inPlace bool) (*fileState, *failure, error) {
	s, err := a.state(fp.OldPath)
	if err != nil || present(s, inPlace) {
		return s, nil, err
	}
	var found []*fileState
	for _, alt := range fp.AltPaths {
		t, err := a.state(alt)
		if err != nil {
			return nil, nil, err
		}
		if present(t, inPlace) {
			found = append(found, t)
		}
	}
	if len(found) == 1 {
		return found[0], nil, nil
	}
	e := &failure{Kind: ErrNoFile, Path: fp.OldPath, PatchLine: fp.Line}
	if len(found) > 1 {
		e.Reason = fmt.Sprintf("but %s and %s both exist: give the path without ambiguity", found[0].path, found[1].path)
	}
	return nil, e, nil
}

// target checks that path can be created by a section: no earlier section
// wrote it, and it did not exist unless the patch renames it away or
// deletes it.
func (a *applier) target(path string, fp *FilePatch, why string) (*fileState, *failure, error) {
	t, err := a.state(path)
	if err != nil {
		return nil, nil, err
	}
	if t.written && t.exists || t.origExists && !a.vacated[path] && !t.written && !emptyCreate(fp, t) {
		return nil, &failure{Kind: ErrExists, Path: path, PatchLine: fp.Line, Reason: why}, nil
	}
	return t, nil, nil
}

// emptyCreate reports whether section fp creates the file t that exists
// and is empty (an editor or `touch` made it, a model writes it): there is
// nothing in it to lose or to tell apart, so the section writes into it.
// A file with any content is refused, as git apply refuses it.
func emptyCreate(fp *FilePatch, t *fileState) bool {
	return fp.IsNew && !fp.IsRename && !fp.IsCopy && fp.Binary == nil && t.exists && len(t.cur) == 0
}

// file applies one section. Failures come back as errs; err is an I/O
// error of the source.
func (a *applier) file(fp *FilePatch) (*FileReport, []*failure, error) {
	mode := fp.NewMode
	if fp.OldMode != 0 && fp.OldMode == fp.NewMode {
		mode = 0
	}
	if fp.IsNew {
		t, e, err := a.target(fp.NewPath, fp, "the patch creates it")
		if err != nil || e != nil {
			return nil, errsOf(e), err
		}
		out, places, _, errs := a.content(fp, &fileState{path: fp.NewPath})
		if len(errs) > 0 {
			return nil, errs, nil
		}
		t.cur, t.exists, t.written, t.binary, t.mode, t.whole = out, true, true, fp.Binary != nil, mode, true
		return report(fp, "", t.path, places), nil, nil
	}
	inPlace := !fp.IsRename && !fp.IsCopy
	s, e, err := a.resolve(fp, inPlace)
	if err != nil || e != nil {
		return nil, errsOf(e), err
	}
	base := s
	if !inPlace && s.origExists {
		base = &fileState{path: s.path, cur: s.orig, exists: true}
	}
	out, places, steps, errs := a.content(fp, base)
	if len(errs) > 0 {
		return nil, errs, nil
	}
	rep := report(fp, s.path, s.path, places)
	switch {
	case fp.IsDelete:
		if len(out) > 0 && (len(fp.Hunks) > 0 || (a.format == Unified && fp.Binary == nil)) {
			return nil, []*failure{{Kind: ErrConflict, Path: s.path, PatchLine: fp.Line,
				Reason: fmt.Sprintf("the patch deletes the file, but %d bytes would remain that the patch does not list", len(out))}}, nil
		}
		s.cur, s.exists, s.written, s.mode, s.whole = nil, false, false, 0, true
		rep.NewPath = ""
	case !inPlace && fp.NewPath != s.path:
		t, e, err := a.target(fp.NewPath, fp, fmt.Sprintf("the patch renames or copies %s to it", s.path))
		if err != nil || e != nil {
			return nil, errsOf(e), err
		}
		if fp.IsRename {
			s.renamedAway = true
		}
		t.cur, t.exists, t.written, t.binary, t.whole = out, true, true, fp.Binary != nil, true
		t.mode = mode
		if mode == 0 && fp.OldMode == 0 {
			t.mode = s.mode
		}
		rep.NewPath = t.path
	default:
		s.cur, s.exists, s.written = out, true, true
		s.steps = append(s.steps, steps...)
		s.whole = s.whole || fp.Binary != nil
		s.binary = s.binary || fp.Binary != nil
		if mode != 0 {
			s.mode = mode
		}
	}
	return rep, nil, nil
}

// content applies a section's hunks or binary data to s's content.
// The steps are the edits that turn s's content into out (nil for binary
// data).
func (a *applier) content(fp *FilePatch, s *fileState) ([]byte, []textedit.Location, [][]textedit.Change, []*failure) {
	var (
		out    []byte
		places []textedit.Location
		steps  [][]textedit.Change
		errs   []*failure
	)
	if fp.Binary != nil {
		var e *failure
		out, e = a.binary(fp, s)
		errs = errsOf(e)
	} else {
		out, places, steps, errs = applyHunks(s.cur, fp, a.opt)
	}
	for _, e := range errs {
		e.Path = s.path
	}
	return out, places, steps, errs
}

// report is a section's FileReport, the places of its unchanged blocks
// apart.
func report(fp *FilePatch, oldPath, newPath string, places []textedit.Location) *FileReport {
	rep := &FileReport{OldPath: oldPath, NewPath: newPath}
	for i, p := range places {
		if i < len(fp.Hunks) && fp.Hunks[i].Unchanged {
			rep.Unchanged = append(rep.Unchanged, p)
		} else {
			rep.Hunks = append(rep.Hunks, p)
		}
	}
	return rep
}

func errsOf(e *failure) []*failure {
	if e == nil {
		return nil
	}
	return []*failure{e}
}

// binary applies a git binary patch with go-gitdiff: a literal fragment
// replaces the content, a delta fragment is checked against it.
func (a *applier) binary(fp *FilePatch, s *fileState) ([]byte, *failure) {
	limit := a.opt.MaxBinaryBytes
	if limit <= 0 {
		limit = 64 << 20
	}
	var out bytes.Buffer
	err := gitdiff.Apply(&out, bytes.NewReader(s.cur), fp.Binary, gitdiff.WithMaxBinaryFragmentBytes(limit))
	if err != nil {
		kind := ErrMalformed
		if errors.Is(err, &gitdiff.Conflict{}) {
			kind = ErrConflict
		}
		return nil, &failure{Kind: kind, Path: s.path, PatchLine: fp.Line, Reason: "binary patch: " + err.Error(), Err: err}
	}
	return out.Bytes(), nil
}

// applyHunks locates the hunks of one section in content and returns the
// content after them, where they landed, and the edits that make it: one
// step per hunk for SEARCH/REPLACE blocks (each applies to the result of
// the one before), else one step of every hunk, all located in content.
func applyHunks(content []byte, fp *FilePatch, opt Options) ([]byte, []textedit.Location, [][]textedit.Change, []*failure) {
	if len(fp.Hunks) == 0 {
		return content, nil, nil, nil
	}
	if fp.Sequential {
		var (
			places []textedit.Location
			steps  [][]textedit.Change
		)
		for i, h := range fp.Hunks {
			l, err := locate(content, h, i+1, 0, 0, true, opt)
			if err != nil {
				return nil, nil, nil, []*failure{err}
			}
			if h.Unchanged {
				places = append(places, l.place)
				continue
			}
			e := l.edit(content)
			next, serr := textedit.Splice(content, []textedit.Change{e})
			if serr != nil {
				return nil, nil, nil, []*failure{{Kind: ErrConflict, Hunk: i + 1, Reason: serr.Error()}}
			}
			content = next
			places = append(places, l.place)
			steps = append(steps, []textedit.Change{e})
		}
		return content, places, steps, nil
	}
	order := make([]int, len(fp.Hunks))
	for i := range order {
		order[i] = i
	}
	if allPositioned(fp.Hunks) {
		slices.SortStableFunc(order, func(x, y int) int { return fp.Hunks[x].OldStart - fp.Hunks[y].OldStart })
	}
	var (
		edits  []textedit.Change
		hunkOf []int // the hunk index of each edit
		errs   []*failure
	)
	places := make([]textedit.Location, len(fp.Hunks))
	lo, loLine := 0, 0
	for _, i := range order {
		h := fp.Hunks[i]
		l, err := locate(content, h, i+1, lo, loLine, false, opt)
		if err != nil && lo > 0 && errors.Is(err, ErrConflict) && !h.AtEOF {
			// Not after the previous hunk: listed out of order, it lands
			// where it stands once in the whole file, on lines no other
			// hunk took (doc.go, "Location").
			l2, err2 := locate(content, h, i+1, 0, 0, false, opt)
			switch {
			case err2 != nil:
				err = err2
			case overlaps(l2, edits):
				err.Reason += fmt.Sprintf("; in the whole file they stand once, at lines %d-%d, among the lines another hunk changes",
					l2.place.Line, l2.place.EndLine)
			default:
				l, err = l2, nil
			}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if h.Unchanged {
			places[i] = l.place
			continue
		}
		edits = append(edits, l.edit(content))
		hunkOf = append(hunkOf, i)
		places[i] = l.place
		if l.end >= lo {
			lo, loLine = l.end, l.first+l.lines
		}
	}
	if len(errs) > 0 {
		return nil, nil, nil, errs
	}
	// In the patch's order, as a result lists them (Splice orders them by
	// place).
	byHunk := make([]*textedit.Change, len(fp.Hunks))
	for k, i := range hunkOf {
		byHunk[i] = &edits[k]
	}
	ordered := make([]textedit.Change, 0, len(edits))
	for _, c := range byHunk {
		if c != nil {
			ordered = append(ordered, *c)
		}
	}
	edits = ordered
	out, err := textedit.Splice(content, edits)
	if err != nil {
		return nil, nil, nil, []*failure{{Kind: ErrConflict, Reason: err.Error()}}
	}
	return out, places, [][]textedit.Change{edits}, nil
}

// overlaps reports whether l's block shares a line with an edit's block
// (an insertion touching a block at either end does not).
func overlaps(l *located, edits []textedit.Change) bool {
	for _, e := range edits {
		if l.start < e.End && e.Start < l.end || l.start == l.end && e.Start < l.start && l.start < e.End ||
			e.Start == e.End && l.start < e.Start && e.Start < l.end || l.start == e.Start && l.end == e.End {
			return true
		}
	}
	return false
}

func allPositioned(hs []*Hunk) bool {
	for _, h := range hs {
		if !h.HasPos {
			return false
		}
	}
	return true
}
