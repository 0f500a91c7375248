package matcher

import (
	"strings"
	"unicode/utf8"
)

// splitOld splits the caller's old (or new) text into lines without their
// breaks; endsNL reports whether the text ended with a line break, which
// then ends the last line rather than starting an empty one.
func splitOld(s string) (lines []string, endsNL bool) {
	endsNL = strings.HasSuffix(s, "\n")
	if endsNL {
		s = s[:len(s)-1]
	}
	lines = strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines, endsNL
}

// isSpace is the horizontal white space that indentation and trailing
// white space are made of (a stray "\r" counts too).
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'
}

func rtrim[S ~string | ~[]byte](s S) S {
	i := len(s)
	for i > 0 && isSpace(s[i-1]) {
		i--
	}
	return s[:i]
}

func ltrim[S ~string | ~[]byte](s S) S {
	i := 0
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return s[i:]
}

// indentOf is the leading white space of a line.
func indentOf[S ~string | ~[]byte](s S) S {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[:i]
}

func isBlank[S ~string | ~[]byte](s S) bool { return len(ltrim(s)) == 0 }

// foldRune maps typographic punctuation to the ASCII that models write for
// it (and the reverse confusion folds the same way). The map is rune for
// rune, so that positions in folded text map back one to one.
func foldRune(r rune) rune {
	switch r {
	case '\u2018', '\u2019', '\u201A', '\u201B', '\u2032', '\u2035':
		return '\''
	case '\u201C', '\u201D', '\u201E', '\u201F', '\u2033', '\u2036':
		return '"'
	case '\u2010', '\u2011', '\u2012', '\u2013', '\u2014', '\u2015', '\u2212':
		return '-'
	case '\u00A0', '\u2007', '\u202F':
		return ' '
	}
	return r
}

// foldEqual reports whether a and b are equal once typographic punctuation
// is folded.
func foldEqual[A ~string | ~[]byte, B ~string | ~[]byte](a A, b B) bool {
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		if a[i] < utf8.RuneSelf && b[j] < utf8.RuneSelf {
			if a[i] != b[j] {
				return false
			}
			i++
			j++
			continue
		}
		ra, na := decodeRune(a[i:])
		rb, nb := decodeRune(b[j:])
		if foldRune(ra) != foldRune(rb) {
			return false
		}
		i += na
		j += nb
	}
	return i == len(a) && j == len(b)
}

func decodeRune[S ~string | ~[]byte](s S) (rune, int) {
	if s[0] < utf8.RuneSelf {
		return rune(s[0]), 1
	}
	return utf8.DecodeRuneInString(string(s[:min(len(s), utf8.UTFMax)]))
}

// looseKey hashes a line the loosest way any line tier compares it: white
// space trimmed at both ends and typographic punctuation folded (FNV-1a).
// Every tier's equality implies equal keys, so keys make a prefilter;
// candidates are then checked for real.
func looseKey[S ~string | ~[]byte](s S) uint64 {
	const (
		offset = 14695981039346656037
		prime  = 1099511628211
	)
	s = rtrim(ltrim(s))
	h := uint64(offset)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			h = (h ^ uint64(c)) * prime
			i++
			continue
		}
		r, n := decodeRune(s[i:])
		if f := foldRune(r); f < utf8.RuneSelf {
			h = (h ^ uint64(f)) * prime
		} else {
			for k := 0; k < n; k++ {
				h = (h ^ uint64(s[i+k])) * prime
			}
		}
		i += n
	}
	return h
}

// blankKey is the loose key of a blank line.
var blankKey = looseKey("")
