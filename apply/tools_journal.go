package apply

import (
	"context"

	"github.com/graftdev/graft/gitstore"
)

// The journal tools: undo, redo, history and diff. They are thin over
// gitstore, which owns the journal (see gitstore's package doc).

func init() {
	Register(NewTool("undo", undoDescription, func(ctx context.Context, e *Engine, req *UndoRequest) (*UndoResult, error) {
		return e.revert(ctx, req.Steps, true)
	}))
	Register(NewTool("redo", redoDescription, func(ctx context.Context, e *Engine, req *UndoRequest) (*UndoResult, error) {
		return e.revert(ctx, req.Steps, false)
	}))
	h := NewTool("history", historyDescription, runHistory)
	h.ReadOnly = true
	Register(h)
	d := NewTool("diff", diffDescription, runJournalDiff)
	d.ReadOnly = true
	Register(d)
}

const undoDescription = `Undo the last graft call (or the last steps calls) on the files as they are now: later changes are
kept. A file changed since in the same lines is a conflict, and nothing is touched.`

const redoDescription = `Redo the last undone graft call (or the last steps undone calls). A new edit after an undo clears
what can be redone.`

const historyDescription = `List graft's journal, newest first: each call's id, time, message, tool, and files with line counts.
Snapshot entries record changes made outside graft.`

const diffDescription = `Show the diff of one journal entry (id, or a prefix of 4+ hex digits), or without id everything
graft changed since the branch's last commit.`

// UndoRequest is the input of undo and redo.
type UndoRequest struct {
	Steps int `json:"steps,omitempty" jsonschema:"how many edits to undo or redo; default 1"`
}

// UndoResult is the output of undo and redo.
type UndoResult struct {
	Success bool `json:"success"`
	// Commit is the journal commit that records the undo or redo;
	// Snapshot the commit recording outside changes first, if any.
	Commit   string `json:"commit"`
	Snapshot string `json:"snapshot,omitempty"`
	// Entries are the journal edits undone or redone.
	Entries []string `json:"entries"`
	// Files are the paths written; Diff what was done to them.
	Files []string `json:"files"`
	Diff  string   `json:"diff"`
}

func (e *Engine) revert(ctx context.Context, steps int, undo bool) (*UndoResult, error) {
	if steps < 0 {
		return nil, invalidf("", "", "steps must be 1 or more")
	}
	var r gitstore.Reverted
	var err error
	if undo {
		r, err = e.store.Undo(ctx, steps)
	} else {
		r, err = e.store.Redo(ctx, steps)
	}
	if err != nil {
		return nil, storeError(err, "")
	}
	res := &UndoResult{Success: true, Commit: r.Commit, Snapshot: r.Snapshot, Entries: r.Entries, Files: r.Files}
	if res.Files == nil {
		res.Files = []string{}
	}
	if r.Commit != "" {
		if res.Diff, err = e.store.Diff(r.Commit); err != nil {
			return nil, storeError(err, "")
		}
	}
	e.log.Debug("revert", "undo", undo, "entries", len(r.Entries), "commit", r.Commit)
	return res, nil
}

// HistoryRequest is the input of history.
type HistoryRequest struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many entries, newest first; default 20"`
}

// HistoryResult is the output of history.
type HistoryResult struct {
	// Journal is the journal ref (refs/graft/<branch>).
	Journal string           `json:"journal"`
	Entries []gitstore.Entry `json:"entries"`
}

func runHistory(ctx context.Context, e *Engine, req *HistoryRequest) (*HistoryResult, error) {
	if req.Limit < 0 {
		return nil, invalidf("", "", "limit must be 1 or more")
	}
	entries, err := e.store.History(req.Limit)
	if err != nil {
		return nil, storeError(err, "")
	}
	ref, err := e.store.JournalRef()
	if err != nil {
		return nil, storeError(err, "")
	}
	return &HistoryResult{Journal: ref, Entries: entries}, nil
}

// DiffRequest is the input of diff.
type DiffRequest struct {
	ID string `json:"id,omitempty" jsonschema:"a journal entry's commit id (or a prefix of 4+ hex digits); default everything since the branch's last commit"`
}

// DiffResult is the output of diff.
type DiffResult struct {
	ID   string `json:"id,omitempty"`
	Diff string `json:"diff"`
}

func runJournalDiff(ctx context.Context, e *Engine, req *DiffRequest) (*DiffResult, error) {
	d, err := e.store.Diff(req.ID)
	if err != nil {
		return nil, storeError(err, "")
	}
	return &DiffResult{ID: req.ID, Diff: d}, nil
}
