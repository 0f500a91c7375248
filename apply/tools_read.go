package apply

import (
	"context"
	"strconv"
	"strings"

	"github.com/graftdev/graft/apply/lineedit"
)

func init() {
	t := NewTool("file_read", fileReadDescription, runFileRead)
	t.ReadOnly = true
	Register(t)
}

const fileReadDescription = `Read a file as numbered lines "N: text", whole or start_line..end_line. The "N: " prefixes are not
part of the file: leave them out of text you send to edits. version identifies the content read:
pass it to an edit to have it refused if the file changed since.`

// FileReadRequest is the input of file_read.
type FileReadRequest struct {
	Path      string `json:"path" jsonschema:"the file to read"`
	StartLine int    `json:"start_line,omitempty" jsonschema:"first line to show (1-based); default 1"`
	EndLine   int    `json:"end_line,omitempty" jsonschema:"last line to show (inclusive); default the last line"`
}

// FileReadResult is the output of file_read.
type FileReadResult struct {
	Path       string `json:"path"`
	Content    string `json:"content"`
	StartLine  int    `json:"start_line"`
	EndLine    int    `json:"end_line"`
	TotalLines int    `json:"total_lines"`
	// Version is the git blob id of the whole file.
	Version string `json:"version"`
	// LineEndings is "lf", "crlf", "mixed" or "none".
	LineEndings  string `json:"line_endings"`
	FinalNewline bool   `json:"final_newline"`
	// Encoding is the file's encoding: Content is decoded from it, and
	// edits are written back in it ("UTF-8", "windows-1252", "Shift_JIS",
	// "UTF-16LE", ...; "unknown" for a file that is not UTF-8 and that
	// nothing names an encoding for: its other bytes show as U+FFFD).
	Encoding string `json:"encoding"`
	// EncodingFrom says how the encoding was determined, when it is not
	// plain UTF-8; BOM that the file starts with a byte order mark.
	EncodingFrom string `json:"encoding_from,omitempty"`
	BOM          bool   `json:"bom,omitempty"`
	// View, for a notebook, says that Content is its view, not its JSON.
	View string `json:"view,omitempty"`
}

func runFileRead(ctx context.Context, e *Engine, req *FileReadRequest) (*FileReadResult, error) {
	tx := e.Begin("file_read", true)
	f, err := tx.Open(req.Path, "", false)
	if err != nil {
		return nil, err
	}
	// Lines are shown as every tool addresses them: through the file's
	// text view, which leaves a byte order mark out (it belongs to the
	// file, not to line 1) and decodes a file that is not UTF-8.
	ix := lineedit.NewFile(f.Text())
	total := ix.Count()
	// The version is stored, so that a later edit can diff against it.
	version, err := e.store.SaveBlob(f.Old)
	if err != nil {
		e.log.Debug("version not stored", "path", f.Rel, "err", err)
		version = e.store.BlobID(f.Old)
	}
	first, last := max(req.StartLine, 1), req.EndLine
	if last == 0 || last > total {
		last = total
	}
	switch {
	case req.StartLine < 0 || req.EndLine < 0:
		return nil, invalidf(f.Rel, "", "line numbers start at 1")
	case total > 0 && first > total:
		return nil, invalidf(f.Rel, "", "start_line %d out of range: the file has %d lines", first, total)
	case req.EndLine != 0 && req.EndLine < first:
		return nil, invalidf(f.Rel, "", "end_line %d is before start_line %d", req.EndLine, first)
	}
	var b strings.Builder
	for n := first; n <= last; n++ {
		b.WriteString(strconv.Itoa(n))
		b.WriteString(": ")
		b.Write(ix.Text(n))
		b.WriteByte('\n')
	}
	res := &FileReadResult{Path: f.Rel, Content: b.String(), StartLine: first, EndLine: last,
		TotalLines: total, Version: version, LineEndings: lineEndings(ix)}
	f.resolveEncoding()
	res.Encoding, res.EncodingFrom = f.Encoding()
	if f.notebook() {
		res.View = notebookReadNote
	}
	res.BOM = len(f.view().Prefix) > 0
	if total == 0 {
		res.StartLine = 0
	}
	res.FinalNewline = total > 0 && ix.EOL(total) != ""
	return res, nil
}

func lineEndings(ix *lineedit.File) string {
	crlf, lf := 0, 0
	for n := 1; n <= ix.Count(); n++ {
		switch ix.EOL(n) {
		case "\r\n":
			crlf++
		case "\n":
			lf++
		}
	}
	switch {
	case crlf > 0 && lf > 0:
		return "mixed"
	case crlf > 0:
		return "crlf"
	case lf > 0:
		return "lf"
	}
	return "none"
}
