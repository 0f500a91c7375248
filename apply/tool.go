package apply

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Tool is one entry of the registry: a name, a description that teaches a
// model to use it, JSON schemas of its input and output inferred from Go
// types, and the function that runs it. The CLI (`graft call`, `graft
// tools`) and the MCP server serve exactly these.
type Tool struct {
	Name        string
	Description string
	// ReadOnly tools never change a file or the journal.
	ReadOnly bool

	run func(ctx context.Context, e *Engine, args json.RawMessage) (any, error)

	// The schemas are built on first use, not at start-up: a CLI call
	// should not pay for every tool's reflection.
	once    sync.Once
	build   func() (in, out *Schema)
	tweaks  []func(in *Schema)
	in, out *Schema
}

// InputSchema is the JSON schema of the tool's arguments.
func (t *Tool) InputSchema() *Schema {
	t.schemas()
	return t.in
}

// OutputSchema is the JSON schema of the tool's result.
func (t *Tool) OutputSchema() *Schema {
	t.schemas()
	return t.out
}

// TuneInput adjusts the inferred input schema (say, an enum of allowed
// values) when it is built. It must be called before the tool is used.
func (t *Tool) TuneInput(f func(in *Schema)) *Tool {
	t.tweaks = append(t.tweaks, f)
	return t
}

func (t *Tool) schemas() {
	t.once.Do(func() {
		t.in, t.out = t.build()
		for _, f := range t.tweaks {
			f(t.in)
		}
	})
}

// NewTool declares a tool whose input decodes into In and whose result is
// an Out. Decoding is strict: unknown fields, wrong types and missing
// required fields (those without omitempty) are CodeInvalid errors naming
// the field. The schemas are inferred on first use, which panics if In or
// Out cannot be described as a JSON schema: a programming error that every
// test of the tool finds (TestToolsHaveSchemas covers them all).
func NewTool[In, Out any](name, description string, run func(context.Context, *Engine, *In) (*Out, error)) *Tool {
	t := &Tool{Name: name, Description: description}
	t.build = func() (*Schema, *Schema) {
		in, err := schemaFor(reflect.TypeFor[In]())
		if err != nil {
			panic(fmt.Sprintf("apply: tool %s: %v", name, err))
		}
		out, err := schemaFor(reflect.TypeFor[Out]())
		if err != nil {
			panic(fmt.Sprintf("apply: tool %s: %v", name, err))
		}
		return in, out
	}
	t.run = func(ctx context.Context, e *Engine, args json.RawMessage) (any, error) {
		var req In
		if err := decodeStrict(args, t.InputSchema(), &req); err != nil {
			return nil, err
		}
		if d, ok := any(&req).(interface{ dryRun() bool }); t.ReadOnly || !ok || d.dryRun() {
			return run(ctx, e, &req)
		}
		return e.locked(func() (any, error) {
			out, err := run(ctx, e, &req)
			if err != nil {
				return nil, err
			}
			return out, nil
		})
	}
	return t
}

// Run decodes args and runs the tool.
func (t *Tool) Run(ctx context.Context, e *Engine, args json.RawMessage) (any, error) {
	return t.run(ctx, e, args)
}

// decodeStrict decodes args (a JSON object) into v, checking the required
// fields of schema and refusing unknown ones.
func decodeStrict(args json.RawMessage, schema *Schema, v any) error {
	if len(bytes.TrimSpace(args)) == 0 || bytes.Equal(bytes.TrimSpace(args), []byte("null")) {
		args = json.RawMessage("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(args, &fields); err != nil {
		return invalidf("", "", "arguments must be a JSON object: %v", jsonMessage(err))
	}
	for _, name := range schema.Required {
		if _, ok := fields[name]; !ok {
			return invalidf("", "", "missing required field %q", name)
		}
	}
	for name := range fields {
		if _, ok := schema.Properties[name]; !ok {
			return invalidf("", "", "unknown field %q (fields: %s)", name, strings.Join(slices.Sorted(maps.Keys(schema.Properties)), ", "))
		}
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return invalidf("", "", "invalid arguments: %s", jsonMessage(err))
	}
	return nil
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

func jsonType(goType string) string {
	switch {
	case strings.Contains(goType, "int"):
		return "an integer"
	case strings.Contains(goType, "bool"):
		return "a boolean"
	case strings.Contains(goType, "string"):
		return "a string"
	case strings.HasPrefix(goType, "[]"):
		return "an array"
	}
	return "an object"
}

var registry struct {
	sync.Mutex
	tools map[string]*Tool
}

// Register adds a tool to the registry. It panics on a duplicate name,
// which is a programming error found at start-up.
func Register(t *Tool) {
	registry.Lock()
	defer registry.Unlock()
	if registry.tools == nil {
		registry.tools = map[string]*Tool{}
	}
	if _, dup := registry.tools[t.Name]; dup {
		panic("apply: tool registered twice: " + t.Name)
	}
	registry.tools[t.Name] = t
}

// Tools returns every registered tool, in the order of SPEC §3 and then by
// name.
func Tools() []*Tool {
	registry.Lock()
	defer registry.Unlock()
	out := make([]*Tool, 0, len(registry.tools))
	for _, t := range registry.tools {
		out = append(out, t)
	}
	rank := func(name string) int {
		if i := slices.Index(toolOrder, name); i >= 0 {
			return i
		}
		return len(toolOrder)
	}
	sort.Slice(out, func(i, j int) bool {
		ri, rj := rank(out[i].Name), rank(out[j].Name)
		if ri != rj {
			return ri < rj
		}
		return out[i].Name < out[j].Name
	})
	return out
}

var toolOrder = []string{"file_read", "edit", "edit_text_file", "replace_in_file", "edit_lines",
	"multi_edit", "edit_file", "apply_patch", "undo", "redo", "history", "diff"}

// Lookup returns the tool called name, or nil.
func Lookup(name string) *Tool {
	registry.Lock()
	defer registry.Unlock()
	return registry.tools[name]
}
