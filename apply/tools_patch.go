package apply

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/graftdev/graft/apply/patch"
)

func init() {
	Register(NewTool("apply_patch", applyPatchDescription, runApplyPatch))
}

const applyPatchDescription = `Apply a patch to one or more files, all or none: a unified or git diff (new, deleted, renamed files
too), a "*** Begin Patch" envelope, or SEARCH/REPLACE blocks; the format is detected. Hunks are
located by their context and removed lines, so stale line numbers are fine; a hunk that fits nowhere
or in several places is refused with the nearest candidates.`

// ApplyPatchRequest is the input of the apply_patch tool.
type ApplyPatchRequest struct {
	Patch   string `json:"patch" jsonschema:"the patch text"`
	Reverse bool   `json:"reverse,omitempty" jsonschema:"apply the patch in reverse (undo it)"`
	Common
}

// ApplyPatchResult is the output of apply_patch: the common landing plus
// the format the patch was read as.
type ApplyPatchResult struct {
	Landing
	Format string `json:"format"`
}

func runApplyPatch(ctx context.Context, e *Engine, req *ApplyPatchRequest) (*ApplyPatchResult, error) {
	if strings.TrimSpace(req.Patch) == "" {
		return nil, invalidf("", "", "patch is empty")
	}
	p, err := patch.Parse(req.Patch)
	if err != nil {
		return nil, patchError(err)
	}
	if req.Reverse {
		if p, err = patch.Reverse(p); err != nil {
			return nil, patchError(err)
		}
	}
	for _, fp := range p.Files {
		if fp.OldMode == gitLinkMode {
			return nil, invalidf(fp.OldPath, "", "the patch changes a symbolic link (old mode 120000), which graft does not do: change it with git")
		}
	}
	tx := e.Begin("apply_patch", req.DryRun)
	if req.Version != "" {
		if err := carryHunks(tx, p, req.Version); err != nil {
			return nil, err
		}
	}
	src := &txSource{tx: tx, files: map[string]*TxFile{}, binary: binaryPaths(p), total: len(p.Files)}
	res, err := patch.Apply(p, src, patch.Options{ExactOnly: e.opts.ExactMatch})
	if err != nil {
		return nil, patchError(err)
	}
	located := map[string][]Located{}
	for _, f := range res.Files {
		name := f.NewPath
		if name == "" {
			name = f.OldPath
		}
		for _, h := range f.Hunks {
			located[name] = append(located[name], Located{Edit: fmt.Sprintf("hunk %d", h.Hunk),
				Line: h.Line, EndLine: h.EndLine, Method: h.String(), Similarity: h.Similarity})
		}
	}
	for _, c := range res.Changes {
		f := src.files[c.Path]
		if f == nil {
			return nil, &Error{Code: CodeInternal, Path: c.Path, Msg: "patch changed a file it did not read"}
		}
		if c.New == nil {
			f.Delete()
			continue
		}
		if c.Mode != 0 {
			f.Mode = c.Mode.Perm()
		}
		if c.Mode == gitLinkMode {
			f.Mode = linkMode
		}
		if err := landChange(f, c, located[c.Path]); err != nil {
			return nil, err
		}
		if isLink(f.Mode) {
			if err := tx.checkLink(f, ""); err != nil {
				return nil, err
			}
		}
	}
	l, err := tx.Land(ctx, "")
	if err != nil {
		return nil, err
	}
	return &ApplyPatchResult{Landing: *l, Format: string(p.Format)}, nil
}

// landChange gives f the patch's change: a text file changed in place
// takes the located hunks as Hunk values, the way edits land (all at once
// against the content the call began with, or step by step for
// SEARCH/REPLACE blocks and files a patch names twice); a whole-file
// operation (creation, rename or copy onto the path, binary data, a mode
// alone) takes the new content.
func landChange(f *TxFile, c patch.Change, located []Located) error {
	if c.Steps == nil || !f.Exists || f.Cur == nil || len(f.hunks) > 0 || !f.singlePass {
		f.Replace(c.New, located, len(located))
		return nil
	}
	if len(c.Steps) == 1 {
		return f.ApplyHunks(patchHunks(c.Steps[0]), located, len(located))
	}
	cur := f.Old
	for _, st := range c.Steps {
		out, err := Apply(cur, patchHunks(st))
		if err != nil {
			return withPath(err, f.Rel)
		}
		cur = out
	}
	f.Replace(cur, located, len(located))
	return nil
}

// patchHunks are a step's located patch hunks as the engine's Hunk values.
func patchHunks(st []patch.Edit) []Hunk {
	hs := make([]Hunk, len(st))
	for i, e := range st {
		hs[i] = Hunk{Start: e.Start, End: e.End, New: e.New, Edit: fmt.Sprintf("hunk %d", e.Place.Hunk),
			Desc: lineDesc(e.Place.Line, max(e.Place.Line, e.Place.EndLine))}
	}
	return hs
}

// carryHunks relates a patch of one existing file to the version of it
// that was read (the blob id file_read returned), as the other tools do:
// when the file changed since, each hunk's stated line is carried to the
// current content through the changes, and a hunk whose lines were
// touched is a conflict that shows what changed. The hunks are then
// located as always (at the carried line, else by their context), so a
// stated line never picks one of two identical places on the strength of
// numbers that meant another content.
func carryHunks(tx *Tx, p *patch.Patch, version string) error {
	if len(p.Files) != 1 || p.Files[0].IsNew || p.Files[0].OldPath == "" || p.Files[0].Binary != nil {
		return invalidf("", "", "version can only be checked for a patch that changes one existing text file")
	}
	fp := p.Files[0]
	f, err := tx.Open(fp.OldPath, "", false)
	if err != nil {
		return err
	}
	sv, err := tx.since(f, version, "")
	if err != nil || sv == nil {
		return err
	}
	for i, h := range fp.Hunks {
		if !h.HasPos || h.AtEOF {
			continue // located by its context alone, or at the end
		}
		edit := fmt.Sprintf("hunk %d", i+1)
		old := len(h.OldLines())
		// The hunk's old lines start at line OldStart, or after it when the
		// header counts no old lines (see patch.Hunk).
		start := h.OldStart
		if h.HeaderOld == 0 {
			start++
		}
		var first int
		if old == 0 {
			// Only added lines: they go after line start-1 (0 = the top).
			if first, err = sv.after(start-1, edit); err != nil {
				return err
			}
			first++
		} else if first, _, err = sv.lines(start, start+old-1, edit); err != nil {
			return err
		}
		d := first - start
		h.OldStart += d
		h.NewStart += d
	}
	return nil
}

// txSource lets the patch read files through the transaction, so that
// every path is checked (inside the worktree, not in the git directory)
// before a byte is read. Files a binary patch changes may be binary.
type txSource struct {
	tx     *Tx
	files  map[string]*TxFile
	binary map[string]bool
	total  int // the patch's files, for progress
}

// ReadFile reads a file the patch changes. The patch locates its hunks in
// each file right after reading it, so this is where progress is told: a
// patch of several files counts them, and a big file's search is a phase.
func (s *txSource) ReadFile(path string) ([]byte, error) {
	if _, seen := s.files[path]; !seen && s.total > 1 {
		s.tx.e.progress(min(len(s.files), s.total-1), s.total, "patch "+path)
	}
	f, err := s.tx.Open(path, "", true)
	if CodeOf(err) == CodeBinary && s.binary[path] {
		f, err = s.tx.OpenBinary(path, "", true)
	}
	if err != nil {
		return nil, err
	}
	s.files[path] = f
	if !f.Exists && f.Cur == nil {
		return nil, fs.ErrNotExist
	}
	s.tx.e.phase(int64(f.size()), "locate in "+f.Rel)
	return f.Content(), nil
}

func binaryPaths(p *patch.Patch) map[string]bool {
	m := map[string]bool{}
	for _, f := range p.Files {
		if f.Binary != nil {
			m[f.OldPath], m[f.NewPath] = true, true
			for _, a := range f.AltPaths {
				m[a] = true
			}
		}
	}
	return m
}

// patchError maps the patch package's errors to the engine's codes:
// malformed → CodeInvalid, missing file → CodeFileNotFound, does not fit
// or already exists → CodeConflict, several places → CodeAmbiguous. Every
// failure of the patch is in the message; the first names path and hunk.
func patchError(err error) error {
	var pe *patch.Error
	if !errors.As(err, &pe) {
		return err // already an *Error of the engine (path checks, I/O)
	}
	e := &Error{Path: pe.Path, Candidates: pe.Candidates, Count: pe.Count, Err: err}
	if pe.Hunk > 0 {
		e.Edit = fmt.Sprintf("hunk %d", pe.Hunk)
	}
	switch {
	case errors.Is(pe, patch.ErrMalformed):
		e.Code = CodeInvalid
	case errors.Is(pe, patch.ErrNoFile):
		e.Code = CodeFileNotFound
	case errors.Is(pe, patch.ErrAmbiguous):
		e.Code = CodeAmbiguous
	default:
		e.Code = CodeConflict
	}
	e.Msg = pe.Detail()
	var all patch.Failures
	if errors.As(err, &all) && len(all) > 1 {
		var more []string
		for _, o := range all[1:] {
			more = append(more, strings.TrimPrefix(o.Error(), "patch: "))
		}
		e.Msg += fmt.Sprintf(" (and %d more: %s)", len(more), strings.Join(more, "; "))
	}
	return e
}
