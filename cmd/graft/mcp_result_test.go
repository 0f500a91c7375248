package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A result written in pieces is the JSON encoding/json makes of it: the
// same value, whatever the diff holds (quotes, backslashes, control
// characters, U+2028, bytes that are not UTF-8), with its hunks, and no
// raw newline (it goes out as one line of a server-sent event).
func TestResultJSONInPieces(t *testing.T) {
	odd := "+say \"hi\" \\ back\n-tab\there\r\n+\x01\x1f ctl\n+line\u2028sep\u2029para\n+bad \xff\xfe utf-8\n+é ü 日本\n"
	diff := strings.Repeat(odd, pieceDiffBytes/len(odd)+10)
	hunks := make([]apply.Located, pieceHunks+5)
	for i := range hunks {
		hunks[i] = apply.Located{Edit: "hunk", Line: i + 1, EndLine: i + 2, Method: "exact", Similarity: 0.5 + float64(i%3)/7}
	}
	out := &apply.Landing{Success: true, Commit: "abc", Files: []apply.FileResult{
		{Path: "a.txt", Diff: diff, Additions: 3, Hunks: hunks},
		{Path: "small.txt", Diff: "+x\n", Hunks: hunks[:2]},
		{Path: "b.txt", Diff: odd + diff, Hunks: hunks[:pieceHunks+1]},
	}}
	want, err := marshalJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	rj, err := newResultJSON(out)
	if err != nil {
		t.Fatal(err)
	}
	if len(rj.pieces) != 4 {
		t.Fatalf("%d pieces, want 4 (two diffs, two hunk lists)", len(rj.pieces))
	}
	got, err := rj.bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(got) {
		t.Fatalf("not JSON: %.200s", got)
	}
	if bytes.ContainsAny(got, "\n\r") {
		t.Error("a raw line end in the result's JSON")
	}
	if !jsonEqual(got, want) {
		var a, b apply.Landing
		json.Unmarshal(got, &a)
		json.Unmarshal(want, &b)
		t.Fatalf("pieces differ from encoding/json: diff %d vs %d bytes, %d vs %d hunks", len(a.Files[0].Diff), len(b.Files[0].Diff), len(a.Files[0].Hunks), len(b.Files[0].Hunks))
	}
	if out.Files[0].Diff != diff || len(out.Files[0].Hunks) != len(hunks) {
		t.Error("the result itself was changed")
	}
}

// A diff written as the result goes out (apply.WithLazyDiffs, over HTTP)
// makes the very bytes of the diff made first: the structured result's
// JSON and the text summary of each call are byte for byte those of the
// materialised path, on small and big diffs, with every character
// encoding/json escapes (and the two it escapes short, \b and \f).
func TestLazyDiffResultIsTheMaterialised(t *testing.T) {
	odd := "say \"hi\" \\ back\b\f\x01\x1f ctl <&> line\u2028sep\u2029para é ü 日本\ttab\n"
	var big strings.Builder
	for i := 0; big.Len() < 3*pieceDiffBytes; i++ {
		fmt.Fprintf(&big, "a%d %s", i, odd)
	}
	files := map[string]string{"small.txt": "one\n" + odd + "three\n", "big.txt": big.String(), "crlf.txt": strings.ReplaceAll(big.String(), "\n", "\r\n")}
	cases := []struct {
		name, tool string
		args       map[string]any
	}{
		{"small edit", "edit", map[string]any{"filePath": "small.txt", "oldString": "three", "newString": "3 \f\b"}},
		{"create", "edit", map[string]any{"filePath": "new.txt", "oldString": "", "newString": big.String()}},
		{"create, no final newline", "edit", map[string]any{"filePath": "new.txt", "oldString": "", "newString": strings.TrimSuffix(big.String(), "\n")}},
		{"rewrite", "edit", map[string]any{"filePath": "big.txt", "oldString": "a", "newString": "b\u2028", "replaceAll": true}},
		{"rewrite crlf", "edit", map[string]any{"filePath": "crlf.txt", "oldString": "é", "newString": "e", "replaceAll": true}},
		{"one line", "edit", map[string]any{"filePath": "big.txt", "oldString": "a7 ", "newString": "A7\f"}},
		{"two files", "multi_edit", map[string]any{"description": "d", "edits": []map[string]any{
			{"file_path": "big.txt", "old_string": "a", "new_string": "c", "replace_all": true},
			{"file_path": "small.txt", "old_string": "one", "new_string": "1"}}}},
		{"edit_text_file", "edit_text_file", map[string]any{"path": "big.txt", "old_string": "a3 ", "new_string": "x"}},
	}
	dir := gitRepo(t, files)
	e, err := apply.Open(apply.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	call := func(tool string, args map[string]any, lazy int) (*mcp.CallToolResult, []byte) {
		t.Helper()
		args["dry_run"] = true
		raw, _ := json.Marshal(args)
		ctx := context.Background()
		if lazy > 0 {
			ctx = apply.WithLazyDiffs(ctx, lazy)
		}
		out, err := e.Call(ctx, tool, raw)
		if err != nil {
			t.Fatal(err)
		}
		var kept *resultJSON
		res := toolResult(tool, out, func(r *resultJSON) json.RawMessage { kept = r; return json.RawMessage(`"kept"`) })
		structured := []byte(res.StructuredContent.(json.RawMessage))
		if kept != nil {
			var b bytes.Buffer
			if err := kept.writeTo(&b); err != nil {
				t.Fatal(err)
			}
			structured = b.Bytes()
		}
		if lazy == 0 {
			// And the pieces' escapes are encoding/json's own.
			if whole, err := marshalJSON(out); err != nil || !bytes.Equal(structured, whole) {
				t.Errorf("%s: the result in pieces is not encoding/json's bytes (%v)", tool, err)
			}
		}
		return res, structured
	}
	for _, c := range cases {
		wantRes, want := call(c.tool, c.args, 0)
		if !json.Valid(want) {
			t.Fatalf("%s: not JSON", c.name)
		}
		for _, lazy := range []int{1, pieceDiffBytes} {
			gotRes, got := call(c.tool, c.args, lazy)
			if !bytes.Equal(got, want) {
				i := 0
				for i < min(len(got), len(want)) && got[i] == want[i] {
					i++
				}
				t.Errorf("%s, lazy past %d: the structured result differs at byte %d of %d/%d: %.80q vs %.80q", c.name, lazy, i, len(got), len(want), got[i:], want[i:])
			}
			if g, w := gotRes.Content[0].(*mcp.TextContent).Text, wantRes.Content[0].(*mcp.TextContent).Text; g != w {
				t.Errorf("%s, lazy past %d: the text differs:\n%.300s\nwant\n%.300s", c.name, lazy, g, w)
			}
		}
	}
}

// A diff written to the JSON string in pieces is escaped as the whole
// would be, wherever the pieces are cut: inside a character, next to
// bytes that are not UTF-8, through WriteByte.
func TestJSONStringWriterCutAnywhere(t *testing.T) {
	text := "a é 日本 \U0001F600 \xff\xfe \xe6\x97 end \u2028 \"q\" \\ \b\f\t\n \xe6"
	var want bytes.Buffer
	wb := bufio.NewWriter(&want)
	writeJSONString(wb, text)
	wb.Flush()
	for cut1 := 0; cut1 <= len(text); cut1++ {
		for cut2 := cut1; cut2 <= len(text); cut2 += 3 {
			var got bytes.Buffer
			bw := bufio.NewWriter(&got)
			bw.WriteByte('"')
			j := &jsonStringWriter{w: bw}
			j.WriteString(text[:cut1])
			for i := cut1; i < cut2; i++ {
				j.WriteByte(text[i])
			}
			j.Write([]byte(text[cut2:]))
			j.flush()
			bw.WriteByte('"')
			bw.Flush()
			if got.String() != want.String() {
				t.Fatalf("cut at %d and %d: %s, want %s", cut1, cut2, got.String(), want.String())
			}
		}
	}
}
