package apply

import (
	"cmp"
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/graftdev/graft/internal/jsonstr"
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
		s, ok := jsonstr.Unquote(fields[name])
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
