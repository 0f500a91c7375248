package apply

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/internal/textedit"
)

// The model vendors' own edit-tool shapes, spoken natively, so that an
// agent built on their APIs hands its calls to graft unchanged and gets
// the journal, the fuzzy fallback and the refusals: Anthropic's text
// editor tool (str_replace_based_edit_tool, and its older name
// str_replace_editor with undo_edit) here; OpenAI's Responses API
// apply_patch operations in tools_patch.go. Each command is one of
// graft's own operations through the same engine: view is file_read (or
// a directory listing), create is edit with an empty old text on a new
// file, str_replace is edit, insert is an edit_lines insert, undo_edit is
// the journal's undo.

func init() {
	tune := func(in *Schema) {
		in.Properties["command"].Enum = []any{"view", "create", "str_replace", "insert"}
	}
	Register(NewTool("str_replace_based_edit_tool", textEditorDescription, func(ctx context.Context, e *Engine, req *TextEditorRequest) (*TextEditorResult, error) {
		return e.textEditor(ctx, req, false)
	}).TuneInput(tune))
	Register(NewTool("str_replace_editor", textEditorDescription+" undo_edit reverts the last edit of path.", func(ctx context.Context, e *Engine, req *TextEditorRequest) (*TextEditorResult, error) {
		return e.textEditor(ctx, req, true)
	}).TuneInput(func(in *Schema) {
		in.Properties["command"].Enum = []any{"view", "create", "str_replace", "insert", "undo_edit"}
	}))
}

const textEditorDescription = `Anthropic's text editor tool, served by graft. view: a file's lines numbered as cat -n does
(view_range [start, end], end -1 to the end), or a directory two levels deep. create: a new file
with file_text (an existing file is refused). str_replace: old_str must stand once; slips in
whitespace or indentation are forgiven only when a single place fits. insert: new_str (or
insert_text) after insert_line, 0 for the top. Every change is journaled.`

// TextEditorRequest is the input of Anthropic's text editor tool
// (text_editor_20250728 and the older str_replace_editor versions).
type TextEditorRequest struct {
	Command string `json:"command" jsonschema:"view, create, str_replace or insert (undo_edit: str_replace_editor)"`
	Path    string `json:"path" jsonschema:"the file or directory"`
	// ViewRange is [start, end] for view, 1-based; end -1 reads to the end.
	ViewRange []int `json:"view_range,omitempty" jsonschema:"view: [start, end] lines; end -1 for the end"`
	// MaxCharacters clips what view returns (the tool's max_characters).
	MaxCharacters int     `json:"max_characters,omitempty" jsonschema:"view: return at most this many characters"`
	FileText      *string `json:"file_text,omitempty" jsonschema:"create: the file's content"`
	OldStr        *string `json:"old_str,omitempty" jsonschema:"str_replace: the text to replace"`
	NewStr        *string `json:"new_str,omitempty" jsonschema:"str_replace: the new text; insert: the text to insert"`
	InsertLine    *int    `json:"insert_line,omitempty" jsonschema:"insert: the line to insert after (0 = the top)"`
	// InsertText is what real calls of insert send in place of new_str.
	InsertText *string `json:"insert_text,omitempty" jsonschema:"insert: the text to insert (as new_str)"`
	DryRun     bool    `json:"dry_run,omitempty" jsonschema:"report the result, write nothing"`
}

func (r *TextEditorRequest) dryRun() bool {
	// undo_edit goes through the journal's undo, which takes the lock itself.
	return r.DryRun || r.Command == "view" || r.Command == "undo_edit"
}

// TextEditorResult is the tool's answer: Output is the text the vendor's
// reference implementation returns (what a model expects to read); a
// change also carries graft's landing (diff, where it landed, commit).
type TextEditorResult struct {
	Output string `json:"output"`
	*Landing
}

func (e *Engine) textEditor(ctx context.Context, req *TextEditorRequest, legacy bool) (*TextEditorResult, error) {
	need := func(ok bool, field string) error {
		if !ok {
			return invalidf(req.Path, req.Command, "%s is required for %s", field, req.Command)
		}
		return nil
	}
	switch req.Command {
	case "view":
		return e.editorView(req)
	case "create":
		if err := need(req.FileText != nil, "file_text"); err != nil {
			return nil, err
		}
		tx := e.Begin("str_replace_based_edit_tool", req.DryRun)
		f, err := tx.Open(req.Path, req.Command, true)
		if err != nil {
			return nil, err
		}
		if !f.Missing() {
			return nil, invalidf(f.Rel, req.Command, "file already exists: create makes a new file (use str_replace or insert to change it)")
		}
		if *req.FileText == "" {
			return nil, invalidf(f.Rel, req.Command, "file_text is empty: nothing to create")
		}
		n := lineedit.Count(*req.FileText)
		f.SetContent(stringBytes(*req.FileText), Located{Line: 1, EndLine: max(1, n), Method: "create", Similarity: 1})
		return landed(tx.Land(ctx, ""))(fmt.Sprintf("File created successfully at: %s", req.Path))
	case "str_replace":
		if err := firstErr(need(req.OldStr != nil && *req.OldStr != "", "old_str"), need(req.NewStr != nil, "new_str")); err != nil {
			return nil, err
		}
		tx := e.Begin("str_replace_based_edit_tool", req.DryRun)
		if err := tx.editString(req.Path, "", *req.OldStr, *req.NewStr, false, ""); err != nil {
			return nil, err
		}
		return landed(tx.Land(ctx, ""))(fmt.Sprintf("The file %s has been edited successfully.", req.Path))
	case "insert":
		text := req.NewStr
		if text == nil {
			text = req.InsertText
		}
		if err := firstErr(need(req.InsertLine != nil, "insert_line"), need(text != nil, "new_str")); err != nil {
			return nil, err
		}
		tx := e.Begin("str_replace_based_edit_tool", req.DryRun)
		f, err := tx.Open(req.Path, req.Command, false)
		if err != nil {
			return nil, err
		}
		ix := lineedit.NewFile(f.Text())
		h, note, err := lineedit.Insert(ix, f.Rel, *req.InsertLine, *text, req.Command, lineedit.Plan{})
		if err != nil {
			return nil, textedit.WithPath(err, f.Rel)
		}
		loc := Located{Line: *req.InsertLine, EndLine: *req.InsertLine, Method: "lines", Similarity: 1, Reindented: note}
		if err := f.Step([]textedit.Change{h.Located(loc)}); err != nil {
			return nil, err
		}
		return landed(tx.Land(ctx, ""))(fmt.Sprintf("The file %s has been edited successfully.", req.Path))
	case "undo_edit":
		if legacy {
			return e.undoEdit(ctx, req.Path)
		}
	case "":
		return nil, invalidf(req.Path, "", "command is required (view, create, str_replace, insert)")
	}
	return nil, invalidf(req.Path, "", "unknown command %q (view, create, str_replace, insert%s)", req.Command,
		map[bool]string{true: ", undo_edit"}[legacy])
}

// landed pairs a landing with the vendor's message for it.
func landed(l *Landing, err error) func(string) (*TextEditorResult, error) {
	return func(msg string) (*TextEditorResult, error) {
		if err != nil {
			return nil, err
		}
		return &TextEditorResult{Output: msg, Landing: l}, nil
	}
}

// editorView shows a file as cat -n does, or lists a directory two levels
// deep without hidden entries, as the reference implementation does.
func (e *Engine) editorView(req *TextEditorRequest) (*TextEditorResult, error) {
	if dir, ok := e.viewDir(req.Path); ok {
		out, err := e.listDir(dir, req.Path)
		if err != nil {
			return nil, err
		}
		return &TextEditorResult{Output: clipChars(out, req.MaxCharacters)}, nil
	}
	tx := e.Begin("str_replace_based_edit_tool", true)
	f, err := tx.Open(req.Path, "view", false)
	if err != nil {
		return nil, err
	}
	ix := lineedit.NewFile(f.Text())
	first, last := 1, ix.Count()
	switch len(req.ViewRange) {
	case 0:
	case 2:
		first = req.ViewRange[0]
		if req.ViewRange[1] != -1 {
			last = req.ViewRange[1]
		}
		switch {
		case first < 1 || first > max(ix.Count(), 1):
			return nil, invalidf(f.Rel, "view", "view_range start %d out of range: the file has %d lines", first, ix.Count())
		case last < first:
			return nil, invalidf(f.Rel, "view", "view_range end %d is before its start %d", last, first)
		case last > ix.Count():
			return nil, invalidf(f.Rel, "view", "view_range end %d out of range: the file has %d lines (-1 reads to the end)", last, ix.Count())
		}
	default:
		return nil, invalidf(f.Rel, "view", "view_range is [start, end]")
	}
	var b strings.Builder
	for n := first; n <= last; n++ {
		fmt.Fprintf(&b, "%6d\t%s\n", n, ix.Text(n))
	}
	return &TextEditorResult{Output: clipChars(b.String(), req.MaxCharacters)}, nil
}

// viewDir reports whether path names a directory of the worktree (the
// root included), and its absolute path.
func (e *Engine) viewDir(path string) (string, bool) {
	p := filepath.FromSlash(path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.dir, p)
	}
	real, err := realPath(filepath.Clean(p))
	if err != nil {
		return "", false
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return "", false
	}
	return real, true
}

// listDir lists the files and directories under dir two levels deep,
// hidden entries (a leading dot) skipped, one path a line, as the
// reference implementation does. dir must be in the worktree and not in
// the git directory.
func (e *Engine) listDir(dir, shown string) (string, error) {
	root := e.store.Root()
	rel, err := filepath.Rel(root, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", errorf(CodePermission, shown, "view", "permission denied: outside the worktree %s", root)
	}
	if rel != "." && strings.HasPrefix(filepath.ToSlash(rel)+"/", ".git/") {
		return "", errorf(CodePermission, shown, "view", "permission denied: inside the git directory")
	}
	var lines []string
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable entry is left out, as find does
		}
		if p == dir {
			return nil
		}
		r, _ := filepath.Rel(dir, p)
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		depth := strings.Count(r, string(filepath.Separator)) + 1
		if depth > 2 {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		lines = append(lines, filepath.Join(shown, r))
		return nil
	})
	if err != nil {
		return "", errFromFS(err, shown, "view")
	}
	slices.Sort(lines)
	return fmt.Sprintf("Here are the files and directories up to 2 levels deep in %s, excluding hidden items:\n%s\n%s\n",
		shown, shown, strings.Join(lines, "\n")), nil
}

// clipChars keeps the first n characters of s (n <= 0: all of it) and
// says it clipped.
func clipChars(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8Start(s[cut]) {
		cut--
	}
	return s[:cut] + "\n<response clipped: " + strconv.Itoa(len(s)-cut) + " more bytes; view a smaller view_range>\n"
}

func utf8Start(b byte) bool { return b&0xC0 != 0x80 }

// undoEdit is str_replace_editor's undo_edit: graft's undo of the last
// edit of path in the calling agent's scope (its own edits; everyone's when
// the call names no agent) not undone yet, merged three-way under whatever
// was done after it, when that edit changed path and only path. An edit
// that also changed other files is refused with what to use instead:
// undoing it would reverse more than the model asked.
func (e *Engine) undoEdit(ctx context.Context, path string) (*TextEditorResult, error) {
	rel, _, err := e.resolve(path, "undo_edit")
	if err != nil {
		return nil, err
	}
	sc := callerScope(ctx, "", "")
	last, err := e.store.LastOf(sc, rel)
	if errors.Is(err, gitstore.ErrNothingToUndo) || errors.Is(err, gitstore.ErrNoJournal) {
		whose := "graft's journal has none"
		if sc.Agent != "" {
			whose = "graft's journal has none of " + sc.Agent + "'s"
		}
		return nil, invalidf(rel, "undo_edit", "no edit of %s to undo: %s", rel, whose)
	}
	if err != nil {
		return nil, storeError(err, rel)
	}
	if len(last.Files) > 1 {
		var others []string
		for _, f := range last.Files {
			if f.Path != rel {
				others = append(others, f.Path)
			}
		}
		return nil, invalidf(rel, "undo_edit", "the last edit of %s (%s, %q) also changed %s: undoing it would revert those too; use graft's undo tool to revert the whole call", rel, short(last.ID), last.Message, strings.Join(others, ", "))
	}
	r, err := e.store.UndoEntry(ctx, sc, last.ID)
	if err != nil {
		return nil, storeError(err, rel)
	}
	res, err := e.reverted(r, sc, true)
	if err != nil {
		return nil, err
	}
	return &TextEditorResult{Output: fmt.Sprintf("Last edit to %s undone successfully.", path),
		Landing: &Landing{Success: true, Commit: res.Commit, Files: []FileResult{{Path: rel, Diff: res.Diff, Hunks: []Located{}}}}}, nil
}
