package matcher

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// lineAdapter rewrites new text for a block located by a line tier. It
// knows the old lines as the caller gave them, the file's lines they were
// matched to, and the tier's transformations.
type lineAdapter struct {
	old      []string // caller's old lines (after variant transforms)
	file     []string // the file's lines they matched, without line breaks
	endsNL   bool     // the located span ends with the last line's break
	lastEOL  bool     // the last matched file line has a line break
	indent   indentMap
	reindent bool          // apply indent to new lines
	partial  bool          // span starts after the first line's indentation
	typo     map[rune]rune // ASCII/typographic substitutions old→file
	dquote   [2]rune       // opening/closing double quote if '"' maps to both
	squote   [2]rune       // same for '\''
	plain    bool          // the caller wrote typography where the file has ASCII
}

// maxAlignCells bounds the old×new table used to align lines in Adapt.
const maxAlignCells = 1 << 20

// adapt maps newText onto the file: each new line that is one of the old
// lines unchanged (aligned by a longest common subsequence) becomes the
// file's actual line, byte for byte; every other new line gets the tier's
// transformations (indentation, typography).
func (a *lineAdapter) adapt(newText string) string {
	if newText == "" {
		return ""
	}
	nl, endsNL := splitOld(newText)
	match := alignLines(a.old, nl)
	var b strings.Builder
	b.Grow(len(newText) + len(newText)/8)
	for j, line := range nl {
		if j > 0 {
			b.WriteByte('\n')
		}
		if i := match[j]; i >= 0 {
			b.WriteString(a.file[i])
			continue
		}
		if !isBlank(line) {
			if a.reindent && !(a.partial && j == 0) {
				ind := indentOf(line)
				line = a.indent.apply(ind) + line[len(ind):]
			}
			if a.typo != nil {
				line = a.retype(line)
			}
		}
		b.WriteString(line)
	}
	// The old text covered the last line's break: so does the new text,
	// unless the file's last line had none to replace.
	if endsNL && (!a.endsNL || a.lastEOL) {
		b.WriteByte('\n')
	}
	return b.String()
}

// alignLines returns for each new line the index of the old line it is
// aligned with, or -1. Lines are aligned when equal, by a longest common
// subsequence; past maxAlignCells only common leading and trailing lines
// are aligned.
func alignLines(old, nw []string) []int {
	match := make([]int, len(nw))
	for j := range match {
		match[j] = -1
	}
	// Common prefix and suffix first: cheap and usually everything.
	p := 0
	for p < len(old) && p < len(nw) && old[p] == nw[p] {
		match[p] = p
		p++
	}
	s := 0
	for s < len(old)-p && s < len(nw)-p && old[len(old)-1-s] == nw[len(nw)-1-s] {
		match[len(nw)-1-s] = len(old) - 1 - s
		s++
	}
	o, n := old[p:len(old)-s], nw[p:len(nw)-s]
	if len(o) == 0 || len(n) == 0 || len(o)*len(n) > maxAlignCells {
		return match
	}
	for _, pr := range lcsPairs(o, n) {
		match[p+pr[1]] = p + pr[0]
	}
	return match
}

// learnTypography records, over the matched line pairs, which characters
// the caller wrote where the file has others that fold to the same (smart
// quotes for straight ones, dashes, and the reverse). It returns nil when
// there is nothing to learn.
func (a *lineAdapter) learnTypography() {
	seen := map[rune]map[rune]bool{}
	for i := range a.old {
		o, f := strings.TrimSpace(a.old[i]), strings.TrimSpace(a.file[i])
		if o == f {
			continue
		}
		for o != "" && f != "" {
			ro, no := utf8.DecodeRuneInString(o)
			rf, nf := utf8.DecodeRuneInString(f)
			if ro != rf && foldRune(ro) == foldRune(rf) {
				if seen[ro] == nil {
					seen[ro] = map[rune]bool{}
				}
				seen[ro][rf] = true
			}
			o, f = o[no:], f[nf:]
		}
	}
	if len(seen) == 0 {
		return
	}
	a.typo = map[rune]rune{}
	for r, to := range seen {
		if r >= utf8.RuneSelf && to[foldRune(r)] {
			a.plain = true
		}
		if len(to) == 1 {
			for t := range to {
				a.typo[r] = t
			}
			continue
		}
		// A straight quote standing for both an opening and a closing
		// typographic one is placed by its neighbours.
		if r == '"' && len(to) == 2 && to['\u201C'] && to['\u201D'] {
			a.dquote = [2]rune{'\u201C', '\u201D'}
		}
		if r == '\'' && len(to) == 2 && to['\u2018'] && to['\u2019'] {
			a.squote = [2]rune{'\u2018', '\u2019'}
		}
	}
}

// retype applies the learnt typography to one new line.
func (a *lineAdapter) retype(line string) string {
	var b strings.Builder
	prev := ' '
	for _, r := range line {
		out := r
		if t, ok := a.typo[r]; ok {
			out = t
		} else if f := foldRune(r); a.plain && f != r && f < utf8.RuneSelf {
			// The caller typed typographic punctuation the file does not
			// use: the rest of it is the same artifact.
			out = f
		} else if r == '"' && a.dquote[0] != 0 {
			out = a.dquote[pick(prev)]
		} else if r == '\'' && a.squote[0] != 0 {
			out = a.squote[pick(prev)]
		}
		b.WriteRune(out)
		prev = r
	}
	return b.String()
}

// pick chooses the opening (0) quote after a space or an opening bracket,
// else the closing one (1).
func pick(prev rune) int {
	if unicode.IsSpace(prev) || strings.ContainsRune("([{<=,:", prev) {
		return 0
	}
	return 1
}
