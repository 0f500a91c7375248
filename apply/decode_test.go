package apply

import (
	"encoding/json"
	"strings"
	"testing"
)

// Each refusal of a tool's arguments says what the tool expected: where
// bad JSON breaks, what kind of value came instead of an object, which
// fields an object takes and the one a misspelt name meant, at any depth,
// and an unknown field before the missing field it probably misspells.
func TestDecodeMessages(t *testing.T) {
	cases := []struct {
		tool, args string
		want       []string // substrings of the message, in order
		not        string   // a substring the message must not have
	}{
		{"edit", `not json at all`, []string{`arguments are not valid JSON: at byte 2 (in "not json at all"): invalid character 'o'`,
			`edit expects a JSON object such as {"filePath": "...", "oldString": "...", "newString": "..."}`}, ""},
		{"edit", `{"filePath": "a.txt", "oldString": `, []string{`arguments are not valid JSON: at byte`, `unexpected end of JSON input`}, ""},
		{"edit", `[1,2]`, []string{`arguments must be a JSON object, not an array; edit expects a JSON object such as {"filePath"`}, "got array"},
		{"file_read", `"a.txt"`, []string{`arguments must be a JSON object, not a string; file_read expects a JSON object such as {"path": "..."}`}, ""},
		{"undo", `3`, []string{`arguments must be a JSON object, not a number; undo expects a JSON object with the fields steps`}, ""},
		{"edit", `{"file_path": "a.txt", "oldString": "a", "newString": "b"}`, []string{`unknown field "file_path": did you mean "filePath"? edit takes filePath, oldString, newString, replaceAll, dry_run, version`}, "missing"},
		{"edit", `{"FilePath": "a.txt", "oldString": "a", "newString": "b"}`, []string{`did you mean "filePath"?`}, ""},
		{"edit", `{"file-path": "a.txt", "oldString": "a", "newString": "b"}`, []string{`did you mean "filePath"?`}, ""},
		{"edit", `{"path": "a.txt", "oldString": "a", "newString": "b"}`, []string{`unknown field "path": did you mean "filePath"?`}, ""},
		{"edit", `{"filePath": "a.txt", "oldStrng": "a", "newString": "b"}`, []string{`unknown field "oldStrng": did you mean "oldString"?`}, ""},
		{"edit", `{"filePath": "a.txt", "oldString": "a", "newString": "b", "colour": 1}`, []string{`unknown field "colour": edit takes filePath`}, "did you mean"},
		{"replace_in_file", `{"filePath": "a.txt", "replacements": [{"type": "string", "searchFor": "a", "replaceWith": "b"}, {"type": "string", "search_for": "a", "replaceWith": "b"}]}`,
			[]string{`unknown field "replacements[1].search_for": did you mean "searchFor"? replacements[1] takes type, startLine, endLine, lineNumber, insertText, searchFor, replaceWith`}, ""},
		{"multi_edit", `{"edits": [{"filePath": "a.txt", "old_string": "a", "new_string": "b"}]}`, []string{`unknown field "edits[0].filePath": did you mean "file_path"?`}, "description"},
		{"edit", `{"filePath": "a.txt", "oldString": "a"}`, []string{`missing required field "newString"; edit takes filePath, oldString, newString`}, ""},
		{"edit", `{"filePath": 3, "oldString": "a", "newString": "b"}`, []string{`field "filePath" must be a string, not number`}, ""},
	}
	requests := map[string]any{"edit": &EditRequest{}, "file_read": &FileReadRequest{}, "undo": &UndoRequest{},
		"replace_in_file": &ReplaceInFileRequest{}, "multi_edit": &MultiEditRequest{}}
	for _, c := range cases {
		tl := Lookup(c.tool)
		req := requests[c.tool]
		err := decodeStrict(c.tool, json.RawMessage(c.args), tl.InputSchema(), req)
		if err == nil {
			t.Errorf("%s %s: accepted", c.tool, c.args)
			continue
		}
		if CodeOf(err) != CodeInvalid {
			t.Errorf("%s %s: code %d, want %d", c.tool, c.args, CodeOf(err), CodeInvalid)
		}
		msg := err.Error()
		rest := msg
		for _, w := range c.want {
			i := strings.Index(rest, w)
			if i < 0 {
				t.Errorf("%s %s:\n got %s\nwant %s", c.tool, c.args, msg, w)
				break
			}
			rest = rest[i+len(w):]
		}
		if c.not != "" && strings.Contains(msg, c.not) {
			t.Errorf("%s %s: %s has %q", c.tool, c.args, msg, c.not)
		}
	}
}

// The struct's own decoding is what runs: valid arguments decode, empty
// and null arguments are the empty object.
func TestDecodeAccepts(t *testing.T) {
	var req EditRequest
	if err := decodeStrict("edit", json.RawMessage(`{"filePath": "a", "oldString": "x", "newString": "y", "replaceAll": true}`), Lookup("edit").InputSchema(), &req); err != nil {
		t.Fatal(err)
	}
	if req.FilePath != "a" || req.OldString != "x" || req.NewString != "y" || !req.ReplaceAll {
		t.Fatalf("decoded %+v", req)
	}
	for _, args := range []string{"", " null "} {
		var u UndoRequest
		if err := decodeStrict("undo", json.RawMessage(args), Lookup("undo").InputSchema(), &u); err != nil {
			t.Errorf("%q: %v", args, err)
		}
	}
}

func TestNearestName(t *testing.T) {
	names := []string{"filePath", "oldString", "newString", "replaceAll", "type", "id"}
	cases := map[string]string{
		"file_path": "filePath", "FILEPATH": "filePath", "file-path": "filePath", "path": "filePath",
		"old_str": "oldString", "replace_al": "replaceAll", "tpye": "type", "typ": "type",
		"colour": "", "x": "", "": "", "ids": "id", "new": "",
	}
	for in, want := range cases {
		if got := nearestName(in, names); got != want {
			t.Errorf("nearestName(%q) = %q, want %q", in, got, want)
		}
	}
}
