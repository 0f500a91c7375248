package matcher

import (
	"strings"
	"testing"
)

// The score shown with a candidate or a landed match says how far apart
// the lines are: a word added, a re-indented line or typographic quotes
// keep it high, unrelated lines keep it low.
func TestLineSimilarityReadsAsDistance(t *testing.T) {
	for _, c := range []struct {
		a, b     string
		min, max float64
	}{
		{"return len(name) + 1", "    return len(name)", 0.70, 0.80},
		{"return len(nam)", "    return len(name)", 0.85, 0.95},
		{"print(“Hi, ” + name)", "print(\"Hi, \" + name)", 0.85, 0.95},
		{"    x := 1", "\tx := 1", 0.95, 0.95},
		{"x := 1\r", "x := 1", 1, 1},
		{"", "  ", 1, 1},
		{"count++", "}", 0, 0.15},
		{strings.Repeat("a", 300) + "b", strings.Repeat("a", 300) + "c", 0.99, 1},
	} {
		got := lineSimilarity(c.a, c.b)
		if got < c.min-1e-9 || got > c.max+1e-9 {
			t.Errorf("lineSimilarity(%q, %q) = %.3f, want %.2f..%.2f", c.a, c.b, got, c.min, c.max)
		}
		if back := lineSimilarity(c.b, c.a); back != got {
			t.Errorf("lineSimilarity is not symmetric on %q, %q: %.3f and %.3f", c.a, c.b, got, back)
		}
	}
}

// A refusal's nearest candidate one word away reports a similarity that
// says so (it was 0.00 when the indentation differed too).
func TestRefusalSimilarityOfNearMiss(t *testing.T) {
	content := []byte("def f(name):\n    return len(name)\n")
	_, err := Find(content, "return len(name) + 1", Options{})
	r, ok := err.(*Refusal)
	if !ok || len(r.Candidates) == 0 {
		t.Fatalf("want a refusal with a candidate, got %v", err)
	}
	if s := r.Candidates[0].Similarity; s < 0.6 {
		t.Errorf("nearest candidate similarity %.2f, want at least 0.6 (%s)", s, r.Reason)
	}
}

// An edit found by the trailing-white-space tier whose new text repeats a
// line the old text has once, when the file's copy of that line has
// trailing white space: whether the kept line is the first copy or the
// second is open (either would move the file's bytes onto a new line), so
// the edit is refused, not landed with the white space on the wrong line.
// A diff's hunk, whose context lines are known, is not open.
func TestOpenAlignmentRefused(t *testing.T) {
	content := []byte("a := []T{{\n\t\tx: 1,\n\t}, {  \n\t\tx: 2,\n\t}}\n")
	old := "\t\tx: 1,\n\t}, {\n\t\tx: 2,\n"
	nw := "\t\tx: 1,\n\t}, {\n\t\tx: 9,\n\t}, {\n\t\tx: 2,\n"
	_, err := Find(content, old, Options{NewText: nw})
	r, ok := err.(*Refusal)
	if !ok || !strings.Contains(r.Reason, "first copy or the second is open") {
		t.Fatalf("want the alignment refused as open, got %v", err)
	}
	m, err := Find(content, old, Options{NewText: nw, ContextKnown: true})
	if err != nil || m.Tier != TrailingSpace {
		t.Fatalf("with the context known: %+v %v", m, err)
	}
	// One copy of the line in the new text: nothing open.
	if _, err := Find(content, old, Options{NewText: "\t\tx: 1,\n\t}, {\n\t\tx: 3,\n"}); err != nil {
		t.Errorf("a single kept line: %v", err)
	}
}
