package patch

import (
	"slices"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// Reverse returns the patch that undoes p (git apply --reverse): added and
// deleted lines swap, so do old and new paths, modes and line numbers;
// created files become deleted ones and the reverse. SEARCH/REPLACE blocks
// are undone last first. p is not modified.
//
// The error is a *textedit.Error matching ErrMalformed for what cannot be undone from
// the patch alone: a deletion that does not list the deleted content (a
// Codex *** Delete File), a copy, or a binary patch without its reverse
// fragment.
func Reverse(p *Patch) (_ *Patch, err error) {
	defer func() { err = exported(err) }()
	out := &Patch{Format: p.Format}
	for _, fp := range p.Files {
		r := &FilePatch{
			OldPath: fp.NewPath, NewPath: fp.OldPath,
			IsNew: fp.IsDelete, IsDelete: fp.IsNew, IsRename: fp.IsRename,
			OldMode: fp.NewMode, NewMode: fp.OldMode,
			Sequential: fp.Sequential, Line: fp.Line,
		}
		switch {
		case fp.IsCopy:
			return nil, &failure{Kind: ErrMalformed, Path: fp.Name(), PatchLine: fp.Line, Reason: "a copy cannot be reversed: delete the copy instead"}
		case fp.IsDelete && len(fp.Hunks) == 0 && fp.Binary == nil && p.Format != Unified:
			return nil, &failure{Kind: ErrMalformed, Path: fp.Name(), PatchLine: fp.Line, Reason: "the patch deletes the file without listing its content, so it cannot be reversed"}
		}
		if fp.Binary != nil {
			if fp.Binary.ReverseBinaryFragment == nil {
				return nil, &failure{Kind: ErrMalformed, Path: fp.Name(), PatchLine: fp.Line, Reason: "the binary patch has no reverse fragment"}
			}
			b := *fp.Binary
			b.OldName, b.NewName = fp.Binary.NewName, fp.Binary.OldName
			b.IsNew, b.IsDelete = fp.Binary.IsDelete, fp.Binary.IsNew
			b.OldMode, b.NewMode = fp.Binary.NewMode, fp.Binary.OldMode
			b.BinaryFragment, b.ReverseBinaryFragment = fp.Binary.ReverseBinaryFragment, fp.Binary.BinaryFragment
			r.Binary = &gitdiff.File{}
			*r.Binary = b
		}
		for _, h := range fp.Hunks {
			rh := *h
			rh.OldStart, rh.NewStart = h.NewStart, h.OldStart
			rh.HeaderOld, rh.HeaderNew = h.HeaderNew, h.HeaderOld
			rh.Lines = make([]Line, len(h.Lines))
			for i, l := range h.Lines {
				switch l.Op {
				case Add:
					l.Op = Delete
				case Delete:
					l.Op = Add
				}
				rh.Lines[i] = l
			}
			rh.Lines = deletionsFirst(rh.Lines)
			r.Hunks = append(r.Hunks, &rh)
		}
		if fp.Sequential {
			slices.Reverse(r.Hunks)
		}
		if r.IsNew {
			r.OldPath = ""
		}
		if r.IsDelete {
			r.NewPath = ""
		}
		if r.OldPath != "" && len(fp.AltPaths) > 0 && fp.OldPath == fp.NewPath {
			r.AltPaths = fp.AltPaths
		}
		out.Files = append(out.Files, r)
	}
	slices.Reverse(out.Files) // a later section may build on an earlier one
	return out, nil
}

// deletionsFirst reorders each run of changed lines so that its deletions
// come before its additions, as a diff writes them.
func deletionsFirst(ls []Line) []Line {
	out := make([]Line, 0, len(ls))
	for i := 0; i < len(ls); {
		if ls[i].Op == Context {
			out = append(out, ls[i])
			i++
			continue
		}
		j := i
		for j < len(ls) && ls[j].Op != Context {
			j++
		}
		for _, l := range ls[i:j] {
			if l.Op == Delete {
				out = append(out, l)
			}
		}
		for _, l := range ls[i:j] {
			if l.Op == Add {
				out = append(out, l)
			}
		}
		i = j
	}
	return out
}
