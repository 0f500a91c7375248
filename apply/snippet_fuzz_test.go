package apply_test

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/apply/snippet"
	"github.com/graftdev/graft/gitstore/gittest"
)

// snippetSources are the files of real code (Go and Python, by their
// language) of the checked-in model-snippet sample, sorted, without CR or
// NUL bytes.
var snippetSources = sync.OnceValues(func() ([][2]string, error) {
	f, err := os.Open("../fixtures/accuracy/testdata/model-snippets.jsonl.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	blobs, langs := map[string]string{}, map[string]string{}
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var b struct {
			Blob, Data, File, Lang string
		}
		if err := json.Unmarshal(sc.Bytes(), &b); err != nil {
			return nil, err
		}
		switch {
		case b.Blob != "" && strings.HasSuffix(b.Data, "\n") && !strings.ContainsAny(b.Data, "\r\x00"):
			blobs[b.Blob] = b.Data
		case b.File != "":
			langs[b.File] = b.Lang
		}
	}
	var out [][2]string
	for id, data := range blobs {
		switch langs[id] {
		case "go":
			out = append(out, [2]string{"go", data})
		case "python":
			out = append(out, [2]string{"py", data})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][1] < out[j][1] })
	return out, sc.Err()
})

// FuzzEditFileLiteralMerge is FuzzLiteralMerge (apply/snippet) through
// the edit_file tool and the transaction: a snippet of a real file whose
// every region starts and ends with 2 to 4 unchanged lines that stand
// exactly and once in the file, with markers between the regions and at
// the ends, and that drops no line it does not show (lines inserted, or a
// line edited so that it keeps its names), lands as the literal merge,
// byte for byte: its new lines as sent, whatever their indentation
// (behind anchors that stand exactly there is no shift to apply: tabs
// sent as spaces stay spaces); and its result names as removed unshown
// no line the merge keeps.
func FuzzEditFileLiteralMerge(f *testing.F) { fuzzLiteralMerge(f, false) }

// FuzzEditFileLiteralMergeCRLF is FuzzEditFileLiteralMerge on the file
// written with CRLF line endings, the snippet sent with LF (as models
// send them): the literal merge with every line ending the file's.
func FuzzEditFileLiteralMergeCRLF(f *testing.F) { fuzzLiteralMerge(f, true) }

func fuzzLiteralMerge(f *testing.F, crlf bool) {
	for i := range 8 {
		f.Add(uint16(i*31), uint64(i))
	}
	dir := gittest.Repo(f, nil)
	// The property is about the merge; the syntax check is a gate of its
	// own (an edited Python line re-indented is a syntax error there).
	eng, err := apply.Open(apply.Options{Dir: dir, Check: apply.CheckOff})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, pick uint16, seed uint64) {
		files, err := snippetSources()
		if err != nil || len(files) == 0 {
			t.Skip("no real files:", err)
		}
		src := files[int(pick)%len(files)]
		lang, content := src[0], src[1]
		ls := strings.SplitAfter(content, "\n")
		ls = ls[:len(ls)-1]
		rng := rand.New(rand.NewPCG(seed, uint64(pick)))
		code, want, replaced, ok := literalMerge(ls, lang, rng)
		if !ok {
			return
		}
		if crlf {
			content = strings.ReplaceAll(content, "\n", "\r\n")
			want = strings.ReplaceAll(want, "\n", "\r\n")
		}
		name := "f." + lang
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		args, _ := json.Marshal(map[string]any{"target_file": name, "code_edit": code})
		res, err := eng.Call(context.Background(), "edit_file", args)
		if err != nil {
			t.Fatalf("refused: %v\nsnippet:\n%s", err, code)
		}
		// Of the lines it names as removed unshown, none is one the
		// merge keeps: an edited line may be read as a row replaced by
		// another (its string changed), never an anchor or a line
		// between regions.
		for _, f := range res.(*apply.Landing).Files {
			for _, h := range f.Hunks {
				for _, d := range h.DroppedLines() {
					if !slices.Contains(replaced, d) {
						t.Fatalf("snippet:\n%s\nnamed line %d as removed unshown, a line the merge keeps", code, d)
					}
				}
			}
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Fatalf("snippet:\n%s\nlanded a file that is not the literal merge:\n%s", code, firstDiff(string(got), want))
		}
	})
}

// literalMerge picks 1 to 3 changes in ls with exact, unique anchors and
// writes the snippet (markers in lang's comment syntax) and the expected
// file; ok is false when the picks do not make such a snippet. New lines
// are indented as the line after them, or with that indentation's tabs
// written as spaces, or two spaces deeper; an edited line gets a suffix on
// one of its words and, half the time, its tabs written as spaces; or one
// to three lines are sent re-indented, each tab as two spaces.
func literalMerge(ls []string, lang string, rng *rand.Rand) (code, want string, replaced []int, ok bool) {
	n := len(ls)
	if n < 12 {
		return "", "", nil, false
	}
	marker := "// ... existing code ...\n"
	if lang == "py" {
		marker = "# ... existing code ...\n"
	}
	blank := func(l string) bool { return strings.TrimSpace(l) == "" }
	count := func(block []string) int {
		c := 0
		for i := 0; i+len(block) <= n; i++ {
			if slices.Equal(ls[i:i+len(block)], block) {
				c++
			}
		}
		return c
	}
	indentOf := func(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }
	spaces := func(ind string) string { return strings.ReplaceAll(ind, "\t", "    ") }
	var b, w strings.Builder
	prev, next := 0, 0
	regions := 0
	for range 1 + rng.IntN(3) {
		hn, tn := 2+rng.IntN(3), 2+rng.IntN(3)
		if n-next < hn+tn+2 {
			break
		}
		h0 := next + rng.IntN(n-next-hn-tn)
		at := h0 + hn
		a1 := at
		var lines []string
		switch rng.IntN(3) {
		case 0:
			ind := indentOf(ls[at])
			switch rng.IntN(3) {
			case 1:
				ind = spaces(ind)
			case 2:
				ind += "  "
			}
			for k := range 1 + rng.IntN(3) {
				lines = append(lines, ind+"graftFuzzInserted"+string(rune('A'+k))+"(state)\n")
			}
		case 1:
			// One to three lines re-indented, their tabs as two spaces
			// each (what gofmt does to a doc comment's list): the
			// change is the indentation.
			m := 1 + rng.IntN(3)
			if at+m > n {
				return "", "", nil, false
			}
			tabbed := false
			for _, l := range ls[at : at+m] {
				ind := indentOf(l)
				tabbed = tabbed || strings.Contains(ind, "\t")
				lines = append(lines, strings.ReplaceAll(ind, "\t", "  ")+l[len(ind):])
			}
			if !tabbed {
				return "", "", nil, false
			}
			a1 = at + m
		default:
			old := strings.TrimSuffix(ls[at], "\n")
			ws := strings.FieldsFunc(old, func(r rune) bool { return r > 0x7f || !wordByte(byte(r)) })
			if len(ws) == 0 || blank(old) {
				return "", "", nil, false
			}
			word := ws[rng.IntN(len(ws))]
			if fuzzKeywords[word] {
				return "", "", nil, false // an edit of a name, not of the syntax
			}
			i := 0
			for ; ; i++ {
				i += strings.Index(old[i:], word)
				end := i + len(word)
				if (i == 0 || !wordByte(old[i-1])) && (end == len(old) || !wordByte(old[end])) {
					break
				}
			}
			edited := old[:i] + word + "Edited" + old[i+len(word):]
			if rng.IntN(2) == 0 {
				ind := indentOf(edited)
				edited = spaces(ind) + edited[len(ind):]
			}
			lines, a1 = []string{edited + "\n"}, at+1
		}
		t1 := a1 + tn
		if t1 > n {
			return "", "", nil, false
		}
		head, tail := ls[h0:at], ls[a1:t1]
		// Anchors stand once, exactly, and are not blank at their ends
		// (blank lines at a region's edges belong to the markers).
		if blank(head[0]) || blank(head[len(head)-1]) || blank(tail[0]) || blank(tail[len(tail)-1]) ||
			count(head) != 1 || count(tail) != 1 {
			return "", "", nil, false
		}
		b.WriteString(marker)
		b.WriteString(strings.Join(head, ""))
		b.WriteString(strings.Join(lines, ""))
		b.WriteString(strings.Join(tail, ""))
		w.WriteString(strings.Join(ls[prev:at], ""))
		w.WriteString(strings.Join(lines, ""))
		prev, next = a1, t1+1
		for i := at; i < a1; i++ {
			replaced = append(replaced, i+1)
		}
		regions++
	}
	if regions == 0 {
		return "", "", nil, false
	}
	b.WriteString(marker)
	w.WriteString(strings.Join(ls[prev:], ""))
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if snippet.IsMarker(l) && strings.TrimSpace(l) != strings.TrimSpace(marker) {
			return "", "", nil, false // a line of the file that reads as a marker
		}
	}
	return b.String(), w.String(), replaced, true
}

// firstDiff shows where got and want first differ.
func firstDiff(got, want string) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	lo := max(0, i-120)
	return "got  ..." + strings.ReplaceAll(got[lo:min(len(got), i+120)], "\t", "→") + "\nwant ..." + strings.ReplaceAll(want[lo:min(len(want), i+120)], "\t", "→")
}

func wordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// fuzzKeywords are words of Go and Python that an edit of a name leaves.
var fuzzKeywords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`break case chan const continue default defer else fallthrough for func go goto if
		import interface map package range return select struct switch type var and as assert async await class def del
		elif except finally from global in is lambda nonlocal not or pass raise try while with yield None True False`) {
		fuzzKeywords[w] = true
	}
}
