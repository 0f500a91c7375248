package apply

import (
	"context"

	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/apply/snippet"
	"github.com/graftdev/graft/matcher"
)

func init() {
	Register(NewTool("edit_file", editFileDescription, runEditFile))
}

const editFileDescription = `Edit a file by sending its changed regions with unchanged parts elided by marker lines in the file's
comment syntax ("// ... existing code ...", "# ... existing code ..."). Each region starts and ends
with a few unchanged lines that anchor it; the lines between become the region's lines. No marker at
the start (end) means the snippet starts (ends) where the file does; no marker at all replaces the
whole file, allowed for a new file or with overwrite. A region whose anchors stand nowhere or twice,
or that would delete lines you did not show, is refused with the reason; a line or two it drops
unshown is named in a warning: to keep them, undo and add a marker.`

// EditFileRequest is the input of edit_file (the Cursor/Morph convention).
type EditFileRequest struct {
	TargetFile   string `json:"target_file" jsonschema:"the file to edit"`
	Instructions string `json:"instructions,omitempty" jsonschema:"one line describing the edit; it becomes the journal commit's message"`
	CodeEdit     string `json:"code_edit" jsonschema:"the changed regions, unchanged parts elided by '// ... existing code ...' marker lines"`
	Overwrite    bool   `json:"overwrite,omitempty" jsonschema:"allow a snippet without markers to replace an existing file whole"`
	Common
}

func runEditFile(ctx context.Context, e *Engine, req *EditFileRequest) (*Landing, error) {
	tx := e.Begin("edit_file", req.DryRun)
	if err := tx.editSnippet(req.TargetFile, req.CodeEdit, req.Overwrite, req.Version); err != nil {
		return nil, err
	}
	return tx.Land(ctx, req.Instructions)
}

// editSnippet merges a snippet into path (snippet package doc).
func (tx *Tx) editSnippet(path, code string, overwrite bool, version string) error {
	f, err := tx.Open(path, "", true)
	if err != nil {
		return err
	}
	s := snippet.ParseFile(f.Rel, code, f.Text())
	if s.Markers == 0 {
		// No marker: the snippet is the whole file.
		if f.Exists && !overwrite {
			return invalidf(f.Rel, "", "the snippet has no marker such as %q, so it would replace the whole file: add markers where the file's lines stay, or pass overwrite: true to replace it", s.Marker)
		}
		if err := tx.checkVersion(f, version, ""); err != nil {
			return err
		}
		n := lineedit.Count(code)
		if f.Exists {
			text := f.Text()
			return f.Step([]textedit.Change{{Start: 0, End: len(text), New: code, Desc: "the whole file",
				Line: 1, EndLine: max(1, n), Method: "overwrite", Similarity: 1}})
		}
		f.SetContent([]byte(code), Located{Line: 1, EndLine: max(1, n), Method: "create", Similarity: 1})
		return nil
	}
	if !f.Exists {
		return &Error{Code: CodeFileNotFound, Path: f.Rel, Msg: "file not found"}
	}
	sv, err := tx.since(f, version, "")
	if err != nil {
		return err
	}
	if len(s.Regions) == 0 {
		return invalidf(f.Rel, "", "the snippet holds only markers: nothing to change")
	}
	changes, err := snippet.Plan(f.Text(), s, tx.e.matchOptions(0))
	if err != nil {
		return textedit.WithPath(sv.notFound(err, ""), f.Rel)
	}
	if len(changes) == 0 {
		return invalidf(f.Rel, "", "every region of the snippet already stands in the file: the edit changes nothing")
	}
	return f.Step(changes)
}

// MergeSnippet merges an edit_file snippet with markers into an existing
// file's text (named name: its extension tells prose from code), as
// edit_file does, without the disk or git (the snippet accuracy corpus
// runs it). A refused snippet returns the refusal.
func MergeSnippet(name string, content []byte, code string, opt matcher.Options) ([]byte, error) {
	b, _, err := MergeSnippetLocated(name, content, code, opt)
	return b, err
}

// MergeSnippetLocated is MergeSnippet with where each region landed, as
// edit_file's result lists it (its hunks: the lines each region replaced,
// how it was found, and the lines it removed unshown, Located.Dropped).
func MergeSnippetLocated(name string, content []byte, code string, opt matcher.Options) ([]byte, []Located, error) {
	s := snippet.ParseFile(name, code, content)
	if s.Markers == 0 {
		return nil, nil, invalidf("", "", "the snippet has no marker")
	}
	changes, err := snippet.Plan(content, s, opt)
	if err != nil {
		return nil, nil, err
	}
	if len(changes) == 0 {
		// As edit_file refuses it.
		return nil, nil, invalidf("", "", "every region of the snippet already stands in the file: the edit changes nothing")
	}
	b, err := textedit.Splice(content, changes)
	if err != nil {
		return nil, nil, err
	}
	locs := make([]Located, len(changes))
	for i, c := range changes {
		locs[i] = c.Location()
	}
	return b, locs, nil
}
