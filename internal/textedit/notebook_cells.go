package textedit

import (
	"crypto/rand"
	"encoding/hex"
	"strings"
)

// The changes of a notebook's JSON that add, delete or retype a cell.
// Each is one change of the file's bytes (after any prefix), laid out in
// the file's own indentation and line breaks, keys in the order Jupyter
// writes them; every other byte is kept.

// level returns the line break and indentation of nesting depth d.
func (nb *Notebook) level(d int) string {
	if nb.Newline == "" {
		return ""
	}
	return nb.Newline + strings.Repeat(nb.Indent, d)
}

// usesLists reports whether new sources are written as lists of lines:
// as the notebook's first cell does, or as Jupyter does.
func (nb *Notebook) usesLists() bool {
	if len(nb.Cells) > 0 {
		return nb.Cells[0].list
	}
	return true
}

// NewID returns a cell id no cell of the notebook has: 8 hex digits, as
// nbformat 4.5 makes them.
func (nb *Notebook) NewID() string {
	for {
		var b [4]byte
		_, _ = rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if nb.CellIndex(id) < 0 {
			return id
		}
	}
}

// CellIndex is the number of the cell with id, or -1.
func (nb *Notebook) CellIndex(id string) int {
	for i, c := range nb.Cells {
		if c.ID == id {
			return i
		}
	}
	return -1
}

// cellJSON is a new cell object at depth 2: code cells get
// execution_count null and no outputs. metadata is the JSON of its
// metadata ("{}" for a new cell).
func (nb *Notebook) cellJSON(typ, id, metadata, source string) string {
	in, out := nb.level(3), nb.level(2)
	const sp = " "
	var keys []string
	keys = append(keys, `"cell_type":`+sp+QuoteJSON(typ))
	if typ == "code" {
		keys = append(keys, `"execution_count":`+sp+"null")
	}
	if id != "" {
		keys = append(keys, `"id":`+sp+QuoteJSON(id))
	}
	keys = append(keys, `"metadata":`+sp+metadata)
	if typ == "code" {
		keys = append(keys, `"outputs":`+sp+"[]")
	}
	keys = append(keys, `"source":`+sp+nb.sourceValue(source))
	sep := ","
	if nb.Newline == "" {
		sep = ", "
	}
	return "{" + in + strings.Join(keys, sep+in) + out + "}"
}

// sourceValue is a new source at depth 3, in the notebook's form.
func (nb *Notebook) sourceValue(src string) string {
	if !nb.usesLists() {
		return QuoteJSON(src)
	}
	if src == "" {
		return "[]"
	}
	in, out := nb.level(4), nb.level(3)
	var parts []string
	for _, l := range strings.SplitAfter(src, "\n") {
		if l != "" {
			parts = append(parts, QuoteJSON(l))
		}
	}
	sep := ","
	if nb.Newline == "" {
		sep = ", "
	}
	return "[" + in + strings.Join(parts, sep+in) + out + "]"
}

// InsertCell is the change of data that inserts a new cell before cell
// number at (at == len(Cells) appends).
func (nb *Notebook) InsertCell(at int, typ, id, source string) Change {
	cell := nb.cellJSON(typ, id, "{}", source)
	sep := ","
	if nb.Newline == "" {
		sep = ", "
	}
	switch {
	case len(nb.Cells) == 0:
		return Change{Start: nb.CellsStart + 1, End: nb.CellsEnd - 1, New: nb.level(2) + cell + nb.level(1)}
	case at < len(nb.Cells):
		c := nb.Cells[at]
		return Change{Start: c.ObjStart, End: c.ObjStart, New: cell + sep + nb.level(2)}
	default:
		c := nb.Cells[len(nb.Cells)-1]
		return Change{Start: c.ObjEnd, End: c.ObjEnd, New: sep + nb.level(2) + cell}
	}
}

// DeleteCell is the change of data that deletes cell number at.
func (nb *Notebook) DeleteCell(at int) Change {
	n := len(nb.Cells)
	switch {
	case n == 1:
		return Change{Start: nb.CellsStart + 1, End: nb.CellsEnd - 1}
	case at < n-1:
		return Change{Start: nb.Cells[at].ObjStart, End: nb.Cells[at+1].ObjStart}
	default:
		return Change{Start: nb.Cells[at-1].ObjEnd, End: nb.Cells[at].ObjEnd}
	}
}

// RetypeCell is the change of data that makes cell number at a cell of
// typ with source: the cell object is written again with its id and
// metadata (data's bytes of it); a code cell gets no outputs and
// execution_count null, a markdown or raw cell loses them.
func (nb *Notebook) RetypeCell(data []byte, at int, typ, source string) Change {
	c := nb.Cells[at]
	meta := "{}"
	if c.MetaStart > 0 {
		meta = string(data[c.MetaStart:c.MetaEnd])
	}
	return Change{Start: c.ObjStart, End: c.ObjEnd, New: nb.cellJSON(typ, c.ID, meta, source)}
}
