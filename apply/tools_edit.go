package apply

import (
	"bytes"
	"context"
	"strconv"
	"unsafe"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/internal/textedit"

	"github.com/graftdev/graft/matcher"
)

func init() {
	Register(NewTool("edit", editDescription, runEdit))
	Register(NewTool("edit_text_file", editTextFileDescription, runEditTextFile))
}

const editDescription = `Replace oldString with newString in a file. oldString must stand in one place (add surrounding
lines, or set replaceAll). Slips in whitespace, indentation, tabs, line endings, quotes or escapes
are forgiven only when a single place fits; newString is then re-indented to match. An empty
oldString creates the file. A refusal lists the nearest candidates with the file's actual text:
retry with that text.`

// EditRequest is the input of the edit tool.
type EditRequest struct {
	FilePath   string `json:"filePath" jsonschema:"the file to edit"`
	OldString  string `json:"oldString" jsonschema:"the text to replace; empty creates the file"`
	NewString  string `json:"newString" jsonschema:"the replacement text, inserted literally"`
	ReplaceAll bool   `json:"replaceAll,omitempty" jsonschema:"replace every occurrence"`
	Common
}

// Common holds the fields every editing tool takes.
type Common struct {
	DryRun  bool   `json:"dry_run,omitempty" jsonschema:"report the result, write nothing"`
	Version string `json:"version,omitempty" jsonschema:"file_read's version: refused if the file changed since"`
}

// dryRun tells the registry that the call changes files unless it is a
// dry run, so that it runs under the repository's lock (Engine.locked).
func (c *Common) dryRun() bool { return c.DryRun }

func runEdit(ctx context.Context, e *Engine, req *EditRequest) (*Landing, error) {
	tx := e.Begin("edit", req.DryRun)
	if err := tx.editString(req.FilePath, "", req.OldString, req.NewString, req.ReplaceAll, req.Version); err != nil {
		return nil, err
	}
	return tx.Land(ctx, "")
}

const editTextFileDescription = `Replace the one occurrence of old_string in a file with new_string (empty deletes); returns the diff
and the changed line_range. Matching is edit's: exact, then slips forgiven only when a single place
fits. Errors carry JSON-RPC codes (-32001 file not found, -32010 not found, -32011 several matches);
refusals list the nearest candidates with the file's actual text.`

// EditTextFileRequest is the input of the edit_text_file tool.
type EditTextFileRequest struct {
	Path      string `json:"path" jsonschema:"the file to edit"`
	OldString string `json:"old_string" jsonschema:"the exact text to replace; must be unique in the file"`
	NewString string `json:"new_string" jsonschema:"the replacement text; empty deletes"`
	Common
}

// EditTextFileResult is the output of edit_text_file: the common landing
// plus the seed's top-level diff and line range.
type EditTextFileResult struct {
	Landing
	Diff      string    `json:"diff"`
	LineRange LineRange `json:"line_range"`
}

func runEditTextFile(ctx context.Context, e *Engine, req *EditTextFileRequest) (*EditTextFileResult, error) {
	if req.OldString == "" {
		return nil, invalidf(req.Path, "", "old_string is required (edit_text_file does not create files; use edit with an empty oldString)")
	}
	tx := e.Begin("edit_text_file", req.DryRun)
	if err := tx.editString(req.Path, "", req.OldString, req.NewString, false, req.Version); err != nil {
		return nil, err
	}
	l, err := tx.Land(ctx, "")
	if err != nil {
		return nil, err
	}
	// The seed's top-level diff is a string of its own: made here even
	// when the result's diffs are written as it goes out (WithLazyDiffs).
	l.Files[0].MaterializeDiff()
	return &EditTextFileResult{Landing: *l, Diff: l.Files[0].Diff, LineRange: l.Files[0].LineRange}, nil
}

// editString applies one string replacement to path inside tx, to the
// file's text as the call's earlier steps left it (the text the call
// began with, for the first).
func (tx *Tx) editString(path, edit, oldText, newText string, all bool, version string) error {
	if oldText == newText {
		return invalidf(path, edit, "old and new strings are identical")
	}
	f, err := tx.Open(path, edit, oldText == "")
	if err != nil {
		return err
	}
	sv, err := tx.since(f, version, edit)
	if err != nil {
		return err
	}
	if oldText == "" {
		if !f.Missing() && f.size() > 0 {
			return invalidf(f.Rel, edit, "file exists and is not empty: give the old text to replace")
		}
		loc := Located{Edit: edit, Line: 1, EndLine: max(1, lineedit.Count(newText)), Method: "create", Similarity: 1}
		if f.Missing() {
			f.SetContent(stringBytes(newText), loc) // read-only: see stringBytes
			return nil
		}
		return f.Step([]textedit.Change{textedit.Change{New: newText}.Located(loc)})
	}
	if f.Missing() {
		return &Error{Code: CodeFileNotFound, Path: f.Rel, Edit: edit, Msg: "file not found"}
	}
	base := f.Text()
	tx.e.phase(int64(len(base)), "locate in "+f.Rel)
	var changes []textedit.Change
	if all {
		changes, err = locateAll(base, oldText, newText, tx.e.matchOptions(0), edit)
	} else {
		var matches []matcher.Match
		if matches, err = locate(base, oldText, newText, all, tx.e.matchOptions(0), edit); err == nil {
			changes = stringChanges(base, matches, newText, edit)
		}
	}
	if err != nil {
		return textedit.WithPath(sv.notFound(err, edit), f.Rel)
	}
	return f.Step(changes)
}

// unchangedString records a batch member whose old and new text are the
// same: its old text must still be found (a member that is not found is
// refused as "not found", no-op or not), and then it is reported, not
// applied.
func (tx *Tx) unchangedString(path, edit, oldText string, all bool) error {
	f, err := tx.Open(path, edit, false)
	if err != nil {
		return err
	}
	if f.Missing() {
		return &Error{Code: CodeFileNotFound, Path: f.Rel, Edit: edit, Msg: "file not found"}
	}
	matches, err := locate(f.Text(), oldText, "", all, tx.e.matchOptions(0), edit)
	if err != nil {
		return textedit.WithPath(err, f.Rel)
	}
	tx.unchanged = append(tx.unchanged, Unchanged{Edit: edit, Path: f.Rel, Line: matches[0].Line, EndLine: matches[len(matches)-1].EndLine, Note: unchangedNote})
	return nil
}

// locate finds oldText in content: the unique match, or every occurrence
// when all is set. newText lets the fuzzy tiers refuse an edit that is
// already applied or changes only what they ignore.
func locate(content []byte, oldText, newText string, all bool, opt matcher.Options, edit string) ([]matcher.Match, error) {
	opt.NewText = newText
	if all {
		ms, err := matcher.FindAll(content, oldText, opt)
		if err != nil {
			return nil, matchError(err, "", edit, "old text")
		}
		return ms, nil
	}
	m, err := matcher.Find(content, oldText, opt)
	if err != nil {
		e := matchError(err, "", edit, "old text")
		if CodeOf(e) == CodeAmbiguous {
			e.(*Error).Msg += "; or replace every one: replaceAll (replace_all in multi_edit, --all for graft edit)"
		}
		return nil, e
	}
	return []matcher.Match{m}, nil
}

// stringChanges returns the changes that replace each match with newText,
// adapted to the match (re-indented by the matcher) and given the line
// endings of the place it lands: the old text's own first line ending,
// else the one line-ending policy (textedit.EOL).
func stringChanges(content []byte, matches []matcher.Match, newText, edit string) []textedit.Change {
	s := stringChanger{content: content, newText: newText, edit: edit, changes: make([]textedit.Change, 0, len(matches))}
	for i, m := range matches {
		s.add(m, len(matches)-i)
	}
	return s.changes
}

// locateAll is stringChanges of every occurrence of oldText in content
// (locate with all set), made as the matcher finds them rather than from
// a list of them: a replaceAll of every line of a big file held 750,000
// matches (80 bytes each) beside the changes made of them, the peak of
// the call.
func locateAll(content []byte, oldText, newText string, opt matcher.Options, edit string) ([]textedit.Change, error) {
	opt.NewText = newText
	s := stringChanger{content: content, newText: newText, edit: edit}
	err := matcher.FindAllFunc(content, oldText, opt, func(i, n int, m matcher.Match) {
		if i == 0 {
			s.changes = make([]textedit.Change, 0, n)
		}
		s.add(m, n-i)
	})
	if err != nil {
		return nil, matchError(err, "", edit, "old text")
	}
	return s.changes, nil
}

// stringChanger makes the change of each match of a string edit
// (stringChanges).
type stringChanger struct {
	content       []byte
	newText, edit string
	changes       []textedit.Change
	// descs is the buffer the changes' Descs ("text at line 12") are cut
	// from, a chunk at a time rather than one allocation each.
	descs []byte
}

// add appends the change of m; left is how many matches are left, m
// included (the size of the next chunk of Descs).
func (s *stringChanger) add(m matcher.Match, left int) {
	const descPrefix = "text at line "
	const descMax = len(descPrefix) + 20 // and a line number
	eol := textedit.EOLOf(spanFirstLine(s.content[m.Start:m.End]))
	if eol == "" {
		eol = textedit.EOL(s.content, m.Start)
	}
	if cap(s.descs)-len(s.descs) < descMax {
		s.descs = make([]byte, 0, min(64<<10, left*descMax))
	}
	at := len(s.descs)
	s.descs = strconv.AppendInt(append(s.descs, descPrefix...), int64(m.Line), 10)
	s.changes = append(s.changes, textedit.Change{Start: m.Start, End: m.End, New: textedit.WithEOL(m.Adapt(s.newText), eol),
		Edit: s.edit, Desc: unsafe.String(&s.descs[at], len(s.descs)-at),
		Line: m.Line, EndLine: m.EndLine, Method: string(m.Tier), Similarity: m.Similarity})
}

// spanFirstLine returns the span up to and including its first line break.
func spanFirstLine(span []byte) []byte {
	if i := bytes.IndexByte(span, '\n'); i >= 0 {
		return span[:i+1]
	}
	return nil
}

// EditContent is the edit tool's path in memory: it locates oldText in
// content (exactly, then fuzzily unless opt.ExactOnly), replaces it — or
// every occurrence when replaceAll — with newText adapted to the match and
// to the file's line endings, and returns the new content and the matches.
// Errors are *Error values with CodeTextNotFound, CodeAmbiguous or
// CodeInvalid.
func EditContent(content []byte, oldText, newText string, replaceAll bool, opt matcher.Options) ([]byte, []matcher.Match, error) {
	if oldText == newText {
		return nil, nil, invalidf("", "", "old and new strings are identical")
	}
	if oldText == "" {
		return nil, nil, invalidf("", "", "old text is empty")
	}
	ms, err := locate(content, oldText, newText, replaceAll, opt, "")
	if err != nil {
		return nil, nil, err
	}
	out, err := textedit.Splice(content, stringChanges(content, ms, newText, ""))
	return out, ms, err
}

func short(id string) string { return id[:min(len(id), 12)] }
