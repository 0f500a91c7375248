package apply

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

type schemaBase struct {
	DryRun bool `json:"dry_run,omitempty" jsonschema:"only report"`
}

type schemaSample struct {
	schemaBase
	Path    string            `json:"path" jsonschema:"the file"`
	Lines   []int             `json:"lines,omitempty"`
	Mode    *string           `json:"mode,omitempty"`
	Tags    map[string]bool   `json:"tags"`
	Raw     json.RawMessage   `json:"raw,omitzero"`
	When    time.Time         `json:"when"`
	Skipped string            `json:"-"`
	Plain   float64           // no tag: the Go name, required
	hidden  int               // unexported: not a property
	Pairs   [2]schemaBase     `json:"pairs"`
	Nested  map[string][]uint `json:"nested,omitempty"`
}

// The inferred schema describes what encoding/json reads: names, order,
// required members, nullability, descriptions and closed objects.
func TestSchemaFor(t *testing.T) {
	s, err := schemaFor(reflect.TypeFor[schemaSample]())
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"type":"object","properties":{` +
		`"dry_run":{"type":"boolean","description":"only report"},` +
		`"path":{"type":"string","description":"the file"},` +
		`"lines":{"type":["null","array"],"items":{"type":"integer"}},` +
		`"mode":{"type":["null","string"]},` +
		`"tags":{"type":["null","object"],"additionalProperties":{"type":"boolean"}},` +
		`"raw":{},` +
		`"when":{"type":"string"},` +
		`"Plain":{"type":"number"},` +
		`"pairs":{"type":"array","items":{"type":"object","properties":{"dry_run":{"type":"boolean","description":"only report"}},"additionalProperties":false}},` +
		`"nested":{"type":["null","object"],"additionalProperties":{"type":["null","array"],"items":{"type":"integer"}}}` +
		`},"required":["path","tags","when","Plain","pairs"],"additionalProperties":false}`
	if string(got) != want {
		t.Errorf("schema\n got %s\nwant %s", got, want)
	}
	_ = schemaSample{}.hidden
}

type schemaLoop struct {
	Next *schemaLoop `json:"next"`
}

func TestSchemaForRefuses(t *testing.T) {
	for _, c := range []struct {
		t    reflect.Type
		want string
	}{
		{reflect.TypeFor[schemaLoop](), "recursive"},
		{reflect.TypeFor[struct{ F func() }](), "no JSON schema"},
		{reflect.TypeFor[map[int]string](), "not strings"},
		{reflect.TypeFor[[]byte](), "base64"},
		{reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
			{Name: "B", Type: reflect.TypeFor[string](), Tag: `json:"x"`},
		}), "used twice"},
	} {
		if _, err := schemaFor(c.t); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: error %v, want %q", c.t, err, c.want)
		}
	}
}
