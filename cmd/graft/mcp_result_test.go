package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
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
