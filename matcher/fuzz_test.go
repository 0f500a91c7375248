package matcher

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzFind checks the cascade's invariants on any input:
//   - no panic;
//   - whenever the exact tier alone finds a unique span, Find returns it;
//   - the fuzzy tiers never spend more than their budget;
//   - a fuzzy match covers whole lines that equal the old text's lines
//     loosely, and Adapt(old) gives back the file's own text there.
func FuzzFind(f *testing.F) {
	f.Add("a\nb\nc\n", "b\n", "x\n", 0)
	f.Add("\tif x {\n\t\ty()\n\t}\n", "    if x {\n        y()\n    }\n", "    if x {\n        z()\n    }\n", 2)
	f.Add("a\r\nb\r\n", "a\nb\n", "a\nc\n", 0)
	f.Add("x := \"hi\"\n", "x := “hi”\n", "x := “ho”\n", 1)
	f.Add("f(\"\\n\")\n", `f(\"\\n\")`, `g(\"\\n\")`, 0)
	f.Add("a\na\n", "a", "b", 1)
	f.Add("\n\n\n", "\n", "x", 0)
	f.Add("a\n\treturn n\n}\n\nb\n\treturn n\n}\n", "  return n \n} \n ", "  return m \n} \n ", 2)
	f.Add("\tx := f()\n\treturn nil\n\tf()\n\treturn n\n", "f()\n  return n", "g()\n  return n", 3)
	f.Fuzz(func(t *testing.T, content, old, nw string, budgetSel int) {
		content = strings.ReplaceAll(content, "\x00", "")
		if old == "" {
			return
		}
		budget := []int{0, 50, 1000, 100000}[uint(budgetSel)%4]
		opt := Options{Budget: budget, NewText: nw}
		exact := exactAll([]byte(content), old, true)
		m, err := Find([]byte(content), old, opt)
		if len(exact) == 1 {
			if err != nil || m.Start != exact[0].Start || m.End != exact[0].End || m.Tier != Exact {
				t.Fatalf("exact span %d..%d, Find gave %+v, %v", exact[0].Start, exact[0].End, m, err)
			}
			return
		}
		if len(exact) > 1 {
			if !errors.Is(err, ErrAmbiguous) {
				t.Fatalf("%d exact matches, Find gave %+v, %v", len(exact), m, err)
			}
			return
		}
		spent, fm, ferr := fuzzyFindWork([]byte(content), old, opt)
		b := budget
		if b == 0 {
			b = DefaultBudget
		}
		if spent > b {
			t.Fatalf("spent %d > budget %d", spent, b)
		}
		if (ferr == nil) != (err == nil) || ferr == nil && (fm.Start != m.Start || fm.End != m.End) {
			t.Fatalf("Find and fuzzyFind disagree: %+v %v / %+v %v", m, err, fm, ferr)
		}
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) {
				t.Fatalf("error %T is not a *Refusal", err)
			}
			return
		}
		if m.Start < 0 || m.End < m.Start || m.End > len(content) || m.Similarity <= 0 || m.Similarity > 1 {
			t.Fatalf("bad match %+v in %d bytes", m, len(content))
		}
		got := applyEdit([]byte(content), m, old)
		if strings.ReplaceAll(string(got), "\r", "") != strings.ReplaceAll(content, "\r", "") {
			t.Fatalf("Adapt(old) at %+v is not the file's text:\n%q\n%q", m, got, content)
		}
	})
}

// TestBudget checks that a small budget makes the fuzzy tiers give up
// rather than work past it.
func TestBudget(t *testing.T) {
	content := strings.Repeat("\tx()\n", 5000)
	old := strings.Repeat("  x()\n", 30) + "  y()\n"
	for _, b := range []int{10, 1000, 20000, 100000} {
		spent, _, err := fuzzyFindWork([]byte(content), old, Options{Budget: b})
		if spent > b {
			t.Errorf("budget %d: spent %d", b, spent)
		}
		if err == nil {
			t.Errorf("budget %d: found a block that is not there", b)
		}
	}
}

// TestRivalsWork checks that looking for partial-line rivals (rivals.go)
// keeps a fuzzy search within the budget that bounds the largest files: on
// a file of N lines, indexing (2N) and the candidates' pass (N) plus the
// rivals' search stay under 3.5N units for an old text of one line or
// three without a final line break, so the default budget still covers
// files of a million lines.
func TestRivalsWork(t *testing.T) {
	const n = 100000
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "\tline %d: value = 0 and some padding text\n", i)
	}
	content := []byte(b.String())
	for _, old := range []string{
		"    line 777: value = 0 and some padding text",
		"    line 776: value = 0 and some padding text\n    line 777: value = 0 and some padding text\n    line 778: value = 0 and some padding text",
	} {
		w, m, err := fuzzyFindWork(content, old, Options{Budget: 1 << 30})
		if err != nil || m.Line != 777 && m.Line != 778 {
			t.Fatalf("%q: %+v %v", old, m, err)
		}
		if w > 7*n/2 {
			t.Errorf("%q: %d units on %d lines", old[:24], w, n)
		}
	}
}

// genLines builds n lines of Go-like code whose lines are all distinct.
func genLines(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "func f%d(x int) int {\n", i)
		case 1, 2:
			fmt.Fprintf(&b, "\tv%d := compute(x, %d)\n", i, i*7)
		case 3:
			fmt.Fprintf(&b, "\treturn v%d\n", i-1)
		default:
			b.WriteString("}\n")
		}
	}
	return b.String()
}

// BenchmarkFind locates a 30-line block in the middle of files of 1k, 10k
// and 100k lines, exactly and through the indentation tier (the block
// written with spaces where the file has tabs), and the latter without its
// final line break, which makes the tier look for the same lines standing
// elsewhere with the last one continued (rivals.go).
func BenchmarkFind(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		content := genLines(n)
		src := []byte(content)
		lines := strings.SplitAfter(content, "\n")
		block := strings.Join(lines[n/2:n/2+30], "")
		fuzzy := strings.ReplaceAll(block, "\t", "    ")
		// The same block with one line changed, as an edit's new text (the
		// guards that weigh it run: already applied, open typography,
		// indentation and alignment).
		fuzzyNew := strings.Replace(fuzzy, strings.ReplaceAll(lines[n/2+10], "\t", "    "), "    changed(42)\n", 1)
		for _, c := range []struct {
			name, old, nw string
			tier          Tier
		}{{"exact", block, "", Exact}, {"fuzzy", fuzzy, "", Indentation}, {"fuzzy+new", fuzzy, fuzzyNew, Indentation},
			{"fuzzy-open-end", strings.TrimSuffix(fuzzy, "\n"), "", Indentation},
			// A line the caller got wrong: refused, with the nearest
			// candidates ranked (tier "" marks a refusal).
			{"refused", strings.Replace(block, lines[n/2+15], "\tnothing like this line(42)\n", 1), "", ""}} {
			b.Run(fmt.Sprintf("%s/%dk", c.name, n/1000), func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(content)))
				for b.Loop() {
					m, err := Find(src, c.old, Options{NewText: c.nw})
					if c.tier == "" {
						var r *Refusal
						if !errors.As(err, &r) || len(r.Candidates) == 0 {
							b.Fatalf("want a refusal with candidates, got %+v %v", m, err)
						}
						continue
					}
					if err != nil || m.Tier != c.tier {
						b.Fatalf("%+v %v", m, err)
					}
				}
			})
		}
	}
}

// BenchmarkIndex compares index with bytes.Index on 10 MB where the
// needle's rarest byte is frequent: numbered lines (edges.sh's big file:
// the rare byte once in about 40 bytes) and a byte every 33 and every 31
// bytes, the densities either side of where index hands over to
// bytes.Index. The needle stands once, near the end.
func BenchmarkIndex(b *testing.B) {
	var numbered strings.Builder
	for i := 0; numbered.Len() < 10_000_000; i++ {
		fmt.Fprintf(&numbered, "line %d: value = 0 some text to make the line longer %d\n", i, i*7919%100000)
	}
	every := func(k int) string {
		unit := strings.Repeat("a", k-1) + "Q"
		return strings.Repeat(unit, 10_000_000/k)
	}
	for _, c := range []struct{ name, content, needle string }{
		{"numbered", numbered.String(), "line 231500: value = 0 "},
		{"every33", every(33), "aaaQaaaaaaaaaaQaaa"},
		{"every31", every(31), "aaaQaaaaaaaaaaQaaa"},
	} {
		src := []byte(c.content)
		n := len(src) - 1000
		src = append(src[:n:n], append([]byte(c.needle), src[n:]...)...)
		needle := []byte(c.needle)
		rare := rarestByte(needle)
		want := bytes.Index(src, needle)
		b.Run(c.name+"/index", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if index(src, needle, rare) != want {
					b.Fatal("index disagrees")
				}
			}
		})
		b.Run(c.name+"/bytes.Index", func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				bytes.Index(src, needle)
			}
		})
	}
}

// FuzzSlipNeverPicks checks the rule that a fuzzy tier never picks where
// the exact tier, given the text without the slip, would have refused: an
// old text cut anywhere from the content (starting and ending inside lines
// or not) that stands there twice or more is refused however the caller
// slipped, when the slip is one no other text in the content can match
// more tightly: CRLF line breaks for an LF file, a space added before
// every line break (the content having no trailing white space), curly
// quotes for straight ones (the content being ASCII), the text escaped
// once (the content having no backslash), or its tabs written as four
// spaces (the content indented with tabs and having no other).
func FuzzSlipNeverPicks(f *testing.F) {
	f.Add("\tMOVD\t$0, R5\n\tSVC\n\tMOVD\tR0, r1+32(FP)\t// r1\n\tRET\n\tMOVD\t$0, R5\n\tSVC\n\tMOVD\tR0, r1+32(FP)\n\tRET\n", 1, 33, false)
	f.Add("\tx := f()\n\treturn nil\n\tf()\n\treturn n\n", 7, 28, true)
	f.Add("a {\n\treturn 0, nil\n}\n\nb {\n\treturn 0, nil\n}\n", 4, 21, true)
	f.Add("say(\"hi\")\nok()\nsay(\"hi\")\nok()\n", 0, 15, true)
	f.Fuzz(func(t *testing.T, content string, start, length int, trail bool) {
		if strings.ContainsAny(content, "\r\x00") || len(content) == 0 {
			return
		}
		ascii := isASCII(content)
		for _, l := range strings.Split(content, "\n") {
			if rtrim(l) != l {
				return // trailing white space of its own
			}
		}
		start = int(uint(start) % uint(len(content)))
		end := start + int(uint(length)%uint(len(content)-start+1))
		old := content[start:end]
		if !strings.Contains(old, "\n") || strings.TrimSpace(old) == "" {
			return
		}
		if len(exactAll([]byte(content), old, true)) < 2 {
			return
		}
		slips := []string{strings.ReplaceAll(old, "\n", "\r\n")}
		if trail {
			slips[0] = strings.ReplaceAll(old, "\n", " \n")
		}
		if ascii && strings.Contains(old, `"`) {
			slips = append(slips, strings.ReplaceAll(old, `"`, "\u201c"))
		}
		if !strings.Contains(content, `\`) {
			slips = append(slips, strings.NewReplacer("\n", `\n`, "\t", `\t`, `"`, `\"`).Replace(old))
		}
		if tabIndented(content) && strings.Contains(old, "\t") {
			slips = append(slips, strings.ReplaceAll(old, "\t", "    "))
		}
		for _, slipped := range slips {
			if len(exactAll([]byte(content), slipped, true)) > 0 {
				continue
			}
			if m, err := Find([]byte(content), slipped, Options{}); err == nil {
				t.Fatalf("%q stands %d times exactly, yet its slip %q was placed at %d..%d (%s)",
					old, len(exactAll([]byte(content), old, true)), slipped, m.Start, m.End, m.Tier)
			}
		}
	})
}

// FuzzIndentSlipNeverMisplaces checks the indentation tier against the
// exact tier: whole lines cut from a tab-indented content (tabs only at the
// start of lines) and sent with every indenting tab written as four spaces
// (and also with CRLF breaks, or a space before every break), or shifted a
// level in or out, are placed, if
// at all, exactly where the unslipped text stands, and only when it stands
// there alone. (Stray blank lines are left out: they add context of their
// own, which may rightly place the text elsewhere.)
func FuzzIndentSlipNeverMisplaces(f *testing.F) {
	f.Add("func a() {\n\tif x {\n\t\treturn 1\n\t}\n}\nfunc b() {\n\t\treturn 1\n\t}\n", 2, 2)
	f.Add("\tfoo\n\tbar\n\t\tfoo\n\t\tbar\n", 0, 2)
	f.Fuzz(func(t *testing.T, content string, from, n int) {
		if strings.ContainsAny(content, "\r\x00") {
			return
		}
		if !tabIndented(content) {
			return
		}
		lines := strings.SplitAfter(content, "\n")
		from, to, ok := pickLines(len(lines), from, n)
		if !ok {
			return
		}
		old := strings.Join(lines[from:to], "")
		if !strings.Contains(old, "\t") || strings.TrimSpace(old) == "" {
			return
		}
		slip := func(s string) string {
			ls := strings.SplitAfter(s, "\n")
			for i, l := range ls {
				body := strings.TrimLeft(l, "\t")
				ls[i] = strings.Repeat("    ", len(l)-len(body)) + body
			}
			return strings.Join(ls, "")
		}
		shift := func(s string, add bool) string {
			ls := strings.SplitAfter(s, "\n")
			for i, l := range ls {
				switch {
				case strings.TrimSpace(l) == "":
				case add:
					ls[i] = "\t" + l
				case strings.HasPrefix(l, "\t"):
					ls[i] = l[1:]
				default:
					return ""
				}
			}
			return strings.Join(ls, "")
		}
		exact := exactAll([]byte(content), old, true)
		for k, slipped := range []string{
			slip(old),
			strings.ReplaceAll(slip(old), "\n", "\r\n"),
			strings.ReplaceAll(slip(old), "\n", " \n"),
			shift(old, true),
			shift(old, false),
		} {
			if slipped == "" || slipped == old {
				continue
			}
			if len(exactAll([]byte(content), slipped, true)) > 0 {
				continue
			}
			m, err := Find([]byte(content), slipped, Options{})
			if err != nil {
				continue
			}
			if k >= 3 && !strings.Contains(string(m.Tier), string(Indentation)) {
				// A shifted text found without its indentation read
				// differently stands there as it is (but for a missing
				// final line break): another block, rightly.
				continue
			}
			if k >= 3 && slices.ContainsFunc(exact, func(e Match) bool { return e.Start > 0 && content[e.Start-1] != '\n' }) {
				// Shifted, the first line starts at an indentation: the
				// text's exact places inside a line are not its reading.
				continue
			}
			// The span may take in blank lines around the text that the
			// slipped text has as well; it must hold the text's one place.
			if len(exact) != 1 || m.Start > exact[0].Start || m.End < exact[0].End ||
				strings.TrimSpace(content[m.Start:m.End]) != strings.TrimSpace(old) {
				t.Fatalf("%q (exactly at %v) slipped to %q was placed at %d..%d (%s)", old, exact, slipped, m.Start, m.End, m.Tier)
			}
		}
	})
}

// FuzzSlipAdaptsBack checks Adapt against the exact edit: whole lines of a
// tab-indented ASCII content, standing once, edited (a line changed, or one
// inserted after it) and sent with a slip (tabs written as four spaces,
// CRLF breaks, a space before every break, curly double quotes, the first
// three at once, or a level of indentation too many; or mixed: the kept
// lines retyped with four or eight spaces per tab, the changed lines with
// their tabs) land, if at all, as the same edit made exactly would: the
// slip undone on every line.
func FuzzSlipAdaptsBack(f *testing.F) {
	f.Add("func a() {\n\tif x {\n\t\ty(\"q\")\n\t}\n}\n", 1, 3, 1, true)
	f.Add("a\n\tb\n\t\tc\nd\n", 1, 2, 0, false)
	f.Fuzz(func(t *testing.T, content string, from, n, at int, insert bool) {
		if strings.ContainsAny(content, "\r\x00") || !strings.HasSuffix(content, "\n") || !isASCII(content) || !tabIndented(content) {
			return
		}
		lines := strings.SplitAfter(content, "\n")
		lines = lines[:len(lines)-1] // the empty string after the final break
		for _, l := range lines {
			if rtrim(strings.TrimSuffix(l, "\n")) != strings.TrimSuffix(l, "\n") {
				return
			}
		}
		from, to, ok := pickLines(len(lines), from, n)
		if !ok {
			return
		}
		block := lines[from:to]
		old := strings.Join(block, "")
		if len(exactAll([]byte(content), old, true)) != 1 || strings.TrimSpace(old) == "" {
			return
		}
		k := int(uint(at) % uint(len(block)))
		l := strings.TrimSuffix(block[k], "\n")
		if strings.TrimSpace(l) == "" {
			return
		}
		nb := append([]string{}, block...)
		if insert {
			ind := l[:len(l)-len(strings.TrimLeft(l, "\t"))]
			nb = append(nb[:k+1], append([]string{ind + "added()\n"}, nb[k+1:]...)...)
		} else {
			nb[k] = l + "X\n"
		}
		nw := strings.Join(nb, "")
		want := strings.Replace(content, old, nw, 1)
		for _, slip := range []func(string) string{
			func(s string) string { return strings.ReplaceAll(s, "\t", "    ") },
			func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") },
			func(s string) string { return strings.ReplaceAll(s, "\n", " \n") },
			func(s string) string { return strings.ReplaceAll(s, `"`, "\u201c") },
			func(s string) string {
				return strings.ReplaceAll(strings.ReplaceAll(s, "\t", "    "), "\n", " \r\n")
			},
			func(s string) string { // a level too many
				return strings.Join(slices.Collect(func(yield func(string) bool) {
					for _, l := range strings.SplitAfter(s, "\n") {
						if strings.TrimSpace(l) != "" {
							l = "\t" + l
						}
						if !yield(l) {
							return
						}
					}
				}), "")
			},
		} {
			so, sn := slip(old), slip(nw)
			if so == old || len(exactAll([]byte(content), so, true)) > 0 {
				continue
			}
			m, err := Find([]byte(content), so, Options{NewText: sn})
			if err != nil {
				continue
			}
			if m.Start != strings.Index(content, old) {
				t.Fatalf("%q slipped to %q was placed at %d, not %d", old, so, m.Start, strings.Index(content, old))
			}
			if got := string(applyEdit([]byte(content), m, sn)); got != want {
				t.Fatalf("%q -> %q slipped to %q -> %q (%s) gave\n%q\nwant\n%q", old, nw, so, sn, m.Tier, got, want)
			}
		}
		// Mixed, as models write patches: the lines kept retyped with four
		// (or eight) spaces per tab, the changed line and the new one
		// copied with their tabs.
		for _, w := range []string{"    ", "        "} {
			var so, sn strings.Builder
			for i, bl := range block {
				if i != k {
					bl = strings.ReplaceAll(bl, "\t", w)
				}
				so.WriteString(bl)
			}
			for i, bl := range nb {
				changed := i == k || insert && i == k+1
				if !changed {
					bl = strings.ReplaceAll(bl, "\t", w)
				}
				sn.WriteString(bl)
			}
			if so.String() == old || len(exactAll([]byte(content), so.String(), true)) > 0 {
				continue
			}
			m, err := Find([]byte(content), so.String(), Options{NewText: sn.String()})
			if err != nil {
				continue
			}
			if m.Start != strings.Index(content, old) {
				t.Fatalf("%q mixed to %q was placed at %d, not %d", old, so.String(), m.Start, strings.Index(content, old))
			}
			if got := string(applyEdit([]byte(content), m, sn.String())); got != want {
				t.Fatalf("%q -> %q mixed to %q -> %q (%s) gave\n%q\nwant\n%q", old, nw, so.String(), sn.String(), m.Tier, got, want)
			}
		}
		// The same indented with four spaces, and sent with tabs.
		sp := func(s string) string { return strings.ReplaceAll(s, "\t", "    ") }
		sc, so, sn := sp(content), old, nw
		if len(exactAll([]byte(sc), so, true)) > 0 || len(exactAll([]byte(sc), sp(old), true)) != 1 {
			return
		}
		if m, err := Find([]byte(sc), so, Options{NewText: sn}); err == nil {
			if got, want := string(applyEdit([]byte(sc), m, sn)), sp(want); got != want {
				t.Fatalf("spaces file: %q -> %q sent with tabs (%s) gave\n%q\nwant\n%q", sp(old), sp(nw), m.Tier, got, want)
			}
		}
	})
}

// FuzzTypesetFileAdaptsBack is FuzzSlipAdaptsBack the other way round: the
// file is typeset (curly quotes, apostrophes, em dashes for " - ") and the
// caller writes ASCII. A line changed at its end, or a line of plain code inserted, lands,
// if at all, as the exact edit of the typeset file: the lines it keeps keep
// their typography, the changed one too.
func FuzzTypesetFileAdaptsBack(f *testing.F) {
	f.Add("// it's \"fine\"\nx := 1\n// don't\n", 0, 2, 1, false)
	f.Add("say(\"a\")\n// the 'b' case\ny()\n", 0, 3, 1, true)
	f.Add("// one - two\n// x-y - z\n", 0, 2, 1, false)
	f.Fuzz(func(t *testing.T, ascii string, from, n, at int, insert bool) {
		if strings.ContainsAny(ascii, "\r\x00") || !strings.HasSuffix(ascii, "\n") || !isASCII(ascii) {
			return
		}
		// Typeset: double quotes open and close in turn, single quotes
		// are apostrophes.
		var b strings.Builder
		open := true
		for _, r := range ascii {
			switch r {
			case '"':
				b.WriteString(map[bool]string{true: "\u201c", false: "\u201d"}[open])
				open = !open
			case '\'':
				b.WriteString("\u2019")
			default:
				b.WriteRune(r)
			}
		}
		content := strings.ReplaceAll(b.String(), " - ", " \u2014 ")
		if content == ascii {
			return
		}
		al := strings.SplitAfter(ascii, "\n")
		cl := strings.SplitAfter(content, "\n")
		al, cl = al[:len(al)-1], cl[:len(cl)-1]
		from, to, ok := pickLines(len(al), from, n)
		if !ok {
			return
		}
		old := strings.Join(al[from:to], "")
		if strings.TrimSpace(old) == "" || strings.Contains(content, old) || strings.Count(content, strings.Join(cl[from:to], "")) != 1 {
			return
		}
		k := int(uint(at) % uint(to-from))
		if strings.TrimSpace(al[from+k]) == "" {
			return
		}
		nb := append([]string{}, al[from:to]...)
		wb := append([]string{}, cl[from:to]...)
		if insert {
			nb = append(nb[:k+1], append([]string{"added()\n"}, nb[k+1:]...)...)
			wb = append(wb[:k+1], append([]string{"added()\n"}, wb[k+1:]...)...)
		} else {
			nb[k] = strings.TrimSuffix(nb[k], "\n") + " X\n"
			wb[k] = strings.TrimSuffix(wb[k], "\n") + " X\n"
		}
		nw := strings.Join(nb, "")
		want := strings.Join(cl[:from], "") + strings.Join(wb, "") + strings.Join(cl[to:], "")
		m, err := Find([]byte(content), old, Options{NewText: nw})
		if err != nil {
			return
		}
		if got := string(applyEdit([]byte(content), m, nw)); got != want {
			t.Fatalf("%q -> %q in %q (%s) gave\n%q\nwant\n%q", old, nw, content, m.Tier, got, want)
		}
	})
}

// isASCII reports whether s has ASCII bytes only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// tabIndented reports whether every line of s is indented with tabs only,
// with no line starting with a space and no tab inside a line.
func tabIndented(s string) bool {
	for _, l := range strings.Split(s, "\n") {
		body := strings.TrimLeft(l, "\t")
		if strings.HasPrefix(body, " ") || strings.Contains(body, "\t") {
			return false
		}
	}
	return true
}

// pickLines turns a fuzzer's numbers into lines [from, to) of count lines:
// from taken modulo count, one to four lines; ok is false when they would
// run past the last line (or there is none).
func pickLines(count, from, n int) (int, int, bool) {
	if count == 0 {
		return 0, 0, false
	}
	from = int(uint(from) % uint(count))
	to := from + 1 + int(uint(n)%4)
	return from, to, to <= count
}
