// Package jsonstr decodes one JSON string value, the one unquoting of
// graft: a big tool argument decoded in place of encoding/json (which
// unescapes into a buffer and then copies it into the string, holding a
// 60 MB argument twice more), and a notebook cell's source read from the
// file's own JSON bytes. Its result is encoding/json's, checked against it.
package jsonstr

import (
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Unquote decodes the JSON string q (quotes included, valid JSON and
// valid UTF-8) into fresh memory that the string returned keeps: what
// encoding/json decodes it to, a lone surrogate escape as U+FFFD. ok is
// false for anything else.
func Unquote(q []byte) (s string, ok bool) {
	if len(q) < 2 || q[0] != '"' || q[len(q)-1] != '"' {
		return "", false
	}
	q = q[1 : len(q)-1]
	out := make([]byte, 0, len(q)) // unescaped, it is no longer
	for i := 0; i < len(q); {
		c := q[i]
		if c != '\\' {
			if c < 0x20 || c == '"' {
				return "", false
			}
			j := i + 1
			for j < len(q) && q[j] != '\\' && q[j] != '"' && q[j] >= 0x20 {
				j++
			}
			out = append(out, q[i:j]...)
			i = j
			continue
		}
		if i+1 >= len(q) {
			return "", false
		}
		switch q[i+1] {
		case '"', '\\', '/':
			out = append(out, q[i+1])
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := hex4(q, i+2)
			if !ok {
				return "", false
			}
			i += 6
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(-1), false
				if i+6 <= len(q) && q[i] == '\\' && q[i+1] == 'u' {
					r2, ok2 = hex4(q, i+2)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					out = utf8.AppendRune(out, dec)
					i += 6
					continue
				}
				r = utf8.RuneError
			}
			out = utf8.AppendRune(out, r)
			continue
		default:
			return "", false
		}
		i += 2
	}
	return unsafe.String(unsafe.SliceData(out), len(out)), true
}

// hex4 reads the four hex digits at q[i:].
func hex4(q []byte, i int) (rune, bool) {
	if i+4 > len(q) {
		return 0, false
	}
	var r rune
	for _, c := range q[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
