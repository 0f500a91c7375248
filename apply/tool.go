package apply

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
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
		if err := decodeStrict(name, args, t.InputSchema(), &req); err != nil {
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

// Tools returns every registered tool: reading, string, line, batch,
// symbol, snippet and patch edits, then the journal (toolOrder), and the
// rest by name.
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

var toolOrder = []string{"file_read", "file_outline", "edit", "edit_text_file", "replace_in_file", "edit_lines",
	"multi_edit", "edit_symbol", "edit_file", "apply_patch", "undo", "redo", "history", "diff"}

// Lookup returns the tool called name, or nil.
func Lookup(name string) *Tool {
	registry.Lock()
	defer registry.Unlock()
	return registry.tools[name]
}
