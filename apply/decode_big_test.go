package apply

import (
	"encoding/json"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
)

// unquoteJSON decodes a JSON string to what encoding/json decodes it to:
// every escape, surrogate pairs, lone and broken surrogates (U+FFFD), and
// text that needs none.
func TestUnquoteJSONIsEncodingJSONs(t *testing.T) {
	cases := []string{`""`, `"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u65e5\u2028"`, `"\ud83d\ude00 pair"`,
		`"\ud83d lone high"`, `"\ude00 lone low"`, `"\ud83d\u0041 high then A"`, `"\ud83d\ud83d\ude00"`, `"end \ud83d"`,
		`"é 日本 raw"`, `"\uD83D\uDE00 upper hex"`}
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{`a`, `\n`, `\"`, `\\`, `\u0000`, `\ud800`, `\udc00`, `\uffff`, `é`, `\/`, `\t`, ` `, `\ud83d\ude00`}
	for range 2000 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('"')
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		var want string
		if err := json.Unmarshal([]byte(c), &want); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		got, ok := unquoteJSON([]byte(c))
		if !ok || got != want {
			t.Fatalf("unquoteJSON(%s) = %q, %v; want %q", c, got, ok, want)
		}
	}
}

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
