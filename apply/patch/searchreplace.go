package patch

import (
	"strings"
	"unicode"
)

var (
	searchRE  = lazyRegexp(`^<{5,9} ?SEARCH\s*$`)
	dividerRE = lazyRegexp(`^={5,9}\s*$`)
	replaceRE = lazyRegexp(`^>{5,9} ?REPLACE\s*$`)
)

func isSearchMarker(s string) bool { return searchRE().MatchString(s) }

// parseSearchReplace reads Aider-style blocks:
//
//	path/to/file.go
//	```go
//	<<<<<<< SEARCH
//	old lines
//	=======
//	new lines
//	>>>>>>> REPLACE
//	```
//
// The path is the nearest non-blank, non-fence line within three lines
// before the SEARCH marker (blockPath); a block without one, or after a
// line that cannot be a path, reuses the previous block's path. Each block becomes a hunk whose context and changed lines come from
// a line diff of its two sides; the blocks of one file apply in order, each
// to the result of the one before. An empty SEARCH side creates the file.
// A backslash in the path separates directories, as in the paths Aider
// writes on Windows: "src\app.js" and "src/app.js" are one file, its
// blocks applied in turn; a file whose name holds a backslash is found by
// the name as written when no file has the slashed name.
func parseSearchReplace(lines []rawLine) (*Patch, error) {
	p := &Patch{Format: SearchReplace}
	byPath := map[string]*FilePatch{}
	path := ""
	for i := 0; i < len(lines); i++ {
		if !isSearchMarker(lines[i].text) {
			if dividerRE().MatchString(lines[i].text) || replaceRE().MatchString(lines[i].text) {
				return nil, malformed(lines[i].num, "%q without a <<<<<<< SEARCH line before it", strings.TrimSpace(lines[i].text))
			}
			continue
		}
		start := lines[i].num
		name, farther := blockPath(lines, i)
		switch {
		case name != "":
			path = name
		case farther != "" && farther != path:
			// prose right before the block, a file named above it: the
			// model may mean either file
			return nil, malformed(start, "the SEARCH block's file is ambiguous: %s is named above it, but a line that names no file stands between: put the path on the line before the block", farther)
		}
		if path == "" {
			return nil, malformed(start, "SEARCH block without a file path: put the path on the line before it")
		}
		div, end := -1, -1
		for j := i + 1; j < len(lines); j++ {
			t := lines[j].text
			if div < 0 && dividerRE().MatchString(t) {
				div = j
			} else if div >= 0 && replaceRE().MatchString(t) {
				end = j
				break
			} else if isSearchMarker(t) {
				break
			}
		}
		if div < 0 {
			return nil, &failure{Kind: ErrMalformed, Path: path, PatchLine: start, Reason: "SEARCH block without a ======= line"}
		}
		if end < 0 {
			return nil, &failure{Kind: ErrMalformed, Path: path, PatchLine: start, Reason: "SEARCH block without a >>>>>>> REPLACE line"}
		}
		slashed := strings.ReplaceAll(path, `\`, "/")
		fp := byPath[slashed]
		if fp == nil {
			fp = &FilePatch{OldPath: slashed, NewPath: slashed, Sequential: true, Line: start}
			if slashed != path {
				fp.AltPaths = []string{path}
			}
			byPath[slashed] = fp
			p.Files = append(p.Files, fp)
		}
		search, replace := blockLines(lines[i+1:div]), blockLines(lines[div+1:end])
		h := &Hunk{Line: start, HeaderOld: -1, HeaderNew: -1, Lines: searchReplace(search, replace)}
		if len(search) == 0 {
			if len(fp.Hunks) > 0 || fp.IsNew {
				return nil, &failure{Kind: ErrMalformed, Path: path, Hunk: len(fp.Hunks) + 1, PatchLine: start,
					Reason: "an empty SEARCH section creates a file, so it must be the file's first block"}
			}
			fp.IsNew, fp.OldPath = true, ""
		}
		if !h.changes() {
			if len(search) == 0 {
				return nil, &failure{Kind: ErrMalformed, Path: path, Hunk: len(fp.Hunks) + 1, PatchLine: start,
					Reason: "SEARCH and REPLACE are both empty: the block changes nothing"}
			}
			// Models repeat a block they leave as it is among others that
			// change: located, reported unchanged (Hunk.Unchanged), as a
			// string edit whose old and new text are the same is.
			h.Unchanged = true
		}
		fp.Hunks = append(fp.Hunks, h)
		i = end
	}
	return p, nil
}

// blockPath finds the file path written before the SEARCH marker at i:
// the nearest non-blank, non-fence line within three lines before it,
// when that line can be a path. A line that cannot (a sentence, "...")
// names no file, and the block keeps the previous block's file, as Aider
// reads it (strip_filename in aider/coders/editblock_coder.py takes "..."
// for no name); farther is then a line above it in the three that can be
// a path, which makes the block's file ambiguous.
func blockPath(lines []rawLine, i int) (name, farther string) {
	nearest := true
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		t := strings.TrimSpace(lines[j].text)
		if t == "" || isFence(t) {
			continue
		}
		if replaceRE().MatchString(t) {
			break // the previous block
		}
		if c, ok := pathLine(t); ok && nearest {
			return c, ""
		} else if ok {
			return "", c
		}
		nearest = false
	}
	return "", ""
}

// pathLine returns the path a line before a block names (cleanPath), and
// whether it can be one: a path has no white space and has a letter or a
// digit, so a sentence or a line of punctuation ("...", "…", "---") names
// no file.
func pathLine(t string) (string, bool) {
	c := cleanPath(t)
	ok := !strings.ContainsAny(c, " \t") && strings.IndexFunc(c, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
	return c, ok
}

func blockLines(ls []rawLine) []Line {
	out := make([]Line, len(ls))
	for i, l := range ls {
		out[i] = Line{Text: l.text, EOL: l.eol}
	}
	if n := len(out); n > 0 && out[n-1].EOL == "" {
		out[n-1].EOL = "\n" // the block ended the message: the line still ends
	}
	return out
}

// searchReplace is a block's hunk lines: every SEARCH line removed, every
// REPLACE line added. The block is landed as a string edit (the matcher
// adapts the whole REPLACE text), so no line is singled out as context.
func searchReplace(search, replace []Line) []Line {
	out := make([]Line, 0, len(search)+len(replace))
	for _, l := range search {
		out = append(out, Line{Op: Delete, Text: l.Text, EOL: l.EOL})
	}
	for _, l := range replace {
		out = append(out, Line{Op: Add, Text: l.Text, EOL: l.EOL})
	}
	return out
}
