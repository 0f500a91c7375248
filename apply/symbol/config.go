package symbol

import (
	"bytes"
	"strings"

	"github.com/graftdev/graft/apply/lineedit"
	"github.com/graftdev/graft/apply/outline"
	"github.com/graftdev/graft/internal/textedit"
)

// Edits of JSON, YAML and TOML keys: replace replaces the key's value (a
// TOML table's lines under its header); insert_before, insert_after and
// delete work on the key's lines and keep the commas of JSON and of flow
// collections valid. A key sharing its line with others ({"a": 1, "b":
// 2}) is edited in place, bytewise.

func configHunks(o *outline.Outline, ix *lineedit.File, file string, s *outline.Symbol, action, content, edit string, loc textedit.Location) ([]textedit.Change, textedit.Location, error) {
	switch action {
	case "replace":
		return configReplace(o, ix, file, s, content, edit, loc)
	case "delete":
		return configDelete(o, ix, s, edit, loc)
	}
	return configInsert(o, ix, file, s, action, content, edit, loc)
}

// nextNonSpace is the offset of the first byte at or after off that is
// not white space, or len(src).
func nextNonSpace(src []byte, off int) int {
	for off < len(src) && isBlankByte(src[off]) {
		off++
	}
	return off
}

func isBlankByte(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// commaAfter is the offset of the comma following a value at end, or -1.
// Comments between them (# in TOML and YAML, // and /* */ in JSON) are
// passed over.
func commaAfter(src []byte, end int) int {
	i := nextNonSpace(src, end)
	for i < len(src) {
		switch {
		case src[i] == '#' || src[i] == '/' && i+1 < len(src) && src[i+1] == '/':
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case src[i] == '/' && i+1 < len(src) && src[i+1] == '*':
			j := bytes.Index(src[i+2:], []byte("*/"))
			if j < 0 {
				return -1
			}
			i += 2 + j + 2
		default:
			if src[i] == ',' {
				return i
			}
			return -1
		}
		i = nextNonSpace(src, i)
	}
	if i < len(src) && src[i] == ',' {
		return i
	}
	return -1
}

// commaSeparated reports whether s stands in a collection whose members
// commas separate: JSON, and the flow collections of YAML and TOML.
func commaSeparated(o *outline.Outline, src []byte, s *outline.Symbol) bool {
	if o.Language == "json" {
		return true
	}
	if p := s.Parent; p != nil && p.ValueEnd > p.ValueStart && !p.Body {
		if c := src[p.ValueStart]; c == '{' || c == '[' {
			return true
		}
	}
	return false
}

func configReplace(o *outline.Outline, ix *lineedit.File, file string, s *outline.Symbol, content, edit string, loc textedit.Location) ([]textedit.Change, textedit.Location, error) {
	src := ix.Content()
	lines := trimBlankLines(lineedit.Split(content))
	line, block, blockEnd := outline.Comments(o.Language)
	cs := commentStyle{line, block, blockEnd}
	var hunks []textedit.Change
	// A lineedit.Leading comment block replaces the key's own (or is added above
	// it) — except in a YAML block value, whose first key may have its own
	// comment, unless the content repeats the key after the comment.
	blockValue := o.Language == "yaml" && s.ValueStart != 0 && ix.LineAt(s.ValueStart) > s.Line
	var comment []string
	n := 0
	for n < len(lines) && cs.starts(lines[n:]) {
		n++
	}
	if n > 0 && (!blockValue || n < len(lines) && s.ValueStart > s.Start &&
		strings.HasPrefix(strings.TrimSpace(lines[n]), strings.TrimSpace(string(src[s.Start:s.ValueStart])))) {
		comment, lines = lines[:n], lines[n:]
	}
	lines = trimBlankLines(lines)
	if len(comment) > 0 {
		if s.Shared {
			return nil, loc, invalidf("", edit, "%s shares line %d with other keys: a comment cannot go above it", s.Path(), s.Line)
		}
		comment = shiftLines(comment, lineedit.Leading(comment[0]), lineedit.Leading(string(ix.Text(s.Line))))
		if s.CommentLine > 0 {
			hunks = append(hunks, lineedit.Range(ix, s.CommentLine, s.Line-1, comment, edit))
			loc.Line = s.CommentLine
		} else {
			hunks = append(hunks, lineedit.InsertAfter(ix, s.Line-1, comment, edit))
		}
	}
	if len(lines) == 0 {
		if len(comment) > 0 {
			return hunks, loc, nil
		}
		return nil, loc, invalidf("", edit, "content is empty: give the new value of %s, or use action delete", s.Path())
	}
	if s.Body {
		// A TOML table: the lines under its header.
		if h := strings.TrimSpace(lines[0]); h == strings.TrimSpace(string(ix.Text(s.Line))) {
			lines = trimBlankLines(lines[1:])
		}
		ind := lineedit.Leading(string(ix.Text(s.Line)))
		if len(lines) > 0 {
			lines = shiftLines(lines, lineedit.Leading(lines[0]), ind)
		}
		if s.EndLine > s.Line {
			if len(lines) == 0 {
				return append(hunks, lineedit.Range(ix, s.Line+1, s.EndLine, nil, edit)), loc, nil
			}
			return append(hunks, lineedit.Range(ix, s.Line+1, s.EndLine, lines, edit)), loc, nil
		}
		if len(lines) == 0 {
			return nil, loc, invalidf("", edit, "content is empty: give the keys of table %s", s.Path())
		}
		return append(hunks, lineedit.InsertAfter(ix, s.Line, lines, edit)), loc, nil
	}
	if commaSeparated(o, src, s) {
		// A value never ends with its separator; the file has its own.
		last := len(lines) - 1
		lines[last] = strings.TrimSuffix(strings.TrimRight(lines[last], " \t"), ",")
	}
	// The model may send the whole "key": value; the key is not repeated.
	if s.ValueStart > s.Start {
		key := strings.TrimSpace(string(src[s.Start:s.ValueStart]))
		if first := strings.TrimSpace(lines[0]); key != "" && strings.HasPrefix(first, key) {
			lines[0] = strings.TrimSpace(first[len(key):])
			if lines[0] == "" {
				lines = trimBlankLines(lines[1:])
				if len(lines) == 0 {
					return nil, loc, invalidf("", edit, "content has the key %s but no value", key)
				}
			}
		}
	}
	keyIndent := lineedit.Leading(string(ix.Text(s.Line)))
	eol := lineedit.EOLNear(ix.Index, s.Line)
	start, end := s.ValueStart, s.ValueEnd
	if start == 0 && end == 0 {
		// A YAML key without a value ("key:"): the value goes after it.
		start, end = s.End, s.End
	}
	first := strings.TrimSpace(lines[0])
	var value string
	// A YAML value on the lines below its key: those lines are replaced.
	below := o.Language == "yaml" && s.ValueStart != 0 && ix.LineAt(s.ValueStart) > s.Line &&
		len(bytes.TrimSpace(src[ix.Start(ix.LineAt(s.ValueStart)):s.ValueStart])) == 0
	switch {
	case below && !strings.HasPrefix(first, "|") && !strings.HasPrefix(first, ">"):
		ind := lineedit.Leading(string(ix.Text(ix.LineAt(s.ValueStart))))
		if rest, _ := lineedit.BaseIndent(lines[1:]); len(lines) > 1 && lineedit.Leading(lines[0]) == "" && len(rest) > len(ind) {
			// The value as the file has it, cut at its first byte: the
			// first line stood at the value's indentation.
			lines = append([]string{ind + lines[0]}, lines[1:]...)
		}
		base := lineedit.Leading(lines[0])
		if len(lines) > 1 {
			base, _ = lineedit.BaseIndent(lines)
		}
		start = ix.Start(ix.LineAt(s.ValueStart))
		value = strings.Join(shiftLines(lines, base, ind), eol)
	case len(lines) > 1 && compactYAML(o, src, s):
		// A YAML collection starting on its key's (or dash's) line: the
		// first line stays there, the others keep their offset from it.
		value = strings.Join(compactLines(ix, s, lines), eol)
	case len(lines) == 1:
		value = first
	case o.Language == "yaml" && !strings.ContainsRune("{[\"'", rune(first[0])) &&
		(yamlCollectionLine(first) || strings.HasPrefix(first, "|") || strings.HasPrefix(first, ">")):
		// A YAML block value where a value stood on the key's line (or a
		// block scalar): its lines go under the key, one level deeper.
		ind := keyIndent + "  "
		if s.ValueStart != 0 && ix.LineAt(s.ValueStart) > s.Line {
			ind = lineedit.Leading(string(ix.Text(ix.LineAt(s.ValueStart))))
		}
		head := ""
		body := lines
		if strings.HasPrefix(first, "|") || strings.HasPrefix(first, ">") {
			head, body = " "+first, lines[1:]
		}
		if len(body) > 0 {
			base, _ := lineedit.BaseIndent(body)
			body = shiftLines(body, base, ind)
		}
		at, ok := yamlValueStart(src, start)
		if !ok {
			return nil, loc, invalidf("", edit, "cannot place a block value after %s: something stands between the key and its value", s.Path())
		}
		start = at
		value = head + eol + strings.Join(body, eol)
	default:
		// A collection over several lines: its continuation lines are
		// moved so that the least indented (the closing bracket) stands
		// where the old value's did. Other values (multi-line strings) go
		// in as written.
		first = strings.TrimLeft(lines[0], " \t")
		out := append([]string{first}, lines[1:]...)
		if strings.HasPrefix(first, "{") || strings.HasPrefix(first, "[") {
			// Where the old value's continuation lines stood, else at
			// the key's indentation.
			target := keyIndent
			if old := lineedit.Split(string(src[s.ValueStart:s.ValueEnd])); len(old) > 1 {
				target, _ = lineedit.BaseIndent(old[1:])
			}
			base, _ := lineedit.BaseIndent(lines[1:])
			rest := shiftLines(lines[1:], base, target)
			out = append([]string{first}, rest...)
		}
		value = strings.Join(out, eol)
	}
	return append(hunks, textedit.Change{Start: start, End: end, New: value, Edit: edit, Desc: "value of " + s.Path()}), loc, nil
}

// compactYAML reports whether s is a YAML block collection that starts on
// its key's or its dash's line ("- run: x" then "  env: y").
func compactYAML(o *outline.Outline, src []byte, s *outline.Symbol) bool {
	if o.Language != "yaml" || s.ValueEnd <= s.ValueStart {
		return false
	}
	return len(s.Children) > 0 && !strings.ContainsRune("{[|>\"'", rune(src[s.ValueStart]))
}

// yamlCollectionLine reports whether a line starts a YAML block mapping
// or sequence ("key: value", "key:", "- item").
func yamlCollectionLine(line string) bool {
	return strings.HasPrefix(line, "- ") || line == "-" || strings.Contains(line, ": ") || strings.HasSuffix(line, ":")
}

// compactLines places the lines of a compact YAML value: the first one
// (its dash dropped when the symbol is a list item, the file has one) at
// the value's place, the others at the value's column plus their offset
// from the first — or, for lines sent as the file has them (at or right
// of the value's column, the first line cut at the value), where they are.
func compactLines(ix *lineedit.File, s *outline.Symbol, lines []string) []string {
	col := s.ValueStart - ix.Start(ix.LineAt(s.ValueStart))
	first := lines[0]
	c0 := len(lineedit.Leading(first))
	first = strings.TrimLeft(first, " \t")
	if strings.HasPrefix(first, "- ") && strings.HasPrefix(s.Name, "[") {
		first = strings.TrimSpace(first[2:])
		c0 += 2
	}
	rest := lines[1:]
	base, _ := lineedit.BaseIndent(rest)
	if c0 == 0 && len(base) >= col {
		c0 = col
	}
	out := []string{first}
	for _, l := range rest {
		if strings.TrimSpace(l) == "" {
			out = append(out, "")
			continue
		}
		n := col + len(lineedit.Leading(l)) - c0
		out = append(out, strings.Repeat(" ", max(n, col))+strings.TrimLeft(l, " \t"))
	}
	return out
}

// yamlValueStart is the offset just after a YAML key's colon (or an
// item's dash) when only white space stands between it and start.
func yamlValueStart(src []byte, start int) (int, bool) {
	i := start
	for i > 0 && isBlankByte(src[i-1]) {
		i--
	}
	if i > 0 && (src[i-1] == ':' || src[i-1] == '-') {
		return i, true
	}
	return start, false
}

func configDelete(o *outline.Outline, ix *lineedit.File, s *outline.Symbol, edit string, loc textedit.Location) ([]textedit.Change, textedit.Location, error) {
	src := ix.Content()
	prev, _ := neighbours(o, ix, s)
	if prev == nil {
		// neighbours skips a sibling on the same line; a bytewise delete
		// needs it.
		sib := siblings(o, s)
		for i, x := range sib {
			if x == s && i > 0 {
				prev = sib[i-1]
			}
		}
	}
	comma := commaSeparated(o, src, s)
	if s.Shared {
		if !comma {
			return nil, loc, invalidf("", edit, "%s shares line %d with other content: edit its parent, or use edit", s.Path(), s.Line)
		}
		if c := commaAfter(src, s.End); c >= 0 {
			return []textedit.Change{{Start: s.Start, End: nextNonSpaceInLine(src, c+1), Edit: edit, Desc: "delete " + s.Path()}}, loc, nil
		}
		if prev != nil {
			if c := commaAfter(src, prev.End); c >= 0 {
				return []textedit.Change{{Start: c, End: s.End, Edit: edit, Desc: "delete " + s.Path()}}, loc, nil
			}
		}
		return []textedit.Change{{Start: s.Start, End: s.End, Edit: edit, Desc: "delete " + s.Path()}}, loc, nil
	}
	first, last := deletedLines(o, ix, s)
	loc.Line, loc.EndLine = first, last
	hunks := []textedit.Change{lineedit.Range(ix, first, last, nil, edit)}
	if c := commaAfter(src, s.End); comma && c >= ix.End(last) {
		// The member's comma stands on a later line (lineedit.Leading commas).
		hunks = append(hunks, textedit.Change{Start: c, End: c + 1, Edit: edit, Desc: "comma after " + s.Path()})
	}
	if comma && commaAfter(src, s.End) < 0 && prev != nil {
		// The last member goes: the one before it loses its comma.
		if c := commaAfter(src, prev.End); c >= 0 && c < ix.Start(first) {
			hunks = append(hunks, textedit.Change{Start: c, End: c + 1, Edit: edit, Desc: "comma after " + prev.Path()})
		}
	}
	return hunks, loc, nil
}

// nextNonSpaceInLine skips spaces and tabs from off.
func nextNonSpaceInLine(src []byte, off int) int {
	for off < len(src) && (src[off] == ' ' || src[off] == '\t') {
		off++
	}
	return off
}

func configInsert(o *outline.Outline, ix *lineedit.File, file string, s *outline.Symbol, action, content, edit string, loc textedit.Location) ([]textedit.Change, textedit.Location, error) {
	src := ix.Content()
	lines := trimBlankLines(lineedit.Split(content))
	comma := commaSeparated(o, src, s)
	if comma && len(lines) > 0 {
		lines[len(lines)-1] = strings.TrimSuffix(strings.TrimRight(lines[len(lines)-1], " \t"), ",")
	}
	if s.Shared {
		if !comma || len(lines) != 1 {
			return nil, loc, invalidf("", edit, "%s shares line %d with other content: only one line can go beside it, in a comma-separated collection", s.Path(), s.Line)
		}
		text := strings.TrimSpace(lines[0])
		if action == "insert_after" {
			return []textedit.Change{{Start: s.End, End: s.End, New: ", " + text, Edit: edit, Desc: "after " + s.Path()}}, loc, nil
		}
		return []textedit.Change{{Start: s.Start, End: s.Start, New: text + ", ", Edit: edit, Desc: "before " + s.Path()}}, loc, nil
	}
	sep := separation(o, ix, s, nil, action == "insert_before")
	blank := make([]string, sep)
	top := TopLine(s)
	lines, loc.Reindented = reindentTo(lines, file, o.Language, ix, s.Line, s.Line-1, s)
	if action == "insert_before" {
		if comma {
			lines[len(lines)-1] += ","
		}
		loc.Line, loc.EndLine = top, top
		return []textedit.Change{lineedit.InsertAfter(ix, top-1, append(lines, blank...), edit)}, loc, nil
	}
	var hunks []textedit.Change
	if comma {
		if commaAfter(src, s.End) >= 0 {
			lines[len(lines)-1] += ","
		} else {
			hunks = append(hunks, textedit.Change{Start: s.End, End: s.End, New: ",", Edit: edit, Desc: "comma after " + s.Path()})
		}
	}
	loc.Line, loc.EndLine = s.EndLine, s.EndLine
	return append(hunks, lineedit.InsertAfter(ix, s.EndLine, append(blank, lines...), edit)), loc, nil
}
