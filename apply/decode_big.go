package apply

import (
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// bigStringBytes is the size from which a top-level string argument is
// decoded on its own (takeBigStrings).
const bigStringBytes = 1 << 20

// takeBigStrings decodes each top-level string member of fields past
// bigStringBytes straight into its field of v (a pointer to a struct),
// and returns the arguments to decode the rest from: the members with
// those strings left out. encoding/json decodes a string with escapes
// twice over, unescaping it into a buffer and then copying that into
// the string, so a 60 MB file sent to create was held three times while
// its arguments decoded (the arguments, the buffer, the string); here it
// is unescaped once, into the memory the string keeps. A string that is
// not valid UTF-8 (encoding/json would mend it) is left to the decoder,
// as is everything when nothing is that big.
func takeBigStrings(args []byte, fields map[string]rawRef, v any) []byte {
	var big []string
	for name, raw := range fields {
		if len(raw) > bigStringBytes && raw[0] == '"' {
			big = append(big, name)
		}
	}
	if len(big) == 0 {
		return args
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return args
	}
	taken := map[string]bool{}
	for _, name := range big {
		f, ok := fieldNamed(rv.Elem(), name)
		if !ok || !utf8.Valid(fields[name]) {
			continue
		}
		s, ok := unquoteJSON(fields[name])
		if !ok {
			continue
		}
		switch {
		case f.Kind() == reflect.String:
			f.SetString(s)
		case f.Kind() == reflect.Pointer && f.Type().Elem().Kind() == reflect.String:
			p := reflect.New(f.Type().Elem())
			p.Elem().SetString(s)
			f.Set(p)
		default:
			continue
		}
		taken[name] = true
	}
	if len(taken) == 0 {
		return args
	}
	// The rest, as an object of its own, its members in the order they
	// came (so that a refusal names the same first error).
	var rest []string
	for name := range fields {
		if !taken[name] {
			rest = append(rest, name)
		}
	}
	at := func(name string) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(fields[name]))) }
	slices.SortFunc(rest, func(a, b string) int { return cmp.Compare(at(a), at(b)) })
	b := []byte{'{'}
	for i, name := range rest {
		if i > 0 {
			b = append(b, ',')
		}
		key, _ := json.Marshal(name)
		b = append(append(append(b, key...), ':'), fields[name]...)
	}
	return append(b, '}')
}

// fieldNamed is the field of the struct sv that encoding/json decodes the
// member name into (by its tag, embedded structs' fields included).
func fieldNamed(sv reflect.Value, name string) (reflect.Value, bool) {
	for _, sf := range reflect.VisibleFields(sv.Type()) {
		if !sf.IsExported() || sf.Anonymous {
			continue
		}
		tag, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if tag == "-" {
			continue
		}
		if tag == "" {
			tag = sf.Name
		}
		if tag == name {
			f, err := sv.FieldByIndexErr(sf.Index)
			return f, err == nil
		}
	}
	return reflect.Value{}, false
}

// unquoteJSON decodes the JSON string q (quotes included, valid JSON and
// valid UTF-8) into fresh memory that the string returned keeps: what
// encoding/json decodes it to, a lone surrogate escape as U+FFFD. ok is
// false for anything else.
func unquoteJSON(q []byte) (s string, ok bool) {
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
