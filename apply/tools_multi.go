package apply

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/graftdev/graft/apply/symbol"
)

func init() {
	Register(NewTool("multi_edit", multiEditDescription, runMultiEdit))
}

const multiEditDescription = `String edits across several files in one call; each old_string must stand in one place, matched as
edit does; or symbol edits (symbol, action, content as edit_symbol). Edits to one file apply in
order. atomic (default true) lands all or none; false lands the edits that succeed and lists the
failures. An empty old_string creates the file.`

// MultiEditRequest is the input of multi_edit.
type MultiEditRequest struct {
	Description string     `json:"description" jsonschema:"what the edits do (the journal message)"`
	Edits       []FileEdit `json:"edits" jsonschema:"the edits, applied in order"`
	Atomic      *bool      `json:"atomic,omitempty" jsonschema:"all or none (default true)"`
	DryRun      bool       `json:"dry_run,omitempty" jsonschema:"report the result, write nothing"`
}

// FileEdit is one multi_edit edit.
type FileEdit struct {
	FilePath   string  `json:"file_path" jsonschema:"the file to edit"`
	OldString  *string `json:"old_string,omitempty" jsonschema:"the text to replace; empty creates the file"`
	NewString  *string `json:"new_string,omitempty" jsonschema:"the replacement text"`
	ReplaceAll bool    `json:"replace_all,omitempty" jsonschema:"replace every occurrence"`
	// Symbol, Action, Content and Line make an edit by symbol, as
	// edit_symbol does, instead of old_string and new_string.
	Symbol  string  `json:"symbol,omitempty" jsonschema:"instead of old/new: as edit_symbol"`
	Action  string  `json:"action,omitempty" jsonschema:"with symbol"`
	Content *string `json:"content,omitempty" jsonschema:"with symbol"`
	Line    int     `json:"line,omitempty" jsonschema:"with symbol"`
}

// run makes the edit inside tx.
// run applies one edit in tx; noop reports a string edit whose old and
// new text are the same (its old text found, nothing changed).
func (ed *FileEdit) run(tx *Tx, edit string) (noop bool, err error) {
	if ed.Symbol != "" {
		if ed.OldString != nil || ed.NewString != nil || ed.ReplaceAll {
			return false, invalidf(ed.FilePath, edit, "give symbol (with action and content) or old_string and new_string, not both")
		}
		return false, tx.editSymbol(ed.FilePath, edit, symbol.Edit{Symbol: ed.Symbol, Action: ed.Action, Content: ed.Content, Line: ed.Line}, "")
	}
	if ed.OldString == nil || ed.NewString == nil {
		return false, invalidf(ed.FilePath, edit, "old_string and new_string are required (or symbol, action and content)")
	}
	if ed.Action != "" || ed.Content != nil || ed.Line != 0 {
		return false, invalidf(ed.FilePath, edit, "action, content and line go with symbol")
	}
	if *ed.OldString == *ed.NewString && *ed.OldString != "" {
		return true, tx.unchangedString(ed.FilePath, edit, *ed.OldString, ed.ReplaceAll)
	}
	return false, tx.editString(ed.FilePath, edit, *ed.OldString, *ed.NewString, ed.ReplaceAll, "")
}

// EditResult is the outcome of one multi_edit edit.
type EditResult struct {
	// Edit names the edit ("edits[2]"), as errors and hunks do.
	Edit         string `json:"edit"`
	FilePath     string `json:"file_path"`
	Success      bool   `json:"success"`
	Replacements int    `json:"replacements"`
	Error        string `json:"error,omitempty"`
	Code         Code   `json:"code,omitempty"`
	// Note says why a successful edit replaced nothing ("unchanged: old
	// and new are identical").
	Note string `json:"note,omitempty"`
}

// MultiEditSummary counts what a multi_edit call did, by file.
type MultiEditSummary struct {
	TotalFiles        int `json:"total_files"`
	SuccessfulFiles   int `json:"successful_files"`
	FailedFiles       int `json:"failed_files"`
	TotalReplacements int `json:"total_replacements"`
}

// MultiEditResult is the output of multi_edit.
type MultiEditResult struct {
	Landing
	Results []EditResult     `json:"results"`
	Summary MultiEditSummary `json:"summary"`
	// RollbackPerformed is always false: graft computes every edit before
	// writing, so a refused call has nothing to roll back.
	RollbackPerformed bool `json:"rollback_performed"`
	// Partial is set when a non-atomic call landed some edits and not
	// others (the CLI exits 3): results says which, files what landed.
	Partial bool   `json:"partial,omitempty"`
	Error   string `json:"error,omitempty"`
}

func (r *MultiEditRequest) dryRun() bool { return r.DryRun }

func runMultiEdit(ctx context.Context, e *Engine, req *MultiEditRequest) (*MultiEditResult, error) {
	if strings.TrimSpace(req.Description) == "" {
		return nil, invalidf("", "", "description is required")
	}
	if len(req.Edits) == 0 {
		return nil, invalidf("", "", "edits is empty")
	}
	atomic := req.Atomic == nil || *req.Atomic
	tx := e.Begin("multi_edit", req.DryRun)
	res := &MultiEditResult{}
	failed := map[string]bool{} // by file, as tx.fileKey names it
	var files []string
	var firstErr error
	noops := 0
	for i, ed := range req.Edits {
		edit := fmt.Sprintf("edits[%d]", i)
		e.progress(i, len(req.Edits), edit+" "+ed.FilePath)
		r := EditResult{Edit: edit, FilePath: ed.FilePath}
		key := tx.fileKey(ed.FilePath)
		before := tx.replacementsOf(key)
		noop, err := ed.run(tx, edit)
		if err != nil {
			if atomic {
				return nil, err
			}
			r.Error, r.Code = err.Error(), CodeOf(err)
			failed[key] = true
			if firstErr == nil {
				firstErr = err
			}
		} else {
			r.Success = true
			r.Replacements = tx.replacementsOf(key) - before
			res.Summary.TotalReplacements += r.Replacements
			if noop {
				r.Note = unchangedNote
				noops++
			}
		}
		if !slices.Contains(files, key) {
			files = append(files, key)
		}
		res.Results = append(res.Results, r)
	}
	res.Summary.TotalFiles = len(files)
	res.Summary.FailedFiles = len(failed)
	res.Summary.SuccessfulFiles = len(files) - len(failed)
	if res.Summary.SuccessfulFiles == 0 && firstErr != nil {
		return nil, firstErr
	}
	if noops > 0 && noops == len(req.Edits)-countFailed(res.Results) {
		// Nothing but no-ops would land: refused, as a lone no-op is.
		if firstErr != nil {
			return nil, firstErr
		}
		return nil, invalidf(tx.unchanged[0].Path, tx.unchanged[0].Edit, "old and new strings are identical")
	}
	l, err := tx.Land(ctx, req.Description)
	if err != nil {
		return nil, err
	}
	res.Landing = *l
	if firstErr != nil {
		res.Success, res.Partial = false, true
		res.Error = partialMessage(res.Results, req.DryRun)
	}
	return res, nil
}

// fileKey names the file a path refers to: its worktree-relative path
// when it resolves, else the path as given (an edit that fails on it is
// counted against that).
func (tx *Tx) fileKey(path string) string {
	if rel, _, err := tx.resolve(path, ""); err == nil {
		return rel
	}
	return path
}

// replacementsOf counts the replacements made so far in the file key.
func (tx *Tx) replacementsOf(key string) int {
	if f, ok := tx.byRel[key]; ok {
		return f.replacements
	}
	return 0
}

func countFailed(rs []EditResult) int {
	n := 0
	for _, r := range rs {
		if !r.Success {
			n++
		}
	}
	return n
}

// partialMessage says which edits of a partly applied call landed and
// which did not.
func partialMessage(rs []EditResult, dryRun bool) string {
	var landed, failed []string
	for _, r := range rs {
		if r.Success {
			landed = append(landed, r.Edit)
		} else {
			failed = append(failed, r.Edit)
		}
	}
	verb := "landed"
	if dryRun {
		verb = "would land"
	}
	return fmt.Sprintf("partly applied: %d of %d edits failed (%s); %s %s", len(failed), len(rs), strings.Join(failed, ", "), strings.Join(landed, ", "), verb)
}
