package textedit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/graftdev/graft/internal/jsonstr"
)

// A Jupyter notebook (.ipynb, nbformat 4) is read, located in and changed
// through its "percent" script form, as jupytext writes it: each cell a
// header line ("# %% [markdown] id=intro", "# %% id=calc" for code,
// "# %% [raw]") followed by its source lines, cells apart by a blank line.
// The header lines, the blank lines and the newline that ends a source
// without one belong to the view, not to any cell: a change that touches
// them is refused. A change inside one cell's source becomes the change
// of that cell's "source" value in the JSON, re-encoded in the form the
// file had (one string, or a list of lines laid out as the list was), so
// every other byte of the file (other cells, outputs, metadata, key order,
// indentation, the final newline) is kept by construction.

// Cell is one cell of a notebook as its view shows it.
type Cell struct {
	// Index is the cell's number, from 0.
	Index int
	// Type is "code", "markdown" or "raw"; ID the cell's id ("" without).
	Type, ID string
	// Source is the cell's source.
	Source string
	// Header is the text offset of the cell's header line; SrcStart and
	// SrcEnd the source's span in the text. Eol is 1 when the view adds a
	// newline after a source that does not end with one.
	Header, SrcStart, SrcEnd, Eol int
	// Obj is the cell object's span in the file; Val the source value's.
	ObjStart, ObjEnd, ValStart, ValEnd int
	// TypeStart and TypeEnd span the cell_type value in the file.
	TypeStart, TypeEnd int
	// MetaStart and MetaEnd span the metadata value (0 without).
	MetaStart, MetaEnd int
	list               bool
}

// Notebook is the structure of a notebook file the view was made from.
type Notebook struct {
	Cells []Cell
	// Minor is nbformat_minor; CellsStart and CellsEnd span the cells
	// array's brackets ([ at CellsStart, ] at CellsEnd-1).
	Minor                int
	CellsStart, CellsEnd int
	// Indent is one level of the file's indentation ("" for a file on one
	// line); Newline the line break its layout uses.
	Indent, Newline string
}

// UsesIDs reports whether new cells get an id: nbformat 4.5 or later, or
// a cell that has one.
func (nb *Notebook) UsesIDs() bool {
	if nb.Minor >= 5 {
		return true
	}
	for _, c := range nb.Cells {
		if c.ID != "" {
			return true
		}
	}
	return false
}

// IsNotebookPath reports whether a path names a Jupyter notebook.
func IsNotebookPath(path string) bool {
	const ext = ".ipynb"
	return len(path) >= len(ext) && strings.EqualFold(path[len(path)-len(ext):], ext)
}

// NotebookView returns the view of a notebook file: its text is the
// percent form. It fails when data is not a valid nbformat 4 notebook.
func NotebookView(data []byte) (View, error) {
	nb, err := ParseNotebook(data)
	if err != nil {
		return View{}, err
	}
	var text []byte
	for i := range nb.Cells {
		c := &nb.Cells[i]
		if i > 0 {
			text = append(text, '\n')
		}
		c.Header = len(text)
		text = append(text, "# %%"...)
		if c.Type != "code" {
			text = append(text, " ["+c.Type+"]"...)
		}
		if c.ID != "" {
			text = append(text, " id="+c.ID...)
		}
		text = append(text, '\n')
		c.SrcStart = len(text)
		text = append(text, c.Source...)
		c.SrcEnd = len(text)
		if c.Source != "" && !strings.HasSuffix(c.Source, "\n") {
			text = append(text, '\n')
			c.Eol = 1
		}
	}
	return View{Text: text, body: data, nb: nb}, nil
}

// Notebook returns the notebook the view was made from, or nil.
func (v View) Notebook() *Notebook { return v.nb }

// ParseNotebook reads the structure of a notebook: it fails, saying
// why, unless data is valid JSON of nbformat 4 whose cells each have a
// cell_type of code, markdown or raw and a source.
func ParseNotebook(data []byte) (*Notebook, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("not valid UTF-8")
	}
	s := &scanner{data: data}
	nb := &Notebook{Newline: "\n", CellsStart: -1}
	if s.peek() != '{' {
		return nil, errors.New("not a JSON object")
	}
	major := -1
	first := true
	err := s.members(func(key string, ks int) error {
		if first {
			first = false
			nb.Indent, nb.Newline = layoutBefore(data, ks)
		}
		switch key {
		case "cells":
			if s.peek() != '[' {
				return errors.New(`"cells" is not a list`)
			}
			nb.CellsStart = s.i
			s.i++
			if s.peek() == ']' {
				s.i++
				nb.CellsEnd = s.i
				return nil
			}
			for {
				c, err := parseCell(s, len(nb.Cells))
				if err != nil {
					return err
				}
				nb.Cells = append(nb.Cells, c)
				if s.peek() == ',' {
					s.i++
					continue
				}
				if err := s.expect(']'); err != nil {
					return err
				}
				nb.CellsEnd = s.i
				return nil
			}
		case "nbformat", "nbformat_minor":
			vs, ve, err := s.value(1)
			if err != nil {
				return err
			}
			n, err := strconv.Atoi(string(data[vs:ve]))
			if err != nil {
				return fmt.Errorf("%q is not a whole number", key)
			}
			if key == "nbformat" {
				major = n
			} else {
				nb.Minor = n
			}
			return nil
		}
		_, _, err := s.value(1)
		return err
	})
	if err != nil {
		return nil, err
	}
	if s.peek() != 0 {
		return nil, s.errorf("data after the notebook's object")
	}
	if major != 4 {
		return nil, fmt.Errorf("nbformat is %d, not 4", major)
	}
	if nb.CellsStart < 0 {
		return nil, errors.New(`no "cells" list`)
	}
	return nb, nil
}

// layoutBefore reads the whitespace before data[at]: the line break and
// the indentation of one level (the root's keys are one level deep).
func layoutBefore(data []byte, at int) (indent, newline string) {
	i := at
	for i > 0 && (data[i-1] == ' ' || data[i-1] == '\t') {
		i--
	}
	indent = string(data[i:at])
	newline = "\n"
	if i >= 2 && data[i-1] == '\n' && data[i-2] == '\r' {
		newline = "\r\n"
	} else if i == 0 || data[i-1] != '\n' {
		newline, indent = "", ""
	}
	return indent, newline
}

// sourceOf decodes a source value (valid JSON): a string, or a list of
// strings joined.
func sourceOf(raw []byte) (src string, list, ok bool) {
	if raw[0] == '"' {
		src, ok = jsonstr.Unquote(raw)
		return src, false, ok
	}
	if raw[0] != '[' {
		return "", false, false
	}
	var b strings.Builder
	s := &scanner{data: raw, i: 1}
	if s.peek() == ']' {
		return "", true, true
	}
	for {
		ls, le, err := s.str()
		if err != nil {
			return "", false, false
		}
		line, ok := jsonstr.Unquote(raw[ls:le])
		if !ok {
			return "", false, false
		}
		b.WriteString(line)
		if s.peek() != ',' {
			return b.String(), true, true
		}
		s.i++
	}
}

func parseCell(s *scanner, i int) (Cell, error) {
	c := Cell{Index: i, ValStart: -1, TypeStart: -1}
	if s.peek() != '{' {
		return c, fmt.Errorf("cell %d is not an object", i)
	}
	c.ObjStart = s.i
	data := s.data
	err := s.members(func(key string, _ int) error {
		start, end, err := s.value(3)
		if err != nil {
			return err
		}
		raw := data[start:end]
		switch key {
		case "cell_type":
			if json.Unmarshal(raw, &c.Type) != nil {
				return fmt.Errorf("cell %d: cell_type is not a string", i)
			}
			c.TypeStart, c.TypeEnd = start, end
		case "metadata":
			c.MetaStart, c.MetaEnd = start, end
		case "id":
			if json.Unmarshal(raw, &c.ID) != nil || strings.ContainsAny(c.ID, " \t\r\n") {
				return fmt.Errorf("cell %d: id is not a string without spaces", i)
			}
		case "source":
			c.ValStart, c.ValEnd = start, end
			src, list, ok := sourceOf(raw)
			if !ok {
				return fmt.Errorf("cell %d: source is neither a string nor a list of strings", i)
			}
			c.Source, c.list = src, list
		}
		return nil
	})
	if err != nil {
		return c, err
	}
	c.ObjEnd = s.i
	switch {
	case c.TypeStart < 0:
		return c, fmt.Errorf("cell %d has no cell_type", i)
	case c.Type != "code" && c.Type != "markdown" && c.Type != "raw":
		return c, fmt.Errorf("cell %d: cell_type %q is not code, markdown or raw", i, c.Type)
	case c.ValStart < 0:
		return c, fmt.Errorf("cell %d has no source", i)
	}
	return c, nil
}

// notebookBytes is Bytes for a notebook view: the changes of each cell's
// source become one change of that cell's source value in the file.
func (v View) notebookBytes(changes []Change) ([]Change, error) {
	var out []Change
	cells := v.nb.Cells
	// A change that does not fit in one cell's source (a whole view sent
	// back) is narrowed to the text it really changes.
	for i := range changes {
		if !v.fits(changes[i]) {
			changes[i] = v.narrow(changes[i])
		}
	}
	k := 0
	for i := 0; i < len(changes); {
		c := changes[i]
		for k < len(cells) && cells[k].SrcEnd+cells[k].Eol < c.Start {
			k++
		}
		if k == len(cells) || c.Start < cells[k].SrcStart || c.End > cells[k].SrcEnd+cells[k].Eol {
			return nil, v.nbRefusal(c)
		}
		cell := &cells[k]
		// Every change in this cell, applied to its source as the view
		// shows it (with the newline the view adds).
		shown := cell.Source + strings.Repeat("\n", cell.Eol)
		var b strings.Builder
		at := cell.SrcStart
		j := i
		for ; j < len(changes) && changes[j].Start <= cell.SrcEnd+cell.Eol; j++ {
			d := changes[j]
			if d.End > cell.SrcEnd+cell.Eol || d.Start < at {
				return nil, v.nbRefusal(d)
			}
			if !utf8.ValidString(d.New) {
				return nil, &Error{Code: CodeInvalid, Edit: d.Edit, Msg: fmt.Sprintf("%s: the new text is not valid UTF-8, which a notebook cannot hold", orChange(d.Label()))}
			}
			b.WriteString(shown[at-cell.SrcStart : d.Start-cell.SrcStart])
			b.WriteString(d.New)
			at = d.End
		}
		b.WriteString(shown[at-cell.SrcStart:])
		src := b.String()
		if cell.Eol == 1 {
			src = strings.TrimSuffix(src, "\n")
		}
		first := changes[i]
		// The lines any of the cell's changes dropped unshown, each
		// change's in the view's lines, as they were named.
		var dropped []string
		for _, d := range changes[i:j] {
			if d.Dropped != "" {
				dropped = append(dropped, d.Dropped)
			}
		}
		out = append(out, Change{Start: len(v.Prefix) + cell.ValStart, End: len(v.Prefix) + cell.ValEnd,
			New: v.nb.SourceJSON(v.body, cell, src), Edit: first.Edit, Desc: first.Desc,
			Line: first.Line, EndLine: first.EndLine, Method: first.Method, Similarity: first.Similarity, Reindented: first.Reindented, Symbol: first.Symbol,
			Dropped: strings.Join(dropped, ", ")})
		i = j
	}
	return out, nil
}

// fits reports whether c lies inside one cell's source as the view
// shows it.
func (v View) fits(c Change) bool {
	cells := v.nb.Cells
	k := sort.Search(len(cells), func(k int) bool { return cells[k].SrcEnd+cells[k].Eol >= c.Start })
	return k < len(cells) && c.Start >= cells[k].SrcStart && c.End <= cells[k].SrcEnd+cells[k].Eol
}

// narrow drops from c the text at its ends that its new text keeps.
func (v View) narrow(c Change) Change {
	for c.Start < c.End && c.New != "" && v.Text[c.Start] == c.New[0] {
		c.Start++
		c.New = c.New[1:]
	}
	for c.Start < c.End && c.New != "" && v.Text[c.End-1] == c.New[len(c.New)-1] {
		c.End--
		c.New = c.New[:len(c.New)-1]
	}
	return c
}

func (v View) nbRefusal(c Change) *Error {
	line := 1 + bytes.Count(v.Text[:min(c.Start, len(v.Text))], []byte("\n"))
	return &Error{Code: CodeInvalid, Edit: c.Edit, Msg: fmt.Sprintf(
		"%s (line %d of the notebook's view) changes a cell header line or spans two cells: an edit of a notebook changes the source of one cell; "+
			"to add, delete or retype a cell, or to change several cells, use notebook_edit (or one edit per cell)", orChange(c.Label()), line)}
}

// SourceJSON is the JSON value of a new source for cell, in the form its
// old value had in data: a string, or a list of lines laid out as the
// old list was.
func (nb *Notebook) SourceJSON(data []byte, cell *Cell, src string) string {
	if !cell.list {
		return QuoteJSON(src)
	}
	old := data[cell.ValStart:cell.ValEnd]
	// The whitespace after "[" and before "]" of the old list.
	open, close := "", ""
	if i := 1; len(old) > 2 {
		for i < len(old) && isSpace(old[i]) {
			i++
		}
		open = string(old[1:i])
		j := len(old) - 1
		for j > 0 && isSpace(old[j-1]) {
			j--
		}
		close = string(old[j : len(old)-1])
	}
	if open == "" && nb.Newline != "" && len(old) <= 2 {
		// An empty list: the layout of the file's levels (a source value
		// sits four levels deep: root, cells, cell, its items).
		ind := lineIndent(data, cell.ValStart)
		open, close = nb.Newline+ind+nb.Indent, nb.Newline+ind
	}
	if src == "" {
		return "[]"
	}
	sep := "," + open
	if open == "" && bytes.Contains(old, []byte(`", "`)) {
		sep = ", "
	}
	var b strings.Builder
	b.WriteString("[" + open)
	for i, line := range strings.SplitAfter(src, "\n") {
		if line == "" {
			continue
		}
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(QuoteJSON(line))
	}
	b.WriteString(close + "]")
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// lineIndent is the indentation of the line that holds data[at].
func lineIndent(data []byte, at int) string {
	i := bytes.LastIndexByte(data[:at], '\n') + 1
	j := i
	for j < at && (data[j] == ' ' || data[j] == '\t') {
		j++
	}
	return string(data[i:j])
}

// QuoteJSON returns s as a JSON string the way Jupyter writes one: only
// the quote, the backslash and control characters escaped, every other
// character as it is.
func QuoteJSON(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteString(strconv.FormatInt(int64(c)>>4, 16))
				b.WriteString(strconv.FormatInt(int64(c)&15, 16))
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// notebookEncode is Encode for a notebook view: the new text, compared
// with the view's, must differ only inside one cell's source (or several
// cells', each change apart), and the file's bytes are changed there.
func (v View) notebookEncode(text []byte) ([]byte, error) {
	a := v.Text
	p := 0
	for p < len(a) && p < len(text) && a[p] == text[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(text)-p && a[len(a)-1-q] == text[len(text)-1-q] {
		q++
	}
	c := Change{Start: p, End: len(a) - q, New: string(text[p : len(text)-q]), Desc: "the new content"}
	if c.Start == c.End && c.New == "" {
		return append(append([]byte(nil), v.Prefix...), v.body...), nil
	}
	cs, err := v.notebookBytes([]Change{c})
	if err != nil {
		return nil, err
	}
	return Splice(append(append([]byte(nil), v.Prefix...), v.body...), cs)
}
