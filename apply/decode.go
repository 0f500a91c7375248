package apply

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// decodeStrict decodes args, the arguments of tool, into v: a JSON object
// (empty or null is {}) without unknown fields, anywhere in it, and with
// the required fields of schema. Each refusal is a CodeInvalid error that
// says what tool expects: where JSON that does not parse goes wrong, which
// fields an object takes and the one a misspelt name was probably meant to
// be, which field is missing. An unknown field is reported before a
// missing one, since the missing field is often the one it misspells.
func decodeStrict(tool string, args json.RawMessage, schema *Schema, v any) error {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || bytes.Equal(trimmed, []byte("null")) {
		args, trimmed = json.RawMessage("{}"), []byte("{}")
	}
	var fields map[string]rawRef
	if err := json.Unmarshal(args, &fields); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) || !json.Valid(trimmed) {
			return invalidf("", "", "arguments are not valid JSON: %s; %s expects %s", syntaxWhere(args, err), tool, exampleObject(schema))
		}
		return invalidf("", "", "arguments must be a JSON object, not %s; %s expects %s", jsonKindOf(trimmed), tool, exampleObject(schema))
	}
	// encoding/json matches names regardless of case: the walk refuses
	// "FilePath" for filePath, which the decoder would take.
	if err := unknownField(tool, "", schema, fields); err != nil {
		return err
	}
	// Unknown members are refused by the walk above, at every depth the
	// schema describes, as a decoder's DisallowUnknownFields would (and
	// case-sensitively); json.Unmarshal reads args in place, where a
	// Decoder would copy it into a buffer of its own first; a big string
	// member is unescaped once, into its string (takeBigStrings).
	decErr := json.Unmarshal(takeBigStrings(args, fields, v), v)
	for _, name := range schema.Required {
		if _, ok := fields[name]; !ok {
			return invalidf("", "", "missing required field %q; %s takes %s", name, tool, fieldList(schema))
		}
	}
	if decErr != nil {
		return invalidf("", "", "invalid arguments: %s", jsonMessage(decErr))
	}
	return nil
}

// syntaxWhere words a JSON syntax error with the byte it is at and the
// text around that byte.
func syntaxWhere(args []byte, err error) string {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return strings.TrimPrefix(err.Error(), "json: ")
	}
	at := int(min(max(se.Offset, 1), int64(len(args))))
	from, to := max(at-20, 0), min(at+20, len(args))
	for from > 0 && !utf8.RuneStart(args[from]) {
		from--
	}
	for to < len(args) && !utf8.RuneStart(args[to]) {
		to++
	}
	near := string(args[from:to])
	if from > 0 {
		near = "..." + near
	}
	if to < len(args) {
		near += "..."
	}
	return fmt.Sprintf("at byte %d (in %q): %s", at, near, se.Error())
}

// jsonKindOf names the kind of the valid JSON value v for a message.
func jsonKindOf(v []byte) string {
	switch v[0] {
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// exampleObject shows the JSON object a schema describes by its required
// fields, such as {"filePath": "...", "oldString": "..."}.
func exampleObject(s *Schema) string {
	if len(s.Required) == 0 {
		if len(s.Order) == 0 {
			return "a JSON object"
		}
		return "a JSON object with the fields " + fieldList(s) + " (all optional)"
	}
	parts := make([]string, len(s.Required))
	for i, name := range s.Required {
		parts[i] = fmt.Sprintf("%q: %s", name, examplePlaceholder(s.Properties[name]))
	}
	return "a JSON object such as {" + strings.Join(parts, ", ") + "}"
}

func examplePlaceholder(s *Schema) string {
	t := s.Type
	for _, x := range s.Types {
		if x != "null" {
			t = x
		}
	}
	switch t {
	case "string":
		return `"..."`
	case "integer", "number":
		return "1"
	case "boolean":
		return "true"
	case "array":
		return "[...]"
	case "object":
		return "{...}"
	}
	return "..."
}

// fieldList lists an object schema's fields in their order.
func fieldList(s *Schema) string { return strings.Join(s.Order, ", ") }

// unknownField looks through fields, the members of an object at path
// that schema describes, and then through its objects and arrays, for a
// member schema does not have. It returns the refusal for the first one
// found (members of an object in name order, its own before nested ones),
// or nil.
func unknownField(tool, path string, schema *Schema, fields map[string]rawRef) error {
	if schema.Properties == nil {
		return nil
	}
	owner := tool
	if path != "" {
		owner = path
	}
	names := make([]string, 0, len(fields))
	for name := range fields {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		if _, ok := schema.Properties[name]; ok {
			continue
		}
		full := name
		if path != "" {
			full = path + "." + name
		}
		if near := nearestName(name, schema.Order); near != "" {
			return invalidf("", "", "unknown field %q: did you mean %q? %s takes %s", full, near, owner, fieldList(schema))
		}
		return invalidf("", "", "unknown field %q: %s takes %s", full, owner, fieldList(schema))
	}
	for _, name := range schema.Order {
		raw, ok := fields[name]
		if !ok {
			continue
		}
		sub := name
		if path != "" {
			sub = path + "." + name
		}
		if err := unknownIn(tool, sub, schema.Properties[name], raw); err != nil {
			return err
		}
	}
	return nil
}

// unknownIn is unknownField for a value raw at path that schema
// describes: an object's members, an array's items, a map's values.
func unknownIn(tool, path string, schema *Schema, raw rawRef) error {
	switch {
	case schema.Properties != nil:
		var fields map[string]rawRef
		if json.Unmarshal(raw, &fields) != nil {
			return nil // not an object: the decoder's type error says so
		}
		return unknownField(tool, path, schema, fields)
	case schema.Items != nil && (schema.Items.Properties != nil || schema.Items.Items != nil || schema.Items.Additional != nil):
		var items []rawRef
		if json.Unmarshal(raw, &items) != nil {
			return nil
		}
		for i, item := range items {
			if err := unknownIn(tool, fmt.Sprintf("%s[%d]", path, i), schema.Items, item); err != nil {
				return err
			}
		}
	case schema.Additional != nil && (schema.Additional.Properties != nil || schema.Additional.Items != nil):
		var members map[string]rawRef
		if json.Unmarshal(raw, &members) != nil {
			return nil
		}
		keys := make([]string, 0, len(members))
		for k := range members {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := unknownIn(tool, fmt.Sprintf("%s[%q]", path, k), schema.Additional, members[k]); err != nil {
				return err
			}
		}
	}
	return nil
}

// nearestName is the name among names that name probably misspells, or
// "": one spelt the same but for case and separators (file_path, FilePath
// and file-path all mean filePath), else one containing the other (path
// for filePath), else the closest within a few typing errors.
func nearestName(name string, names []string) string {
	n := foldName(name)
	if n == "" {
		return ""
	}
	for _, c := range names {
		if foldName(c) == n {
			return c
		}
	}
	if len(n) >= 4 {
		for _, c := range names {
			if f := foldName(c); strings.Contains(f, n) || strings.Contains(n, f) && len(f) >= 4 {
				return c
			}
		}
	}
	best, bestDist := "", 0
	for _, c := range names {
		f := foldName(c)
		limit := 1
		if len(f) >= 4 {
			limit = max(2, len(f)/3)
		}
		d := editDistance(n, f)
		if d <= limit && (best == "" || d < bestDist) {
			best, bestDist = c, d
		}
	}
	return best
}

// foldName is name in lower case without separators ('_', '-', ' ', '.').
func foldName(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch r {
		case '_', '-', ' ', '.':
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// jsonMessage words a decoding error for a model: the field and the types.
func jsonMessage(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field != "" {
			return fmt.Sprintf("field %q must be %s, not %s", te.Field, jsonType(te.Type.String()), te.Value)
		}
		return fmt.Sprintf("expected %s, got %s", jsonType(te.Type.String()), te.Value)
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// jsonType names the JSON type a Go type decodes from.
func jsonType(goType string) string {
	goType = strings.TrimLeft(goType, "*")
	switch {
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	case strings.HasPrefix(goType, "map["):
		return "an object"
	case strings.Contains(goType, "int"):
		return "an integer"
	case strings.Contains(goType, "float"):
		return "a number"
	case goType == "bool":
		return "a boolean"
	case goType == "string":
		return "a string"
	}
	return "an object"
}

// rawRef is a JSON value as a slice of the arguments it was read from,
// not a copy (json.RawMessage copies): the walk for unknown members looks
// at the arguments' values without a second copy of a big string.
type rawRef []byte

// UnmarshalJSON keeps b itself: json.Unmarshal hands it a slice of its
// input, which the caller keeps unchanged while the walk runs.
func (r *rawRef) UnmarshalJSON(b []byte) error {
	*r = b
	return nil
}
