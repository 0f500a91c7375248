package apply

import (
	"context"
	"fmt"

	"github.com/graftdev/graft/internal/textedit"
)

func init() {
	Register(NewTool("notebook_edit", notebookEditDescription, runNotebookEdit).TuneInput(func(in *Schema) {
		in.Properties["edit_mode"].Enum = []any{"replace", "insert", "delete"}
		in.Properties["cell_type"].Enum = []any{"code", "markdown"}
	}))
}

const notebookEditDescription = `Replace, insert or delete one cell of a Jupyter notebook (.ipynb). Name the cell by cell_id or by
cell_number (0-based); insert puts the new cell after the cell named by cell_id, before the cell at
cell_number, or first when neither is given, and needs cell_type. Everything outside the cell
(other cells, outputs, metadata, layout) is kept byte for byte. A replaced code cell keeps its
outputs and execution count (they may now be stale). file_read shows a notebook as "# %%" cells.`

// NotebookEditRequest is the input of notebook_edit.
type NotebookEditRequest struct {
	NotebookPath string `json:"notebook_path" jsonschema:"the notebook (.ipynb) to edit"`
	CellID       string `json:"cell_id,omitempty" jsonschema:"the id of the cell to edit (insert: the new cell goes after it)"`
	CellNumber   *int   `json:"cell_number,omitempty" jsonschema:"the 0-based number of the cell to edit (insert: the new cell takes this number)"`
	NewSource    string `json:"new_source,omitempty" jsonschema:"the new source of the cell (replace, insert)"`
	CellType     string `json:"cell_type,omitempty" jsonschema:"code or markdown: required to insert; on replace, changes the cell's type"`
	EditMode     string `json:"edit_mode,omitempty" jsonschema:"replace (default), insert or delete"`
	Common
}

// NotebookEditResult is the output of notebook_edit: the landing, the
// cell the call changed, and what happened to its outputs.
type NotebookEditResult struct {
	Landing
	CellNumber int    `json:"cell_number"`
	CellID     string `json:"cell_id,omitempty"`
	CellType   string `json:"cell_type,omitempty"`
	Note       string `json:"note,omitempty"`
}

func runNotebookEdit(ctx context.Context, e *Engine, req *NotebookEditRequest) (*NotebookEditResult, error) {
	path := req.NotebookPath
	if !textedit.IsNotebookPath(path) {
		return nil, invalidf(path, "", "notebook_path must name a .ipynb file")
	}
	mode := req.EditMode
	if mode == "" {
		mode = "replace"
	}
	if mode != "replace" && mode != "insert" && mode != "delete" {
		return nil, invalidf(path, "", "edit_mode must be replace, insert or delete, not %q", mode)
	}
	if req.CellType != "" && req.CellType != "code" && req.CellType != "markdown" {
		return nil, invalidf(path, "", "cell_type must be code or markdown, not %q", req.CellType)
	}
	tx := e.Begin("notebook_edit", req.DryRun)
	f, err := tx.Open(path, "", false)
	if err != nil {
		return nil, err
	}
	if _, err := tx.since(f, req.Version, ""); err != nil {
		return nil, err
	}
	nb, err := textedit.ParseNotebook(f.Old)
	if err != nil {
		return nil, invalidf(f.Rel, "", "not a valid notebook (%v): fix it with apply_patch or edit_file first", err)
	}
	// The cell the call names: by id, else by number.
	at := -1
	switch {
	case req.CellID != "":
		if at = nb.CellIndex(req.CellID); at < 0 {
			return nil, invalidf(f.Rel, "", "no cell has id %q (file_read shows each cell's id on its \"# %%%%\" line)", req.CellID)
		}
	case req.CellNumber != nil:
		at = *req.CellNumber
		limit := len(nb.Cells)
		if mode == "insert" {
			limit++
		}
		if at < 0 || at >= limit {
			return nil, invalidf(f.Rel, "", "cell_number %d is out of range: the notebook has %d cells (numbered from 0)", at, len(nb.Cells))
		}
	case mode != "insert":
		return nil, invalidf(f.Rel, "", "name the cell: cell_id or cell_number")
	}
	res := &NotebookEditResult{}
	var change textedit.Change
	switch mode {
	case "insert":
		if req.CellType == "" {
			return nil, invalidf(f.Rel, "", "cell_type (code or markdown) is required to insert a cell")
		}
		pos := 0
		switch {
		case req.CellID != "":
			pos = at + 1
		case req.CellNumber != nil:
			pos = at
		}
		id := ""
		if nb.UsesIDs() {
			id = nb.NewID()
		}
		change = nb.InsertCell(pos, req.CellType, id, req.NewSource)
		res.CellNumber, res.CellID, res.CellType = pos, id, req.CellType
		if req.CellType == "code" {
			res.Note = "the new code cell has no outputs and execution_count null"
		}
	case "delete":
		c := nb.Cells[at]
		change = nb.DeleteCell(at)
		res.CellNumber, res.CellID, res.CellType = at, c.ID, c.Type
		res.Note = "the cell and its outputs were deleted"
	default:
		c := nb.Cells[at]
		res.CellNumber, res.CellID, res.CellType = at, c.ID, c.Type
		if req.CellType != "" && req.CellType != c.Type {
			change = nb.RetypeCell(f.Old, at, req.CellType, req.NewSource)
			res.CellType = req.CellType
			if req.CellType == "code" {
				res.Note = "the cell is now code: no outputs, execution_count null"
			} else if c.Type == "code" {
				res.Note = "the cell is now " + req.CellType + ": its outputs and execution count were removed"
			}
		} else {
			// A change of the view's text: the cell's source value only.
			v := f.view()
			vc := v.Notebook().Cells[at]
			if err := f.Step([]textedit.Change{{Start: vc.SrcStart, End: vc.SrcEnd, New: req.NewSource, Edit: "notebook_edit", Desc: fmt.Sprintf("cell %d", at)}}); err != nil {
				return nil, err
			}
			if c.Type == "code" {
				res.Note = "the cell's outputs and execution count were kept; they may no longer match its source"
			}
			l, err := tx.Land(ctx, "")
			if err != nil {
				return nil, err
			}
			res.Landing = *l
			return res, nil
		}
	}
	// A change of the JSON: the file read as its bytes for this step.
	change.Edit = "notebook_edit"
	f.AsJSON()
	err = f.Step([]textedit.Change{change})
	f.nb.asJSON = false
	f.cached, f.oldCached = nil, nil
	if err != nil {
		return nil, err
	}
	l, err := tx.Land(ctx, "")
	if err != nil {
		return nil, err
	}
	res.Landing = *l
	return res, nil
}
