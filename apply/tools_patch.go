package apply

import (
	"context"
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

// ApplyPatchRequest is the input of the apply_patch tool: a patch text,
// or the operations of OpenAI's Responses API apply_patch tool call as
// the API emits them (operation, or operations; the item's call_id, id,
// status and type are accepted, and call_id is echoed).
type ApplyPatchRequest struct {
	Patch   string `json:"patch,omitempty" jsonschema:"the patch text"`
	Reverse bool   `json:"reverse,omitempty" jsonschema:"apply the patch in reverse (undo it)"`
	// Operation and Operations are the Responses API's apply_patch call.
	Operation  *PatchOperation  `json:"operation,omitempty" jsonschema:"instead of patch: one Responses API operation"`
	Operations []PatchOperation `json:"operations,omitempty" jsonschema:"instead of patch: Responses API operations, all or none"`
	CallID     string           `json:"call_id,omitempty" jsonschema:"the Responses API call's id, echoed in call_outputs"`
	ID         string           `json:"id,omitempty" jsonschema:"the Responses API item id (accepted, unused)"`
	Status     string           `json:"status,omitempty" jsonschema:"the Responses API item status (accepted, unused)"`
	Type       string           `json:"type,omitempty" jsonschema:"the Responses API item type (accepted, unused)"`
	Common
}

// PatchOperation is one operation of a Responses API apply_patch call:
// create_file (diff: the new file's lines, each starting with +),
// update_file (diff: V4A hunks, "@@" context lines without line numbers)
// or delete_file (no diff).
type PatchOperation struct {
	Type string `json:"type" jsonschema:"create_file, update_file or delete_file"`
	Path string `json:"path" jsonschema:"the file"`
	Diff string `json:"diff,omitempty" jsonschema:"create_file and update_file: the V4A diff"`
}

// ApplyPatchResult is the output of apply_patch: the common landing plus
// the format the patch was read as, and for a Responses API call the
// outputs the API expects back, one per operation.
type ApplyPatchResult struct {
	Landing
	Format      string            `json:"format"`
	CallOutputs []PatchCallOutput `json:"call_outputs,omitempty"`
}

// PatchCallOutput is what the Responses API expects back for an
// apply_patch operation (an apply_patch_call_output item). A refused call
// is an error, not a result: its message is the failed output.
type PatchCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id,omitempty"`
	Status string `json:"status"`
	Output string `json:"output"`
}

func runApplyPatch(ctx context.Context, e *Engine, req *ApplyPatchRequest) (*ApplyPatchResult, error) {
	ops := req.Operations
	if req.Operation != nil {
		ops = append([]PatchOperation{*req.Operation}, ops...)
	}
	if len(ops) > 0 {
		if req.Patch != "" {
			return nil, invalidf("", "", "give patch or operation(s), not both")
		}
		envelope, err := envelopeOf(ops)
		if err != nil {
			return nil, err
		}
		req.Patch = envelope
	}
	if strings.TrimSpace(req.Patch) == "" {
		return nil, invalidf("", "", "patch is empty")
	}
	p, err := patch.Parse(req.Patch)
	if err != nil {
		return nil, err
	}
	if req.Reverse {
		if p, err = patch.Reverse(p); err != nil {
			return nil, err
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
		return nil, err
	}
	located := map[string][]Located{}
	for _, f := range res.Files {
		name := f.NewPath
		if name == "" {
			name = f.OldPath
		}
		located[name] = append(located[name], f.Hunks...)
		for _, u := range f.Unchanged {
			tx.unchanged = append(tx.unchanged, Unchanged{Edit: u.Edit, Path: name, Line: u.Line, EndLine: u.EndLine, Note: unchangedNote})
		}
	}
	// A rename or copy keeps its source's encoding (encoding.go).
	for _, fr := range res.Files {
		if fr.OldPath != "" && fr.NewPath != "" && fr.OldPath != fr.NewPath && src.files[fr.NewPath] != nil {
			src.files[fr.NewPath].inheritEncoding(src.files[fr.OldPath])
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
	out := &ApplyPatchResult{Landing: *l, Format: string(p.Format)}
	for _, op := range ops {
		verb := map[string]string{"create_file": "Created", "update_file": "Updated", "delete_file": "Deleted"}[op.Type]
		out.CallOutputs = append(out.CallOutputs, PatchCallOutput{Type: "apply_patch_call_output", CallID: req.CallID,
			Status: "completed", Output: fmt.Sprintf("%s %s", verb, op.Path)})
	}
	return out, nil
}

// envelopeOf writes Responses API operations as the Codex envelope they
// are (V4A is the envelope's hunk notation), so that they are parsed and
// located by the one engine like any envelope.
func envelopeOf(ops []PatchOperation) (string, error) {
	var b strings.Builder
	b.WriteString("*** Begin Patch\n")
	for i, op := range ops {
		edit := fmt.Sprintf("operations[%d]", i)
		if strings.TrimSpace(op.Path) == "" || strings.ContainsAny(op.Path, "\n\r") {
			return "", invalidf("", edit, "path is required (one line)")
		}
		diff := strings.TrimSuffix(strings.ReplaceAll(op.Diff, "\r\n", "\n"), "\n")
		switch op.Type {
		case "create_file":
			fmt.Fprintf(&b, "*** Add File: %s\n", op.Path)
			if diff == "" {
				continue
			}
			for _, l := range strings.Split(diff, "\n") {
				// Every line of a created file is added; a line sent
				// without its + is taken as it is.
				if !strings.HasPrefix(l, "+") {
					l = "+" + l
				}
				b.WriteString(l + "\n")
			}
		case "update_file":
			if diff == "" {
				return "", invalidf(op.Path, edit, "update_file needs a diff")
			}
			fmt.Fprintf(&b, "*** Update File: %s\n%s\n", op.Path, diff)
		case "delete_file":
			fmt.Fprintf(&b, "*** Delete File: %s\n", op.Path)
		case "":
			return "", invalidf(op.Path, edit, "type is required (create_file, update_file, delete_file)")
		default:
			return "", invalidf(op.Path, edit, "unknown type %q (create_file, update_file, delete_file)", op.Type)
		}
	}
	b.WriteString("*** End Patch\n")
	return b.String(), nil
}

// landChange gives f the patch's change: a text file changed in place
// takes the located hunks, step by step (one step for most patches; one
// per SEARCH/REPLACE block, or per section of a file a patch names
// twice), as every format's changes land; a whole-file operation
// (creation, rename or copy onto the path, binary data) takes the new
// content.
func landChange(f *TxFile, c patch.Change, located []Located) error {
	if c.Steps == nil || f.Missing() || f.stepped() {
		f.SetContent(c.New, located...)
		return nil
	}
	for _, st := range c.Steps {
		if err := f.Step(st); err != nil {
			return err
		}
	}
	return nil
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
	f.AsJSON()
	if f.Missing() {
		return nil, fs.ErrNotExist
	}
	s.tx.e.phase(int64(f.size()), "locate in "+f.Rel)
	return f.Text(), nil
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
