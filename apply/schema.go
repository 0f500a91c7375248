package apply

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"time"
)

// Schema is the part of JSON Schema that describes a tool's arguments and
// result: types, descriptions, enums, object properties (in the order of
// the Go struct's fields), required properties and array items. The
// schemas are inferred from Go types (schemaFor) the way encoding/json
// reads and writes those types, so the description and the decoding
// cannot disagree.
type Schema struct {
	// Type is the JSON type ("object", "string", ...); Types lists
	// several, as ["null", T] for Go values that encode as null.
	Type  string
	Types []string
	// Description comes from a field's jsonschema tag.
	Description string
	// Enum lists the allowed values, when set by Tool.TuneInput.
	Enum []any
	// Items describes an array's elements.
	Items *Schema
	// Properties describes an object's members; Order lists their names
	// in the order of the struct's fields.
	Properties map[string]*Schema
	Order      []string
	// Required names the members a value must have: the struct fields
	// without omitempty or omitzero.
	Required []string
	// Additional describes the members of a map (additionalProperties);
	// Closed says that an object has no members beyond Properties
	// (additionalProperties: false), as every struct.
	Additional *Schema
	Closed     bool
}

// MarshalJSON writes the schema with its properties in field order.
func (s *Schema) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	sep := func(key string) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(key)
		b.Write(k)
		b.WriteByte(':')
	}
	put := func(key string, v any) error {
		sep(key)
		j, err := json.Marshal(v)
		b.Write(j)
		return err
	}
	var err error
	keep := func(e error) {
		if err == nil {
			err = e
		}
	}
	switch {
	case len(s.Types) > 0:
		keep(put("type", s.Types))
	case s.Type != "":
		keep(put("type", s.Type))
	}
	if s.Description != "" {
		keep(put("description", s.Description))
	}
	if len(s.Enum) > 0 {
		keep(put("enum", s.Enum))
	}
	if s.Items != nil {
		keep(put("items", s.Items))
	}
	if s.Properties != nil {
		sep("properties")
		b.WriteByte('{')
		for i, name := range s.Order {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(name)
			b.Write(k)
			b.WriteByte(':')
			j, e := json.Marshal(s.Properties[name])
			keep(e)
			b.Write(j)
		}
		b.WriteByte('}')
	}
	if len(s.Required) > 0 {
		keep(put("required", s.Required))
	}
	switch {
	case s.Additional != nil:
		keep(put("additionalProperties", s.Additional))
	case s.Closed:
		keep(put("additionalProperties", false))
	}
	b.WriteByte('}')
	return b.Bytes(), err
}

var (
	rawMessageType = reflect.TypeFor[json.RawMessage]()
	marshalerType  = reflect.TypeFor[json.Marshaler]()
	timeType       = reflect.TypeFor[time.Time]()
)

// schemaFor infers the schema of the JSON encoding/json reads into and
// writes from a value of type t: strings, booleans, integers and numbers;
// slices as arrays (or null) of their element; maps with string keys as
// objects (or null); pointers as their element or null; structs as closed
// objects whose properties are the exported fields under their json
// names, embedded structs' fields promoted, required unless omitempty or
// omitzero, described by a jsonschema tag. json.RawMessage and interfaces
// are any value, a time.Time a string. Types encoding/json cannot represent as a schema (funcs,
// channels, complex numbers, maps with other keys, recursive types,
// custom marshalers) are an error: a programming error every test of the
// tool finds.
func schemaFor(t reflect.Type) (*Schema, error) {
	return inferSchema(t, map[reflect.Type]bool{})
}

func inferSchema(t reflect.Type, seen map[reflect.Type]bool) (*Schema, error) {
	switch t {
	case rawMessageType:
		return &Schema{}, nil
	case timeType:
		return &Schema{Type: "string"}, nil
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && t.Implements(marshalerType) {
		return nil, fmt.Errorf("type %s has its own JSON encoding", t)
	}
	switch t.Kind() {
	case reflect.Bool:
		return &Schema{Type: "boolean"}, nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return &Schema{Type: "integer"}, nil
	case reflect.Float32, reflect.Float64:
		return &Schema{Type: "number"}, nil
	case reflect.String:
		return &Schema{Type: "string"}, nil
	case reflect.Interface:
		return &Schema{}, nil
	case reflect.Pointer:
		s, err := inferSchema(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		return nullable(s), nil
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			return nil, fmt.Errorf("type %s encodes as base64", t)
		}
		items, err := inferSchema(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		s := &Schema{Type: "array", Items: items}
		if t.Kind() == reflect.Slice {
			s = nullable(s)
		}
		return s, nil
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("map %s has keys that are not strings", t)
		}
		v, err := inferSchema(t.Elem(), seen)
		if err != nil {
			return nil, err
		}
		return nullable(&Schema{Type: "object", Additional: v}), nil
	case reflect.Struct:
		if seen[t] {
			return nil, fmt.Errorf("type %s is recursive", t)
		}
		seen[t] = true
		defer delete(seen, t)
		s := &Schema{Type: "object", Properties: map[string]*Schema{}, Closed: true}
		if err := addFields(s, t, seen); err != nil {
			return nil, err
		}
		return s, nil
	}
	return nil, fmt.Errorf("type %s has no JSON schema", t)
}

// addFields adds t's fields to the object schema s, promoting the fields
// of embedded structs without a json name as encoding/json does.
func addFields(s *Schema, t reflect.Type, seen map[reflect.Type]bool) error {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, opts, _ := strings.Cut(tag, ",")
		if name == "-" && opts == "" {
			continue
		}
		if f.Anonymous && name == "" {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				if err := addFields(s, ft, seen); err != nil {
					return err
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		ps, err := inferSchema(f.Type, seen)
		if err != nil {
			return fmt.Errorf("field %s: %w", f.Name, err)
		}
		if d := f.Tag.Get("jsonschema"); d != "" {
			ps.Description = d
		}
		if _, dup := s.Properties[name]; dup {
			return fmt.Errorf("field %s: JSON name %q used twice", f.Name, name)
		}
		s.Properties[name] = ps
		s.Order = append(s.Order, name)
		optional := false
		for _, o := range strings.Split(opts, ",") {
			optional = optional || o == "omitempty" || o == "omitzero"
		}
		if !optional {
			s.Required = append(s.Required, name)
		}
	}
	return nil
}

// nullable makes s also accept null.
func nullable(s *Schema) *Schema {
	if s.Type != "" {
		s.Types, s.Type = []string{"null", s.Type}, ""
	}
	return s
}
