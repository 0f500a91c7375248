package snippet

import (
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/textedit"
	"github.com/graftdev/graft/matcher"
	"golang.org/x/tools/txtar"
)

// apply splices the replacements into content.
func apply(content string, reps []textedit.Change) string {
	sort.Slice(reps, func(i, j int) bool { return reps[i].Start < reps[j].Start })
	var b strings.Builder
	pos := 0
	for _, r := range reps {
		b.WriteString(content[pos:r.Start])
		b.WriteString(r.New)
		pos = r.End
	}
	b.WriteString(content[pos:])
	return b.String()
}

// reasons name the Reason values for the tables' "why:".
var reasons = map[string]Reason{"NoAnchor": NoAnchor, "AnchorTwice": AnchorTwice, "UnchangedTwice": UnchangedTwice,
	"EndsEitherWay": EndsEitherWay, "NotAtEdge": NotAtEdge, "WeakShift": WeakShift, "Unshiftable": Unshiftable,
	"MixedShift": MixedShift, "DeletesUnlike": DeletesUnlike, "CutsBlock": CutsBlock,
	"UnpairedBrackets": UnpairedBrackets}

// TestTable runs testdata/*.txtar: sections content, snippet and want (or
// the comment's "refuse: notfound|ambiguous|deletes|ends", "why:" naming
// the Reason, and "reason:", a part of the message); "file:" names the
// file the snippet is for (prose or code); "dropped:" the lines a landed
// snippet removes unshown, as its changes name them ("region 1: 7, 9-10";
// "none").
func TestTable(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	kinds := map[string]error{"notfound": ErrNotFound, "ambiguous": ErrAmbiguous, "deletes": ErrDeletes, "ends": ErrEnds}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string]string{}
			for _, f := range ar.Files {
				sec[f.Name] = string(f.Data)
			}
			opts := map[string]string{}
			for _, l := range strings.Split(string(ar.Comment), "\n") {
				if k, v, ok := strings.Cut(l, ":"); ok {
					opts[strings.TrimSpace(k)] = strings.TrimSpace(v)
				}
			}
			sn := Parse(sec["snippet"])
			if name := opts["file"]; name != "" {
				sn = ParseFile(name, sec["snippet"], []byte(sec["content"]))
			}
			reps, err := Plan([]byte(sec["content"]), sn, matcher.Options{})
			if want, ok := opts["refuse"]; ok {
				if err == nil {
					t.Fatalf("landed, want a refusal (%s):\n%s", want, apply(sec["content"], reps))
				}
				if !errors.Is(err, kinds[want]) || !strings.Contains(err.Error(), opts["reason"]) {
					t.Fatalf("refused with %v, want %s containing %q", err, want, opts["reason"])
				}
				if why := reasons[opts["why"]]; ReasonOf(err) != why || !errors.Is(err, why) {
					t.Fatalf("refused for reason %d (%v), want %s", ReasonOf(err), err, opts["why"])
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := apply(sec["content"], reps); got != sec["want"] {
				t.Fatalf("got\n%s\nwant\n%s", got, sec["want"])
			}
			if want, ok := opts["dropped"]; ok {
				var got []string
				for _, r := range reps {
					if r.Dropped != "" {
						got = append(got, r.Edit+": "+r.Dropped)
					}
				}
				if g := strings.Join(got, "; "); g != strings.TrimPrefix(want, "none") {
					t.Fatalf("dropped %q, want %q", g, want)
				}
			}
		})
	}
}

func TestIsMarker(t *testing.T) {
	for _, l := range []string{
		"// ... existing code ...", "    // ... existing code ...", "# ... existing code ...", "/* ... */",
		"<!-- ... existing code ... -->", "{/* ... existing code ... */}", "// ...", "// … existing code …",
		"-- ... rest of the code ...", "// ... keep existing imports ...", "// ... (existing methods unchanged) ...",
		"// ... rest of file unchanged", "  # ...", "; ... existing code ...",
		"// ... rest of the code ...", "// ... (existing code) ...", "# ... rest unchanged ...", "// …",
		"<!-- ... -->", "{/* ... existing code ... */}", "// ... (omitted for brevity) ...", "// ... snip ...",
		"// ... no changes ...", "// ... existing code continues ...", "// ... existing JSX ...",
		"// ... code below unchanged ...", "// ...existing code... //", "// ... existing code; unchanged ...",
		"# ... everything else unchanged ...", "// ... existing struct fields ...",
		"# existing code", "// existing code", "// rest of the code unchanged", "# Rest of the code remains the same",
		"// (rest of file unchanged)", "// Existing methods remain unchanged", "// ... rest of parseArgs ...",
		"# ... existing __init__ body ...", "/* rest of the function stays the same */",
	} {
		if !IsMarker(l) {
			t.Errorf("%q is a marker", l)
		}
	}
	for _, l := range []string{
		"...", "    ...", "x = ...", "// TODO: handle errors ...", "// ... then we call the server ...",
		"print('...')", "/* see below ... for details */", "// existing users", "// same as above",
		"// Other settings", "// unchanged users keep their role", "// rest of parseArgs", "// keep",
		"// ... for each entry, check it ...", "// ... no errors below ... //x", "// ... rest of the a b c ...",
	} {
		if IsMarker(l) {
			t.Errorf("%q is not a marker", l)
		}
	}
}

// TestPhraseMarkerInFile: a marker without an ellipsis is code where the
// file holds that very comment line (it then anchors), and a marker
// elsewhere.
func TestPhraseMarkerInFile(t *testing.T) {
	content := "func a() {\n\t// rest of the code unchanged\n\tx()\n}\n\nfunc b() {\n\ty()\n\tz()\n}\n"
	code := "func a() {\n\t// rest of the code unchanged\n\tx(1)\n}\n\nfunc b() {\n// rest of the file unchanged\n"
	s := ParseIn(code, []byte(content))
	if s.Markers != 1 || len(s.Regions) != 1 || len(s.Regions[0].Lines) != 6 {
		t.Fatalf("ParseIn: %d markers, regions %+v", s.Markers, s.Regions)
	}
	reps, err := Plan([]byte(content), s, matcher.Options{})
	if err != nil || len(reps) != 1 || !strings.Contains(reps[0].New, "x(1)") {
		t.Fatalf("Plan: %v %+v", err, reps)
	}
	if s := Parse(code); s.Markers != 2 || s.Phrases != 2 {
		t.Fatalf("Parse: %d markers (%d phrases), want 2 (2)", s.Markers, s.Phrases)
	}
}

// TestPhraseMarkerInProse: in Markdown a heading or a list item that
// reads like a marker is text; only a marker with an ellipsis is one.
func TestPhraseMarkerInProse(t *testing.T) {
	code := "# Title\n\n## Existing code\n* No changes\n<!-- ... -->\n"
	if s := ParseFile("README.md", code, nil); s.Markers != 1 || !s.Prose {
		t.Fatalf("README.md: %d markers (prose %v), want 1 (true)", s.Markers, s.Prose)
	}
	if s := ParseFile("main.py", "x = 1\n# existing code\n", nil); s.Markers != 1 || s.Prose {
		t.Fatalf("main.py: %d markers (prose %v), want 1 (false)", s.Markers, s.Prose)
	}
	for name, prose := range map[string]bool{"README": true, "notes.txt": true, "Makefile": false, "Dockerfile": false,
		"CMakeLists.txt": false, ".bashrc": false, "docs/guide.md": true, "src/app.ts": false} {
		if IsProse(name) != prose {
			t.Errorf("IsProse(%q) = %v, want %v", name, !prose, prose)
		}
	}
}

// FuzzPlan: any content and any snippet are either planned into
// replacements that apply cleanly (in order, inside the content, not
// overlapping) or refused with an *Error; never a panic.
func FuzzPlan(f *testing.F) {
	f.Add("a\nb\nc\n", "// ... existing code ...\nb\nB2\nc\n// ... existing code ...\n")
	f.Add("x\n\ty\n}\n", "// ...\n    y\n    z\n}\n")
	f.Add("", "// ... existing code ...\n")
	f.Add("a\r\nb\r\n", "a\nb\n// ...\n")
	f.Fuzz(func(t *testing.T, content, code string) {
		reps, err := Plan([]byte(content), Parse(code), matcher.Options{Budget: 20000})
		if err != nil {
			var e *textedit.Error
			if !errors.As(err, &e) {
				t.Fatalf("refusal of type %T: %v", err, err)
			}
			return
		}
		at := 0
		for _, r := range reps {
			if r.Start < at || r.End < r.Start || r.End > len(content) {
				t.Fatalf("replacement %d-%d after %d in %d bytes", r.Start, r.End, at, len(content))
			}
			at = r.End
		}
	})
}

// FuzzOneChange: a file, one line of it changed (or a line inserted), sent
// as a region with two unchanged lines on each side (not blank at its
// edges, and standing once in the file: what places the change for a
// careful reader) and markers: the result is exactly the changed file, or
// a refusal; never another file.
func FuzzOneChange(f *testing.F) {
	f.Add("a\nb\nc\nd\ne\nf\ng\n", 3, "C", false)
	f.Add("}\n}\n}\nx\n}\n}\n}\n", 3, "y", true)
	f.Add("\tif a {\n\t\tb()\n\t}\n\treturn\n", 1, "\t\tc()", true)
	f.Fuzz(func(t *testing.T, content string, at int, line string, insert bool) {
		_, want, ok := oneChange(content, at, line, insert)
		if !ok {
			return
		}
		landsOrRefuses(t, content, want[at-2:at+3], want)
	})
}

// FuzzTwoChanges is FuzzOneChange with two changes, each sent as its own
// region (two unchanged lines on each side, standing once in the file),
// a marker between them: the result is exactly the file with both
// changes, or a refusal.
func FuzzTwoChanges(f *testing.F) {
	f.Add("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n", 3, "C", true, 8, "H", true)
	f.Add("}\n}\n}\nx\n}\n}\n}\ny\n}\n}\n}\n", 3, "z", true, 7, "w", true)
	f.Fuzz(func(t *testing.T, content string, at1 int, line1 string, insert1 bool, at2 int, line2 string, insert2 bool) {
		if strings.ContainsAny(line1+line2, "\r\n") || !strings.HasSuffix(content, "\n") || strings.Contains(content, "\r") {
			return
		}
		ls := strings.SplitAfter(content, "\n")
		ls = ls[:len(ls)-1]
		if at1 < 2 || at2 < at1+5 || at2 > len(ls)-3 {
			return
		}
		// want: the file with both changes; region k is want[w-2:w+3]
		// around the k-th change's line w.
		var want []string
		var ws []int
		prev := 0
		for _, c := range []struct {
			at     int
			line   string
			insert bool
		}{{at1, line1, insert1}, {at2, line2, insert2}} {
			if !c.insert && wordOverlap(ls[c.at], c.line) < 0.5 && strings.TrimSpace(ls[c.at]) != "" {
				return // not a change a snippet can make (FuzzOneChange)
			}
			want = append(want, ls[prev:c.at]...)
			ws = append(ws, len(want))
			want = append(want, c.line+"\n")
			prev = c.at + 1
			if c.insert {
				prev = c.at
			}
		}
		want = append(want, ls[prev:]...)
		var b strings.Builder
		b.WriteString("// ... existing code ...\n")
		for _, w := range ws {
			if blockCount(ls, want[w-2:w]) != 1 || blockCount(ls, want[w+1:w+3]) != 1 ||
				strings.TrimSpace(want[w-2]) == "" || strings.TrimSpace(want[w+2]) == "" {
				return
			}
			for _, l := range want[w-2 : w+3] {
				b.WriteString(l)
			}
			b.WriteString("// ... existing code ...\n")
		}
		if ws[1]-2 <= ws[0]+2 {
			return // the regions overlap: one change, not two
		}
		sn := Parse(b.String())
		if len(sn.Regions) != 2 {
			return // a line of the file reads as a marker
		}
		reps, err := Plan([]byte(content), sn, matcher.Options{Budget: 20000})
		if err != nil {
			return
		}
		if got := apply(content, reps); got != strings.Join(want, "") && got != content {
			t.Fatalf("content %q, snippet %q:\ngot  %q\nwant %q", content, b.String(), got, strings.Join(want, ""))
		}
	})
}

// landsOrRefuses plans the snippet of one region, lines, between markers
// on content, and fails t unless it is refused, leaves content as it is,
// or lands as want.
func landsOrRefuses(t *testing.T, content string, lines, want []string) {
	t.Helper()
	code := "// ... existing code ...\n" + strings.Join(lines, "") + "// ... existing code ...\n"
	reps, err := Plan([]byte(content), Parse(code), matcher.Options{Budget: 20000})
	if err != nil {
		return
	}
	if got := apply(content, reps); got != strings.Join(want, "") && got != content {
		t.Fatalf("content %q, snippet %q:\ngot  %q\nwant %q", content, code, got, strings.Join(want, ""))
	}
}

// oneChange is FuzzOneChange's case: the file's lines, and the lines of
// the file with line at replaced by line (or line inserted before it),
// where a careful reader can place a region of two unchanged lines on each
// side of the change; ok is false for inputs that make no such case.
func oneChange(content string, at int, line string, insert bool) (ls, want []string, ok bool) {
	if strings.ContainsAny(line, "\r\n") || !strings.HasSuffix(content, "\n") || strings.Contains(content, "\r") {
		return nil, nil, false
	}
	ls = strings.SplitAfter(content, "\n")
	ls = ls[:len(ls)-1]
	if len(ls) < 5 || at < 2 || at > len(ls)-3 {
		return nil, nil, false
	}
	want = append([]string{}, ls[:at]...)
	want = append(want, line+"\n")
	rest := ls[at+1:]
	if insert {
		rest = ls[at:]
	}
	want = append(want, rest...)
	if !insert && wordOverlap(ls[at], line) < 0.5 && strings.TrimSpace(ls[at]) != "" {
		// A line replaced by one that shares no words with it is not
		// a change a snippet can make (the deletion rule refuses it),
		// so such a snippet has no intended reading to compare with.
		return nil, nil, false
	}
	// The unchanged lines around the change must say where it is, as
	// a careful reader needs: the two before it stand once together
	// in the file, and so do the two after it.
	if blockCount(ls, want[at-2:at]) != 1 || blockCount(ls, want[at+1:at+3]) != 1 {
		return nil, nil, false
	}
	if strings.TrimSpace(want[at-2]) == "" || strings.TrimSpace(want[at+2]) == "" {
		// Blank lines at a region's edges belong to the code the
		// markers keep (package doc): such a region says nothing
		// about them.
		return nil, nil, false
	}
	return ls, want, true
}

// FuzzTrailingSlipOneChange is FuzzOneChange with a space added at the end
// of every line of the region, as some models send them: the result is
// exactly the changed file (the file's bytes for its lines, the new line
// without the space every line was given), or a refusal. A new line of
// white space only is all trailing white space, which the slip's removal
// takes; it is left out.
func FuzzTrailingSlipOneChange(f *testing.F) {
	f.Add("a\nb\nc\nd\ne\nf\ng\n", 3, "C", false)
	f.Add("func f() {\n\ta()\n\tb()\n\tc()\n\td()\n}\n", 3, "\tx()", true)
	f.Fuzz(func(t *testing.T, content string, at int, line string, insert bool) {
		_, want, ok := oneChange(content, at, line, insert)
		if !ok || strings.TrimSpace(line) == "" {
			return
		}
		sent := make([]string, 5)
		for k, l := range want[at-2 : at+3] {
			sent[k] = strings.TrimSuffix(l, "\n") + " \n"
		}
		landsOrRefuses(t, content, sent, want)
	})
}

// FuzzDedentedOneChange is FuzzOneChange with the region sent without
// its common indentation, as models often send nested code: the result is
// exactly the changed file, the new line indented like the region's
// lines, or a refusal; never another file. The region's unchanged pairs
// must stand once in the file even compared without indentation (what a
// careful reader needs to place a dedented region) and nowhere as sent.
func FuzzDedentedOneChange(f *testing.F) {
	f.Add("func f() {\n\ta()\n\tb()\n\tc()\n\td()\n\te()\n}\n", 3, "\tC()", false)
	f.Add("class A:\n    def f(self):\n        x = 1\n        y = 2\n        return x\n    def g(self):\n        pass\n", 3, "        z = 3", true)
	f.Add("{\n  {\n    a\n    b\n    c\n    d\n  }\n}\n", 4, "    B", false)
	f.Fuzz(func(t *testing.T, content string, at int, line string, insert bool) {
		ls, want, ok := oneChange(content, at, line, insert)
		if !ok {
			return
		}
		region := want[at-2 : at+3]
		for _, l := range region {
			if strings.TrimSpace(l) == "" {
				return // blank lines' indentation says nothing either way
			}
		}
		// The common indentation: the longest run of spaces or tabs that
		// begins every line of the region.
		prefix := region[0][:len(region[0])-len(strings.TrimLeft(region[0], " \t"))]
		for _, l := range region[1:] {
			for !strings.HasPrefix(l, prefix) {
				prefix = prefix[:len(prefix)-1]
			}
		}
		if prefix == "" {
			return
		}
		sent := make([]string, len(region))
		for i, l := range region {
			sent[i] = l[len(prefix):]
		}
		trimmed := func(ls []string) []string {
			out := make([]string, len(ls))
			for i, l := range ls {
				out[i] = strings.TrimSpace(l)
			}
			return out
		}
		tls := trimmed(ls)
		for _, pair := range [][]string{sent[0:2], sent[3:5]} {
			if blockCount(ls, pair) != 0 || blockCount(tls, trimmed(pair)) != 1 {
				return
			}
		}
		landsOrRefuses(t, content, sent, want)
	})
}

// FuzzForgottenMarker: a region that shows the lines around a run of
// three or more of the file's lines with names but not the run itself (the
// marker over it forgotten), maybe with a new line inserted before the
// gap, and whose lines name nothing of the run's: no part of the deletion
// rule can account for the run (no line reads like its lines, no call
// names their values, more than two are left over), so the result is a
// refusal, the file unchanged (nothing was meant to change), or, with a
// new line, the file with that line inserted and the run kept; never the
// run gone. Without a new line, a run of three is what a region that
// shows nothing new may drop (part 3: one run of at most three lines), so
// there the run holds four or more (five where the inserted line is one
// of the run's own, which the region may be read as showing).
func FuzzForgottenMarker(f *testing.F) {
	f.Add("func f() {\n\ta := 1\n\tb := 2\n\tcx := load(qq)\n\tdy := save(rr)\n\tez := keep(cx, dy)\n\tuse(a, b)\n\treturn\n}\n", 1, 3, 3, "\tlog(zz)", true)
	f.Add("x = 1\ny = 2\nalpha = 3\nbeta = 4\ngamma = 5\ndelta = 6\nz = x + y\nprint(z)\n", 0, 2, 4, "", false)
	f.Fuzz(func(t *testing.T, content string, a, g, n int, line string, insert bool) {
		if strings.ContainsAny(line, "\r\n") || !strings.HasSuffix(content, "\n") || strings.Contains(content, "\r") {
			return
		}
		ls := strings.SplitAfter(content, "\n")
		ls = ls[:len(ls)-1]
		// The region: ls[a:g] (at least two lines), the gap ls[g:g+n]
		// (at least three), ls[g+n:g+n+2].
		if a < 0 || g < a+2 || n < 3 || g+n+2 > len(ls) {
			return
		}
		gap := ls[g : g+n]
		sent := append(append([]string{}, ls[a:g]...), ls[g+n:g+n+2]...)
		if insert {
			if strings.TrimSpace(line) == "" {
				return
			}
			sent = slices.Insert(sent, g-a, line+"\n")
		}
		if blockCount(ls, ls[a:a+2]) != 1 || blockCount(ls, ls[g+n:g+n+2]) != 1 ||
			strings.TrimSpace(ls[a]) == "" || strings.TrimSpace(ls[g+n+1]) == "" {
			return // a careful reader could not place it either (FuzzOneChange)
		}
		// The gap's names, none of them named by the region, nor a part
		// or a whole of a region's word (processItem for item).
		named := 0
		var gapNames []string
		for _, l := range gap {
			if strings.TrimSpace(l) == "" {
				return
			}
			ns := names(l)
			if len(ns) > 0 {
				named++
			}
			gapNames = append(gapNames, ns...)
		}
		// An inserted line that is one of the gap's own lines may be read
		// as that line shown, the region then inserting nothing: the rest
		// of the gap must hold more than a region that shows nothing new
		// may drop.
		shown := false
		for _, l := range gap {
			shown = shown || insert && strings.TrimSpace(l) == strings.TrimSpace(line)
		}
		if named < 3 || !insert && named <= maxDropped || shown && named <= maxDropped+1 {
			return
		}
		for _, l := range sent {
			for _, w := range words(l) {
				w = strings.ToLower(w)
				for _, d := range gapNames {
					d = strings.ToLower(d)
					if strings.Contains(w, d) || len(w) > 1 && strings.Contains(d, w) {
						return
					}
				}
			}
		}
		code := "// ... existing code ...\n" + strings.Join(sent, "") + "// ... existing code ...\n"
		sn := Parse(code)
		if len(sn.Regions) != 1 || len(sn.Regions[0].Lines) != len(sent) {
			return // a line of the region reads as a marker
		}
		reps, err := Plan([]byte(content), sn, matcher.Options{Budget: 20000})
		if err != nil {
			return
		}
		want := content
		if insert {
			want = strings.Join(ls[:g], "") + line + "\n" + strings.Join(ls[g:], "")
		}
		if got := apply(content, reps); got != want && got != content {
			t.Fatalf("content %q, snippet %q:\ngot  %q\nwant %q (or a refusal)", content, code, got, want)
		}
	})
}

// blockCount counts the places where block stands as consecutive lines
// of ls (overlapping places too).
func blockCount(ls, block []string) int {
	n := 0
	for i := 0; i+len(block) <= len(ls); i++ {
		if slices.Equal(ls[i:i+len(block)], block) {
			n++
		}
	}
	return n
}

// TestRewriteOrForgottenMarker: a block replaced by a call lands when the
// call stands for it (a new helper passed what the block's body uses, or
// half the values its first line works on); an inserted call next to lines
// a forgotten marker dropped is refused.
func TestRewriteOrForgottenMarker(t *testing.T) {
	const content = `package p

func up(h []int, n int, ldr *L) {
	x := 1
	for n > 0 {
		p := (n - 1) / 2
		if ldr.Less(h[n], h[p]) {
			break
		}
		h[n], h[p] = h[p], h[n]
		n = p
	}
	done(x)
}

func paeth(a, b, c int) int {
	pa := b - c
	pb := a - c
	pc := abs(pa + pb)
	pa = abs(pa)
	pb = abs(pb)
	if pa <= pb && pa <= pc {
		return a
	} else if pb <= pc {
		return b
	}
	return c
}
`
	for _, c := range []struct {
		name, snippet string
		land          bool
	}{
		{"new helper for a loop", "// ... existing code ...\n\tx := 1\n\tsiftUp(h, ldr)\n\tdone(x)\n}\n// ... existing code ...\n", true},
		{"helper naming the loop's values", "// ... existing code ...\n\tpb := a - c\n\tpc := abs(pa + pb)\n\tpa = abs(pa)\n\treturn pick(pa, pb, pc, a, b, c)\n}\n// ... existing code ...\n", true},
		{"inserted call, marker forgotten", "// ... existing code ...\n\tpc := abs(pa + pb)\n\tpa = abs(pa)\n\tlog.Printf(\"pa=%v\", pa)\n\treturn c\n}\n// ... existing code ...\n", false},
		{"log line, marker forgotten over a nested block", "// ... existing code ...\n\tx := 1\n\tlog.Printf(\"n=%v\", n)\n\tdone(x)\n}\n// ... existing code ...\n", false},
		{"existing function for a loop", "// ... existing code ...\n\tx := 1\n\tdone(ldr)\n\tdone(x)\n}\n// ... existing code ...\n", false},
	} {
		_, err := Plan([]byte(content), Parse(c.snippet), matcher.Options{})
		if (err == nil) != c.land {
			t.Errorf("%s: err %v, want landed %v", c.name, err, c.land)
		}
	}
}

// TestInsertedCallForgottenMarker: a call of a new function inserted
// before a forgotten marker stands for no block it happens to precede.
func TestInsertedCallForgottenMarker(t *testing.T) {
	for _, c := range []struct{ name, content, snippet string }{
		{"for without a condition", "func process(items []Item, out io.Writer) error {\n\tcount := 0\n\tfor {\n\t\titem, ok := next(items)\n\t\tif !ok {\n\t\t\tbreak\n\t\t}\n\t\tcount++\n\t\twrite(out, item)\n\t}\n\treturn finish(out, count)\n}\n",
			"// ... existing code ...\n\tcount := 0\n\trecordStart(out)\n\treturn finish(out, count)\n}\n"},
		{"counted loop", "func process(items []Item, out io.Writer) error {\n\tcount := 0\n\tfor i := 0; i < n; i++ {\n\t\titem := items[i]\n\t\tcount++\n\t\twrite(out, item)\n\t}\n\treturn finish(out, count)\n}\n",
			"// ... existing code ...\n\tcount := 0\n\trecordStart(out)\n\treturn finish(out, count)\n}\n"},
		{"try block", "async function handler(req, res) {\n  const user = await getUser(req);\n  try {\n    await db.save(user);\n\n    res.send(200);\n  } catch (e) {\n    res.send(500);\n  }\n  audit(user);\n}\n",
			"// ... existing code ...\n  const user = await getUser(req);\n  trackUser(user);\n  audit(user);\n// ... existing code ...\n"},
		{"error check", "func get(url string) ([]byte, error) {\n\tdata, err := fetch(url)\n\tif err != nil {\n\t\treturn nil, fmt.Errorf(\"get %s: %w\", url, err)\n\t}\n\treturn data, nil\n}\n",
			"// ... existing code ...\n\tdata, err := fetch(url)\n\tcacheResponse(url)\n\treturn data, nil\n}\n"},
		{"log line over a loop", "func f(items []int) int {\n\ttotal := 0\n\tfor _, it := range items {\n\t\ttotal += it\n\t}\n\treturn total\n}\n",
			"// ... existing code ...\n\ttotal := 0\n\tlog.Printf(\"items=%v\", items)\n\treturn total\n}\n"},
	} {
		if got, err := Plan([]byte(c.content), Parse(c.snippet), matcher.Options{}); err == nil {
			t.Errorf("%s: landed %+v, want a refusal", c.name, got)
		}
	}
}

// TestCutOpening: a region that drops a block's opening line and keeps
// its body lands only when a new opening line takes the body over.
func TestCutOpening(t *testing.T) {
	const content = `func set(s int, family, sotype int) error {
	if family == 6 && sotype != 3 {
		// both versions
		setOpt(s, 1)
	}
	if sotype == 2 || sotype == 3 {
		// Allow broadcast.
		return setOpt(s, 2)
	}
	return nil
}
`
	for _, c := range []struct {
		name, snippet string
		land          bool
	}{
		{"condition rewritten, body kept", "// ... existing code ...\n\t\tsetOpt(s, 1)\n\t}\n\tif isDatagram(sotype) {\n\t\t// Allow broadcast.\n\t\treturn setOpt(s, 2)\n// ... existing code ...\n", true},
		{"changed line, marker forgotten", "// ... existing code ...\nfunc set(s int, family, sotype int) error {\n\tif family == 6 && sotype2 != 3 {\n\t\t// Allow broadcast.\n\t\treturn setOpt(s, 2)\n// ... existing code ...\n", false},
	} {
		_, err := Plan([]byte(content), Parse(c.snippet), matcher.Options{})
		if (err == nil) != c.land {
			t.Errorf("%s: err %v, want landed %v", c.name, err, c.land)
		}
	}
}

// TestRefusalSuggestsTheSnippetsMarker: a refusal that tells the caller to
// add a marker writes it as the snippet writes its markers, or else in the
// file's comment syntax: an agent copies the suggestion into its retry, and
// "// ..." is not a comment in Python or YAML.
func TestRefusalSuggestsTheSnippetsMarker(t *testing.T) {
	const py = "import os\nimport re\nimport sys\n\n\ndef a():\n    x = 1\n    y = compute(x)\n    z = other(y)\n    v = again(z)\n    w = more(v)\n    return w\n\n\ndef b():\n    return 2\n"
	for _, c := range []struct{ name, file, content, snippet, want string }{
		{"the snippet's own marker", "m.py", py,
			"# ... rest of the module ...\ndef a():\n    x = 1\n    return w\n# ... rest of the module ...\n", `"# ... rest of the module ..."`},
		{"no marker at the start: the snippet's other one", "m.py", py,
			"def a():\n    x = 1\n    y = compute(x)\n    z = other(y, 2)\n    v = again(z)\n    w = more(v)\n# ... existing code ...\n", `"# ... existing code ..."`},
		{"Go", "m.go", "package p\n\nfunc a() {\n\tx := 1\n\ty := f(x)\n\tz := g(y)\n\tk := m(z)\n\th(k)\n}\n",
			"// ... existing code ...\nfunc a() {\n\tx := 1\n}\n// ... existing code ...\n", `"// ... existing code ..."`},
	} {
		_, err := Plan([]byte(c.content), ParseFile(c.file, c.snippet, []byte(c.content)), matcher.Options{})
		if err == nil || !strings.Contains(err.Error(), "such as "+c.want) || strings.Contains(err.Error(), "\x00") {
			t.Errorf("%s: err %v, want a refusal suggesting %s", c.name, err, c.want)
		}
	}
}

func TestMarkerFor(t *testing.T) {
	for name, want := range map[string]string{
		"main.go": "// ... existing code ...", "src/app.py": "# ... existing code ...", "ci/build.yml": "# ... existing code ...",
		"Cargo.toml": "# ... existing code ...", "Makefile": "# ... existing code ...", "CMakeLists.txt": "# ... existing code ...",
		"docs/README.md": "<!-- ... existing code ... -->", "q.sql": "-- ... existing code ...", "a.css": "/* ... existing code ... */",
		"package.json": "// ... existing code ...", `C:\src\x.RB`: "# ... existing code ...",
	} {
		got := MarkerFor(name)
		if got != want {
			t.Errorf("MarkerFor(%q) = %q, want %q", name, got, want)
		}
		if !IsMarker(got) {
			t.Errorf("MarkerFor(%q) = %q, which is not read as a marker", name, got)
		}
	}
}

// TestComments: how many block comments a line leaves open (1) or ends
// without having begun (-1); path patterns in data begin and end none.
func TestComments(t *testing.T) {
	for l, want := range map[string]int{
		"/*": 1, "/* ": 1, "/** doc": 1, "/**********": 1, "*/": -1, " */": -1, "** x */": -1, "**********/": -1,
		"a /* b */": 0, "/*x*/": 0, "/**/": 0, "x */ y /* z": 0, "/* a */ /* b": 1,
		"VKSTR,  /* string constant; strval = TString address;": 1, "             (string is fixed by the lexer) */": -1,
		"paths: src/**/*.go": 0, "// see lib/*": 0, "files: lib/*": 0, "x = 1; // old /* y": 0, "f(a);/* note": 1, "STOREMAP/*\tb\tv_b k_b */": 0, "/* ELSE *//* FALLTHROUGH */": 0, "x/* y */": 0, "*/\n": -1, "/*\r\n": 1, "a **/*.js": 0, `x := "/* not a comment"`: 0, `"src/*" */`: -1,
	} {
		if got := comments([]string{l}); got != want {
			t.Errorf("comments(%q) = %d, want %d", l, got, want)
		}
	}
}

// A "//" begins a comment unless it is a URL's, after its scheme.
func TestCommentStart(t *testing.T) {
	for _, c := range []struct {
		l    string
		want int
	}{
		{"x := 1 // one", 7},
		{"url: https://example.com/a", -1},
		{"see [docs](http://example.com) // and more", 31},
		{"default:// the rest", 8},
		{"case 1:// one", 7},
		{"git+ssh://host/repo", -1},
		{"a://", 2},
		{"x_y://z", 4},
	} {
		if got := commentStart(c.l); got != c.want {
			t.Errorf("commentStart(%q) = %d, want %d", c.l, got, c.want)
		}
	}
}
