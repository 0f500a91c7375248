package apply

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/internal/textedit"
)

func init() {
	Register(NewTool("replace_in_file", replaceInFileDescription, runReplaceInFile).TuneInput(func(in *Schema) {
		in.Properties["replacements"].Items.Properties["type"].Enum =
			[]any{"lines", "insert_before", "insert_after", "string", "regex"}
	}))
	Register(NewTool("edit_lines", editLinesDescription, runEditLines).TuneInput(func(in *Schema) {
		in.Properties["command"].Enum = []any{"replace", "insert", "delete"}
	}))
}

const replaceInFileDescription = `Make several changes to one file in one call, all or nothing. Line numbers and patterns refer to the
file before the call (no shifting). Types: lines (startLine..endLine become replaceWith; empty
deletes), insert_before / insert_after (insertText next to lineNumber), string (every searchFor,
literally), regex (RE2 searchFor; $1, $<name>, $& in replaceWith). Overlapping operations are
refused.`

// ReplaceInFileRequest is the input of replace_in_file.
type ReplaceInFileRequest struct {
	FilePath     string        `json:"filePath" jsonschema:"the file to change"`
	Replacements []Replacement `json:"replacements" jsonschema:"the operations, all against the file as it is before the call"`
	Common
}

// Replacement is one replace_in_file operation.
type Replacement struct {
	Type        string  `json:"type" jsonschema:"lines, insert_before, insert_after, string or regex"`
	StartLine   int     `json:"startLine,omitempty" jsonschema:"lines: first line to replace (1-based)"`
	EndLine     int     `json:"endLine,omitempty" jsonschema:"lines: last line to replace (inclusive)"`
	LineNumber  int     `json:"lineNumber,omitempty" jsonschema:"insert_before/insert_after: the line to insert next to (1-based)"`
	InsertText  *string `json:"insertText,omitempty" jsonschema:"insert_before/insert_after: the text to insert"`
	SearchFor   string  `json:"searchFor,omitempty" jsonschema:"string/regex: the text or RE2 pattern to find"`
	ReplaceWith *string `json:"replaceWith,omitempty" jsonschema:"lines/string/regex: the new text; empty deletes"`
}

func runReplaceInFile(ctx context.Context, e *Engine, req *ReplaceInFileRequest) (*Landing, error) {
	if len(req.Replacements) == 0 {
		return nil, invalidf(req.FilePath, "", "replacements is empty")
	}
	tx := e.Begin("replace_in_file", req.DryRun)
	f, err := tx.Open(req.FilePath, "", false)
	if err != nil {
		return nil, err
	}
	sv, err := tx.since(f, req.Version, "")
	if err != nil {
		return nil, err
	}
	ix := lineedit.NewFile(f.Text())
	var changes []textedit.Change
	for i, r := range req.Replacements {
		edit := fmt.Sprintf("replacements[%d]", i)
		cs, loc, err := e.replacementChanges(ix, f.Rel, r, edit, sv)
		if err != nil {
			return nil, textedit.WithPath(err, f.Rel)
		}
		if len(cs) == 0 && loc.Method == unchangedMethod {
			tx.unchanged = append(tx.unchanged, Unchanged{Edit: edit, Path: f.Rel, Line: loc.Line, EndLine: loc.EndLine, Note: unchangedNote})
			continue
		}
		changes = append(changes, cs...)
	}
	if len(changes) == 0 && len(tx.unchanged) > 0 {
		return nil, invalidf(f.Rel, tx.unchanged[0].Edit, "searchFor and replaceWith are identical")
	}
	if err := f.Step(changes); err != nil {
		return nil, err
	}
	return tx.Land(ctx, "")
}

// unchangedMethod marks the Located of a no-op operation.
const unchangedMethod = "unchanged"

// replacementChanges reads one replace_in_file replacement as located
// changes; a no-op string replacement comes back as no change and its
// Located, marked unchangedMethod.
func (e *Engine) replacementChanges(ix *lineedit.File, file string, r Replacement, edit string, sv *sinceVersion) ([]textedit.Change, Located, error) {
	need := func(ok bool, field string) error {
		if !ok {
			return invalidf("", edit, "%s is required for type %q", field, r.Type)
		}
		return nil
	}
	lineLoc := func(first, last int, note string) Located {
		return Located{Edit: edit, Line: first, EndLine: last, Method: "lines", Similarity: 1, Reindented: note}
	}
	switch r.Type {
	case "lines":
		if err := firstErr(need(r.StartLine != 0, "startLine"), need(r.EndLine != 0, "endLine"), need(r.ReplaceWith != nil, "replaceWith")); err != nil {
			return nil, Located{}, err
		}
		first, last, err := sv.lines(r.StartLine, r.EndLine, edit)
		if err != nil {
			return nil, Located{}, err
		}
		h, note, err := lineedit.Replace(ix, file, first, last, *r.ReplaceWith, edit, lineedit.Plan{})
		if err != nil {
			return nil, Located{}, err
		}
		return []textedit.Change{h.Located(lineLoc(first, last, note))}, Located{}, nil
	case "insert_before", "insert_after":
		if err := firstErr(need(r.LineNumber != 0, "lineNumber"), need(r.InsertText != nil, "insertText")); err != nil {
			return nil, Located{}, err
		}
		n, _, err := sv.lines(r.LineNumber, r.LineNumber, edit)
		if err != nil {
			return nil, Located{}, err
		}
		if n < 1 || n > ix.Count() {
			return nil, Located{}, invalidf("", edit, "lineNumber %d out of range: the file has %d lines", n, ix.Count())
		}
		after := n
		if r.Type == "insert_before" {
			after--
		}
		h, note, err := lineedit.Insert(ix, file, after, *r.InsertText, edit, lineedit.Plan{})
		if err != nil {
			return nil, Located{}, err
		}
		return []textedit.Change{h.Located(lineLoc(n, n, note))}, Located{}, nil
	case "string":
		if err := firstErr(need(r.SearchFor != "", "searchFor"), need(r.ReplaceWith != nil, "replaceWith")); err != nil {
			return nil, Located{}, err
		}
		if r.SearchFor == *r.ReplaceWith {
			// A no-op: its text must be found, then it is reported, not
			// applied (runReplaceInFile refuses a call of only no-ops).
			ms, err := locate(ix.Content(), r.SearchFor, "", true, e.matchOptions(0), edit)
			if err != nil {
				return nil, Located{}, sv.notFound(err, edit)
			}
			return nil, Located{Edit: edit, Line: ms[0].Line, EndLine: ms[len(ms)-1].EndLine, Method: unchangedMethod}, nil
		}
		ms, err := locate(ix.Content(), r.SearchFor, *r.ReplaceWith, true, e.matchOptions(0), edit)
		if err != nil {
			return nil, Located{}, sv.notFound(err, edit)
		}
		return stringChanges(ix.Content(), ms, *r.ReplaceWith, edit), Located{}, nil
	case "regex":
		if err := firstErr(need(r.SearchFor != "", "searchFor"), need(r.ReplaceWith != nil, "replaceWith")); err != nil {
			return nil, Located{}, err
		}
		cs, err := regexChanges(ix, r.SearchFor, *r.ReplaceWith, edit)
		return cs, Located{}, err
	case "":
		return nil, Located{}, invalidf("", edit, "type is required (lines, insert_before, insert_after, string, regex)")
	}
	return nil, Located{}, invalidf("", edit, "unknown type %q (lines, insert_before, insert_after, string, regex)", r.Type)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// regexHunks replaces every match of pattern in the content with the
// expanded template.
func regexChanges(ix *lineedit.File, pattern, template, edit string) ([]textedit.Change, error) {
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, invalidf("", edit, "invalid regex: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	matches := re.FindAllSubmatchIndex(ix.Content(), -1)
	if len(matches) == 0 {
		return nil, errorf(CodeTextNotFound, "", edit, "regex %q matches nothing in file", pattern)
	}
	var changes []textedit.Change
	for _, m := range matches {
		line := ix.LineAt(m[0])
		endLine := ix.LineAt(max(m[0], m[1]-1))
		newText := expandTemplate(re, template, ix.Content(), m)
		if newText == string(ix.Content()[m[0]:m[1]]) {
			continue
		}
		changes = append(changes, textedit.Change{Start: m[0], End: m[1], New: newText, Edit: edit, Desc: fmt.Sprintf("match at line %d", line),
			Line: line, EndLine: endLine, Method: "regex", Similarity: 1})
	}
	return changes, nil
}

// expandTemplate expands a replacement the way JavaScript's
// String.prototype.replace does, which is what models write: $$ is "$",
// $& the match, $1..$99 groups, $<name> named groups; anything else,
// including a group that does not exist, stays literal.
func expandTemplate(re *regexp.Regexp, tmpl string, src []byte, m []int) string {
	group := func(i int) string {
		if 2*i+1 >= len(m) || m[2*i] < 0 {
			return ""
		}
		return string(src[m[2*i]:m[2*i+1]])
	}
	var b strings.Builder
	for i := 0; i < len(tmpl); i++ {
		c := tmpl[i]
		if c != '$' || i+1 == len(tmpl) {
			b.WriteByte(c)
			continue
		}
		next := tmpl[i+1]
		switch {
		case next == '$':
			b.WriteByte('$')
			i++
		case next == '&':
			b.WriteString(group(0))
			i++
		case next >= '0' && next <= '9':
			// Two digits if that names a group, else one, as JS does.
			n, width := int(next-'0'), 1
			if i+2 < len(tmpl) && tmpl[i+2] >= '0' && tmpl[i+2] <= '9' {
				if nn := n*10 + int(tmpl[i+2]-'0'); nn >= 1 && nn <= re.NumSubexp() {
					n, width = nn, 2
				}
			}
			if n < 1 || n > re.NumSubexp() {
				b.WriteByte('$')
				continue
			}
			b.WriteString(group(n))
			i += width
		case next == '<':
			end := strings.IndexByte(tmpl[i+2:], '>')
			if end < 0 {
				b.WriteByte('$')
				continue
			}
			name := tmpl[i+2 : i+2+end]
			idx := re.SubexpIndex(name)
			if idx < 0 {
				b.WriteByte('$')
				continue
			}
			b.WriteString(group(idx))
			i += 2 + end
		default:
			b.WriteByte('$')
		}
	}
	return b.String()
}

const editLinesDescription = `Edit lines by number, as file_read shows them: replace or delete start_line..end_line (inclusive),
or insert new_content after insert_line (0 = top). New content whose indentation is plainly off for
where it lands is re-indented in the file's style; indent_level forces the level.`

// EditLinesRequest is the input of edit_lines.
type EditLinesRequest struct {
	Command     string  `json:"command" jsonschema:"replace, insert or delete"`
	Path        string  `json:"path" jsonschema:"the file to edit"`
	StartLine   int     `json:"start_line,omitempty" jsonschema:"replace/delete: first line (1-based)"`
	EndLine     int     `json:"end_line,omitempty" jsonschema:"replace/delete: last line; default start_line"`
	InsertLine  *int    `json:"insert_line,omitempty" jsonschema:"insert: the line after which to insert; 0 is the top of the file"`
	NewContent  *string `json:"new_content,omitempty" jsonschema:"replace/insert: the new lines"`
	IndentLevel *int    `json:"indent_level,omitempty" jsonschema:"indentation units for new_content"`
	Common
}

func runEditLines(ctx context.Context, e *Engine, req *EditLinesRequest) (*Landing, error) {
	tx := e.Begin("edit_lines", req.DryRun)
	f, err := tx.Open(req.Path, "", false)
	if err != nil {
		return nil, err
	}
	sv, err := tx.since(f, req.Version, req.Command)
	if err != nil {
		return nil, err
	}
	var plan lineedit.Plan
	if req.IndentLevel != nil {
		if *req.IndentLevel < 0 {
			return nil, invalidf(f.Rel, req.Command, "indent_level must not be negative")
		}
		plan.Forced = req.IndentLevel
	}
	ix := lineedit.NewFile(f.Text())
	end := req.EndLine
	if end == 0 {
		end = req.StartLine
	}
	var h textedit.Change
	var loc Located
	var note string
	switch req.Command {
	case "replace", "delete":
		if req.StartLine == 0 {
			return nil, invalidf(f.Rel, req.Command, "start_line is required for %s", req.Command)
		}
		text := ""
		if req.Command == "replace" {
			if req.NewContent == nil {
				return nil, invalidf(f.Rel, req.Command, "new_content is required for replace (use delete to remove lines)")
			}
			text = *req.NewContent
		}
		first, last, lerr := sv.lines(req.StartLine, end, req.Command)
		if lerr != nil {
			return nil, lerr
		}
		h, note, err = lineedit.Replace(ix, f.Rel, first, last, text, req.Command, plan)
		loc = Located{Line: first, EndLine: last, Method: "lines", Similarity: 1, Reindented: note}
	case "insert":
		if req.InsertLine == nil || req.NewContent == nil {
			return nil, invalidf(f.Rel, req.Command, "insert_line and new_content are required for insert")
		}
		after, aerr := sv.after(*req.InsertLine, req.Command)
		if aerr != nil {
			return nil, aerr
		}
		h, note, err = lineedit.Insert(ix, f.Rel, after, *req.NewContent, req.Command, plan)
		loc = Located{Line: after, EndLine: after, Method: "lines", Similarity: 1, Reindented: note}
	case "":
		return nil, invalidf(f.Rel, "", "command is required (replace, insert, delete)")
	default:
		return nil, invalidf(f.Rel, "", "unknown command %q (replace, insert, delete)", req.Command)
	}
	if err != nil {
		return nil, textedit.WithPath(err, f.Rel)
	}
	if err := f.Step([]textedit.Change{h.Located(loc)}); err != nil {
		return nil, err
	}
	return tx.Land(ctx, "")
}
