package apply

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// A big string argument is decoded once, into the memory the string
// keeps: encoding/json unescaped it into a buffer and copied that into
// the string, so a 60 MB create was held three times while it decoded
// (issue 32 item 10). The result is the decoder's: the other fields, a
// string behind a pointer, a refusal of a wrong type elsewhere.
func TestBigStringArgumentDecodedOnce(t *testing.T) {
	content := strings.Repeat("line \"quoted\" \\ é\t\u2028 x\n", 8<<20/30)
	args, _ := json.Marshal(map[string]any{"filePath": "big.txt", "oldString": "", "newString": content, "replaceAll": true})
	schema := Lookup("edit").InputSchema()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	var req EditRequest
	if err := decodeStrict("edit", args, schema, &req); err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&after)
	if req.NewString != content || req.FilePath != "big.txt" || !req.ReplaceAll || req.OldString != "" {
		t.Fatalf("decoded %q %q %v (%d bytes of new text, want %d)", req.FilePath, req.OldString, req.ReplaceAll, len(req.NewString), len(content))
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; float64(alloc) > 1.3*float64(len(args)) {
		t.Errorf("decoding %d bytes of arguments allocated %d: the big string more than once", len(args), alloc)
	}

	// Behind a pointer (str_replace_based_edit_tool's file_text).
	args, _ = json.Marshal(map[string]any{"command": "create", "path": "big.txt", "file_text": content})
	var vreq TextEditorRequest
	if err := decodeStrict("str_replace_based_edit_tool", args, Lookup("str_replace_based_edit_tool").InputSchema(), &vreq); err != nil {
		t.Fatal(err)
	}
	if vreq.FileText == nil || *vreq.FileText != content || vreq.Command != "create" {
		t.Fatal("file_text not decoded")
	}

	// A wrong type beside a big string is refused as the decoder does.
	args, _ = json.Marshal(map[string]any{"filePath": "big.txt", "oldString": "", "newString": content, "replaceAll": "yes"})
	err := decodeStrict("edit", args, schema, &EditRequest{})
	if err == nil || !strings.Contains(err.Error(), "replaceAll") {
		t.Fatalf("a wrong type beside a big string: %v", err)
	}
}
