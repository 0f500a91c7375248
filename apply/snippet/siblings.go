package snippet

// Siblings (package doc, part 1): the lines of a file of one shape (a
// table's rows, tests of the same calls, a changelog's headings) and what
// tells each apart from the others, its identity.

import (
	"slices"
	"strings"
	"unicode"

	"github.com/graftdev/graft/internal/lineindex"
)

// maxSiblings is how many of a removed line's siblings, the lines of
// its shape nearest it, on either side, its identity is read against
// (package doc, part 1). A table a reader compares by eye is shorter;
// and on a file that is one long table, where every removed row reads
// like a new row, reading each against all the others would cost the
// square of the file.
const maxSiblings = 64

// siblings is a file's lines as tokens, grouped by their shape
// (skeleton): the lines that may be one another's siblings
// (firstDifference), read once per region.
type siblings struct {
	tokens [][]string
	shape  []string         // each line's skeleton
	group  map[string][]int // skeleton -> its lines (0-based), in order
}

// readSiblings tokenizes every line of the file once and groups them by
// shape; in prose, a list item is read as its words, and its shape is
// its list's.
func readSiblings(fl *lineindex.Index, prose bool) *siblings {
	s := &siblings{tokens: make([][]string, fl.Count()), shape: make([]string, fl.Count()), group: map[string][]int{}}
	for f := range s.tokens {
		s.shape[f], s.tokens[f] = shapeOf(string(fl.Text(f+1)), prose)
		s.group[s.shape[f]] = append(s.group[s.shape[f]], f)
	}
	return s
}

// of is the siblings of file line f (0-based) that its identity is read
// against: the other lines of its shape, the maxSiblings nearest it on
// either side.
func (s *siblings) of(f int) [][]string {
	g := s.group[s.shape[f]]
	at, _ := slices.BinarySearch(g, f)
	var out [][]string
	for _, o := range g[max(0, at-maxSiblings):min(len(g), at+maxSiblings+1)] {
		if o != f {
			out = append(out, s.tokens[o])
		}
	}
	return out
}

// skeleton is the shape of a line of tokens: its punctuation, with each
// word, number or string as one placeholder. Lines that firstDifference
// may call alike have the same skeleton.
func skeleton(ts []string) string {
	var b strings.Builder
	for _, t := range ts {
		if wordy(t) {
			b.WriteByte(0)
		} else {
			b.WriteString(t)
		}
		b.WriteByte(1)
	}
	return b.String()
}

// itemMarker is the marker of a prose list item ("-", "*", "+", or "1."
// as "1"), or "" when line l is none.
func itemMarker(l string) string {
	t := strings.TrimLeft(l, " \t")
	if len(t) >= 2 && strings.ContainsRune("-*+", rune(t[0])) && t[1] == ' ' {
		return t[:1]
	}
	n := 0
	for n < len(t) && t[n] >= '0' && t[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(t) && (t[n] == '.' || t[n] == ')') && t[n+1] == ' ' {
		return "1"
	}
	return ""
}

// shapeOf is line l's shape and its tokens as its identity is read: in
// prose, a list item's words (inline code is words too), and its marker (an
// item's siblings are the list items of its marker, whatever their
// length or depth); else every token, and its skeleton.
func shapeOf(l string, prose bool) (string, []string) {
	if m := itemMarker(l); prose && m != "" {
		ws := words(l)
		if m == "1" {
			ws = ws[1:] // an ordered item's number is its place, not its identity
		}
		return "\x02" + m, ws
	}
	ts := tokens(l)
	return skeleton(ts), ts
}

// itemIdentity is what tells a prose list item (as words, its number
// aside) apart from the other items of its list (sib, as words): the
// word at which it first differs from each, in order, whatever their
// lengths; a new item keeps it by half these words. Items of a
// list have nothing else in common to read alike by, so each item is a
// sibling, and its identity is most often its first word ("- Windows
// CI" among "- Remove ...", "- Fixed ...").
func itemIdentity(d []string, sib [][]string) []string {
	var out []string
	for _, s := range sib {
		for i := 0; i < len(d) && i < len(s); i++ {
			if !strings.EqualFold(d[i], s[i]) {
				if !slices.Contains(out, d[i]) {
					out = append(out, d[i])
				}
				break
			}
		}
	}
	return out
}

// extendsIdentity reports whether new line n (as tokens) keeps identity
// id only by extending it: each token of id is the start of a longer one
// of n ('timeout option' of 'timeout option as object', '/413' of
// '/413withTimestamp').
func extendsIdentity(id, n []string) bool {
	for _, t := range id {
		tl := strings.ToLower(unquote(t))
		ext := false
		for _, x := range n {
			if xl := strings.ToLower(unquote(x)); len(xl) > len(tl) && strings.HasPrefix(xl, tl) && tl != "" {
				ext = true
				break
			}
		}
		if !ext {
			return false
		}
	}
	return true
}

// firstDifference is where lines of tokens a and b, alike lines of a
// repetitive block, differ first: the index of the first token they
// differ at, or -1 when they are not such lines. They are when they have
// as many tokens, the same punctuation, and differ at some of their
// words or strings but not at all of them.
func firstDifference(a, b []string) int {
	if len(a) != len(b) {
		return -1
	}
	first, differ, wordsN := -1, 0, 0
	for i := range a {
		wa, wb := wordy(a[i]), wordy(b[i])
		if wa != wb || !wa && a[i] != b[i] {
			return -1
		}
		if !wa {
			continue
		}
		wordsN++
		if a[i] != b[i] {
			differ++
			if first < 0 && !keywords()[a[i]] {
				first = i // a keyword (const for let) tells nothing apart
			}
		}
	}
	if differ == 0 || differ == wordsN || first < 0 {
		return -1
	}
	return first
}

// identity is what tells removed line d apart from its siblings, the
// file's lines near it of the same shape (firstDifference; sib gives
// them, as tokens): the token at which it first differs from each. A
// line without siblings has none: its shape is its own.
func identity(d []string, sib [][]string) []string {
	var out []string
	for _, s := range sib {
		if i := firstDifference(d, s); i >= 0 && !slices.Contains(out, d[i]) {
			out = append(out, d[i])
		}
	}
	return out
}

// keepsIdentity reports whether new line n (as tokens) keeps every token
// of id, the identity of the removed line it would stand for: the same
// token (in other quotes, or other letter case), a name that begins or
// ends with it (d1Edited for d1), one that holds it or that it holds, of
// three characters or more (a name prefixed, a name in a template
// string), or a string of mostly its words. Alike lines of a repetitive block (a
// table's rows, tests of the same calls, a changelog's sections) have
// the same shape and another identity; a line rewritten keeps its own.
func keepsIdentity(id, n []string) bool {
	for _, t := range id {
		kept := false
		for _, x := range n {
			if !wordy(x) {
				continue
			}
			tq, xq := isQuote(t[0]), isQuote(x[0])
			tl, xl := strings.ToLower(unquote(t)), strings.ToLower(unquote(x))
			switch {
			case tl == xl:
				kept = true
			case tq && xq:
				tw, xw := words(tl), words(xl)
				kept = len(tw) > 0 && overlap(tw, xw) >= 0.5 && sharesLong(tw, xw)
			case !tq && !unicode.IsDigit(rune(t[0])):
				kept = !xq && (strings.HasPrefix(xl, tl) || strings.HasSuffix(xl, tl)) ||
					len(tl) >= 3 && len(xl) >= 3 && (strings.Contains(xl, tl) || !xq && strings.Contains(tl, xl))
			}
			if kept {
				break
			}
		}
		if !kept {
			return false
		}
	}
	return true
}
