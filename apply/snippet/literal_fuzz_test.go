package snippet

import (
	"bufio"
	"compress/gzip"
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/graftdev/graft/matcher"
)

// realFiles are the files of real code (Go and Python) of the checked-in
// model-snippet sample, sorted, without CR or NUL bytes.
var realFiles = sync.OnceValues(func() ([]string, error) {
	f, err := os.Open("../../fixtures/accuracy/testdata/model-snippets.jsonl.gz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	var out []string
	sc := bufio.NewScanner(zr)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var b struct {
			Blob string `json:"blob"`
			Data string `json:"data"`
		}
		if err := json.Unmarshal(sc.Bytes(), &b); err != nil {
			return nil, err
		}
		if b.Blob != "" && strings.HasSuffix(b.Data, "\n") && !strings.ContainsAny(b.Data, "\r\x00") {
			out = append(out, b.Data)
		}
	}
	sort.Strings(out)
	return out, sc.Err()
})

// FuzzLiteralMerge: a snippet made from a real file, whose every region
// starts and ends with 2 to 4 unchanged lines that stand once in the file
// (exactly, and not blank at either end of an anchor), with markers between
// the regions and at the ends, and that changes the lines between its
// anchors without dropping any (lines inserted, or a line edited so that
// it keeps most of its names), lands as the literal merge: the file with
// just those changes; and of the lines it names as removed unshown, each
// is one the merge replaces (an edited line whose string changed reads
// as a row replaced by another, not as that row rewritten).
func FuzzLiteralMerge(f *testing.F) {
	for i := range 8 {
		f.Add(uint16(i*29), uint64(i))
	}
	f.Fuzz(func(t *testing.T, pick uint16, seed uint64) {
		files, err := realFiles()
		if err != nil || len(files) == 0 {
			t.Skip("no real files:", err)
		}
		content := files[int(pick)%len(files)]
		ls := strings.SplitAfter(content, "\n")
		ls = ls[:len(ls)-1]
		rng := rand.New(rand.NewPCG(seed, uint64(pick)))
		code, want, replaced, ok := literalSnippet(ls, rng)
		if !ok {
			return
		}
		reps, err := Plan([]byte(content), Parse(code), matcher.Options{})
		if err != nil {
			t.Fatalf("refused: %v\nsnippet:\n%s", err, code)
		}
		if got := apply(content, reps); got != want {
			t.Fatalf("snippet:\n%s\ngot a file that is not the literal merge", code)
		}
		for _, r := range reps {
			for _, d := range r.Location().DroppedLines() {
				if !slices.Contains(replaced, d) {
					t.Fatalf("snippet:\n%s\n%s named line %d as removed unshown, a line the merge keeps", code, r.Edit, d)
				}
			}
		}
	})
}

// literalSnippet picks 1 to 3 changes in ls with their anchors and writes
// the snippet and the expected file; ok is false when the picks do not
// make a snippet with unique anchors.
func literalSnippet(ls []string, rng *rand.Rand) (code, want string, replaced []int, ok bool) {
	n := len(ls)
	if n < 12 {
		return "", "", nil, false
	}
	type region struct {
		h0, at, a1, t1 int // head [h0,at), replaced [at,a1), tail [a1,t1)
		lines          []string
	}
	var regs []region
	next := 0
	for range 1 + rng.IntN(3) {
		hn, tn := 2+rng.IntN(3), 2+rng.IntN(3)
		if n-next < hn+tn+2 {
			break
		}
		h0 := next + rng.IntN(n-next-hn-tn)
		at := h0 + hn
		r := region{h0: h0, at: at, a1: at}
		if rng.IntN(2) == 0 {
			// Insert one to three new lines, indented as the line after.
			ind := leadingSpace(ls[at])
			for k := range 1 + rng.IntN(3) {
				r.lines = append(r.lines, ind+"graftFuzzInserted"+string(rune('A'+k))+"(state)\n")
			}
		} else {
			// Edit a line: one of its names gets a suffix.
			old := strings.TrimSuffix(ls[at], "\n")
			ws := names(old)
			if len(ws) == 0 {
				return "", "", nil, false
			}
			w := ws[rng.IntN(len(ws))]
			i := wordAt(old, w)
			edited := old[:i] + w + "Edited" + old[i+len(w):]
			if nameOverlap(old, edited) < 0.5 || !sharesLongName(old, edited) {
				return "", "", nil, false
			}
			r.lines, r.a1 = []string{edited + "\n"}, at+1
		}
		r.t1 = r.a1 + tn
		if r.t1 > n {
			return "", "", nil, false
		}
		head, tail := ls[r.h0:r.at], ls[r.a1:r.t1]
		// Blank lines at a region's edges belong to the code the markers
		// keep, and a blank line an anchor grows by never tells its
		// places apart (package doc): the anchors' ends are not blank.
		if blank(head[0]) || blank(head[len(head)-1]) || blank(tail[0]) || blank(tail[len(tail)-1]) ||
			blockCount(ls, head) != 1 || blockCount(ls, tail) != 1 {
			return "", "", nil, false
		}
		regs = append(regs, r)
		for i := r.at; i < r.a1; i++ {
			replaced = append(replaced, i+1)
		}
		next = r.t1 + 1
	}
	if len(regs) == 0 {
		return "", "", nil, false
	}
	var b, w strings.Builder
	prev := 0
	for _, r := range regs {
		b.WriteString("// ... existing code ...\n")
		for _, l := range ls[r.h0:r.at] {
			b.WriteString(l)
		}
		for _, l := range r.lines {
			b.WriteString(l)
		}
		for _, l := range ls[r.a1:r.t1] {
			b.WriteString(l)
		}
		w.WriteString(strings.Join(ls[prev:r.at], ""))
		w.WriteString(strings.Join(r.lines, ""))
		prev = r.a1
	}
	b.WriteString("// ... existing code ...\n")
	w.WriteString(strings.Join(ls[prev:], ""))
	for _, l := range splitKeep(b.String()) {
		if IsMarker(l) && !strings.HasPrefix(l, "// ... existing code ...") {
			return "", "", nil, false // a line of the file that reads as a marker
		}
	}
	return b.String(), w.String(), replaced, true
}

func leadingSpace(l string) string { return l[:len(l)-len(strings.TrimLeft(l, " \t"))] }

func blank(l string) bool { return strings.TrimSpace(l) == "" }

// wordAt is where w first stands in l as a whole word (it is one of l's
// words, so it does).
func wordAt(l, w string) int {
	for off := 0; ; {
		i := strings.Index(l[off:], w) + off
		end := i + len(w)
		if (i == 0 || !isWordByte(l[i-1])) && (end == len(l) || !isWordByte(l[end])) {
			return i
		}
		off = i + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
