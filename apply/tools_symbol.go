package apply

import (
	"context"
	"fmt"

	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/apply/outline"
	"github.com/graftdev/graft/apply/symbol"
)

func init() {
	t := NewTool("file_outline", fileOutlineDescription, runFileOutline)
	t.ReadOnly = true
	Register(t)
	Register(NewTool("edit_symbol", editSymbolDescription, runEditSymbol).TuneInput(func(in *Schema) {
		in.Properties["action"].Enum = []any{"replace", "insert_before", "insert_after", "delete"}
	}))
}

const fileOutlineDescription = `List a file's declarations, one a line: "FIRST-LAST KIND NAME", nested ones indented under their
scope; names join with dots into edit_symbol's paths (Class.method, a.b[2]).`

// FileOutlineRequest is the input of file_outline.
type FileOutlineRequest struct {
	Path  string `json:"path" jsonschema:"the file to outline"`
	Depth int    `json:"depth,omitempty" jsonschema:"levels to list (default all; config 2)"`
}

// FileOutlineResult is the output of file_outline.
type FileOutlineResult struct {
	Path     string `json:"path"`
	Language string `json:"language"`
	// Outline has one line per symbol: "FIRST-LAST KIND NAME".
	Outline    string `json:"outline"`
	Symbols    int    `json:"symbols"`
	TotalLines int    `json:"total_lines"`
	// Version is the git blob id of the file, as file_read gives it.
	Version string `json:"version"`
}

func runFileOutline(_ context.Context, e *Engine, req *FileOutlineRequest) (*FileOutlineResult, error) {
	if req.Depth < 0 {
		return nil, invalidf(req.Path, "", "depth must not be negative")
	}
	tx := e.Begin("file_outline", true)
	f, err := tx.Open(req.Path, "", false)
	if err != nil {
		return nil, err
	}
	o, version, err := e.outlineText(f.Rel, f.Old, f.Text(), f.encodingKey(), true, "")
	if err != nil {
		return nil, err
	}
	depth := req.Depth
	if depth == 0 && o.Config {
		depth = 2
	}
	return &FileOutlineResult{Path: f.Rel, Language: o.Language, Outline: o.Format(depth), Symbols: o.Count(depth),
		TotalLines: o.Lines, Version: version}, nil
}

// Outline returns the outline of the file at path (relative to the
// engine's directory), from the engine's cache when the same content was
// outlined before.
func (e *Engine) Outline(path string) (*outline.Outline, error) {
	tx := e.Begin("file_outline", true)
	f, err := tx.Open(path, "", false)
	if err != nil {
		return nil, err
	}
	o, _, err := e.outlineText(f.Rel, f.Old, f.Text(), f.encodingKey(), false, "")
	return o, err
}

const editSymbolDescription = `Edit a declaration by its file_outline name path. replace (default): content becomes its lines
(decorators included; config keys: the value). insert_before/insert_after: content beside it.
delete: removes it and its comment. Re-indented to fit. Several or no matches are refused with
candidates; line picks one.`

// EditSymbolRequest is the input of edit_symbol.
type EditSymbolRequest struct {
	Path    string  `json:"path" jsonschema:"the file to edit"`
	Symbol  string  `json:"symbol" jsonschema:"name path: Type.Method, a.b[2]"`
	Action  string  `json:"action,omitempty"`
	Content *string `json:"content,omitempty" jsonschema:"the new text"`
	Line    int     `json:"line,omitempty" jsonschema:"a line of it, to pick one of several"`
	Common
}

func runEditSymbol(ctx context.Context, e *Engine, req *EditSymbolRequest) (*Landing, error) {
	tx := e.Begin("edit_symbol", req.DryRun)
	if err := tx.editSymbol(req.Path, "", symbol.Edit{Symbol: req.Symbol, Action: req.Action, Content: req.Content, Line: req.Line}, req.Version); err != nil {
		return nil, err
	}
	return tx.Land(ctx, "")
}

// editSymbol makes one edit by symbol in the file at path, in its text as
// the call's earlier steps left it (multi_edit).
func (tx *Tx) editSymbol(path, edit string, ed symbol.Edit, version string) error {
	f, err := tx.Open(path, edit, false)
	if err != nil {
		return err
	}
	if f.Missing() {
		return &Error{Code: CodeFileNotFound, Path: f.Rel, Edit: edit, Msg: "file not found"}
	}
	sv, err := tx.since(f, version, edit)
	if err != nil {
		return err
	}
	// A version is checked on the call's first step, where the text is
	// the one the version is related to.
	first := !f.stepped()
	base := f.Text()
	o, _, err := tx.e.outlineOf(f.Rel, base, false, edit)
	if err != nil {
		return err
	}
	ix := lineedit.NewFile(base)
	line := ed.Line
	if line > 0 && sv != nil && first {
		if line, _, err = sv.lines(line, line, edit); err != nil {
			return err
		}
	}
	s, err := symbol.Resolve(o, ix, ed.Symbol, line, edit)
	if err != nil {
		return textedit.WithPath(err, f.Rel)
	}
	if sv != nil && first {
		// The declaration must be as the version read shows it.
		for _, c := range sv.edits {
			if c.B0 <= s.EndLine && max(c.B1, c.B0+1) > symbol.TopLine(s) {
				return sv.conflict(edit, fmt.Sprintf("%s %s", s.Kind, s.Path()))
			}
		}
	}
	changes, err := symbol.Changes(o, ix, f.Rel, s, ed, edit)
	if err != nil {
		return textedit.WithPath(err, f.Rel)
	}
	return f.Step(changes)
}
