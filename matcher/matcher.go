package matcher

import (
	"bytes"
	"fmt"
	"runtime"

	"github.com/graftdev/graft/internal/textedit"
)

// Tier names how a block was located. Exact is the only tier that needs no
// adaptation; every other tier is a fuzzy tier described in doc.go.
type Tier string

// Exact is the tier of a byte-for-byte match.
const Exact Tier = "exact"

// Options tune one search. The zero value means: fuzzy tiers on, no line
// hint, the default work budget.
type Options struct {
	// ExactOnly turns the fuzzy tiers off (graft --match exact).
	ExactOnly bool
	// Hint is a 1-based line number where the caller expects the block to
	// start (a patch hunk header, a stale line number), or 0 for none. A hint
	// never decides which match is taken: an ambiguous block stays
	// ambiguous and a stale hint cannot move an edit. It only orders the
	// near misses listed in a refusal; see doc.go.
	Hint int
	// Budget bounds the work of the fuzzy tiers in abstract units (roughly
	// line comparisons). 0 means DefaultBudget.
	Budget int
	// NewText is the caller's replacement text, if known. It lets the
	// fuzzy tiers refuse an edit that changes only what they ignore (for
	// example only indentation, which the indentation tier cannot tell
	// from an edit already made), lets Adapt learn the caller's
	// indentation unit, and lets a refusal say that the new text is
	// already in the file. It never makes a match where there was none.
	NewText string
	// WholeLines accepts only a block of whole lines: one that begins where
	// a line begins and ends where a line ends (at its line break, or at
	// the end of the content). Exact occurrences inside a line are not
	// counted, and the fuzzy tiers do not start a block after a line's
	// indentation. Callers that place whole lines (snippet anchors) set it.
	WholeLines bool
	// ContextKnown says that the caller knows which new lines are old
	// lines kept (a diff's context lines, which it copies from the file
	// itself), so no alignment of NewText with the old text is guessed and
	// none can be open (openAlignment). NewText still feeds every other
	// guard.
	ContextKnown bool
}

// DefaultBudget is the fuzzy work budget used when Options.Budget is 0.
const DefaultBudget = 4_000_000

// Match is one located block.
type Match struct {
	// Start and End are the byte offsets [Start, End) of the block in the
	// searched content.
	Start, End int
	// Line and EndLine are the 1-based first and last lines of the block.
	Line, EndLine int
	// Tier is how the block was found; Similarity is 1 for Exact and in
	// (0, 1] for fuzzy tiers.
	Tier       Tier
	Similarity float64

	// adapt rewrites the caller's new text so that it fits the block as it
	// really is in the file (indentation, typography); nil means identity.
	adapt func(string) string
	// adaptAdded is adapt for lines that are all new (AdaptAdded).
	adaptAdded func(string) string
	// adaptKept is adapt with the caller's alignment (AdaptKept).
	adaptKept func(string, []int, int) string
}

// Adapt rewrites newText the way the block's located text differs from the
// old text the caller gave: when the block was found with its indentation
// shifted, newText is shifted the same way in the file's own style, and so
// on for each tier (doc.go). For an exact match it returns newText as is.
// Line endings are not its business: the caller gives inserted text the
// file's line endings.
func (m Match) Adapt(newText string) string {
	if m.adapt == nil {
		return newText
	}
	return m.adapt(newText)
}

// AdaptAdded is Adapt for text whose every line is new, such as the added
// lines of a patch hunk: no line of it is taken for one of the old text's
// lines (whose file bytes Adapt would write instead, when equal), no blank
// line at its ends is dropped as the old text's stray blank lines were,
// and each line gets the tier's transformations as a changed line does,
// so that it lands as the same line of an edit's new text would.
func (m Match) AdaptAdded(newText string) string {
	if m.adaptAdded == nil {
		return newText
	}
	return m.adaptAdded(newText)
}

// AdaptKept is Adapt for a new text whose caller knows which of its lines
// are old lines kept: a diff hunk's context lines. kept[j] is the index of
// the old text's line that new line j is (of oldLines lines, the old
// text's), or -1 for a line the caller adds. A kept line is written as the
// file's line; an added line gets the tier's transformations as a changed
// line does, read against the old lines between the kept ones around it,
// as the edit's new text would be (a changed line keeps the indentation
// form of the line it replaces). Where kept does not fit the old text as
// located (another count of lines, stray blank lines dropped), it is
// AdaptAdded of the whole text.
func (m Match) AdaptKept(newText string, kept []int, oldLines int) string {
	if m.adaptKept == nil {
		return m.AdaptAdded(newText)
	}
	return m.adaptKept(newText, kept, oldLines)
}

// Candidate is a near miss reported with a refusal so that the caller can
// retry with the file's actual text. It is the one candidate type of
// graft (internal/edit), which every format's refusal carries.
type Candidate = textedit.Candidate

// Sentinel errors; a *Refusal matches one of them with errors.Is. They are
// graft's shared sentinels (internal/edit), so that a refusal of the
// matcher, a patch's hunk and a snippet's region are told apart the same
// way.
var (
	// ErrNotFound: no tier found the block.
	ErrNotFound = textedit.ErrNotFound
	// ErrAmbiguous: a tier found the block more than once.
	ErrAmbiguous = textedit.ErrAmbiguous
)

// Refusal explains why a search did not produce a unique match.
type Refusal struct {
	Kind       error // ErrNotFound or ErrAmbiguous
	Count      int   // number of occurrences for ErrAmbiguous
	Tier       Tier  // the tier that found several occurrences
	Reason     string
	Candidates []Candidate
}

func (r *Refusal) Error() string {
	msg := "text not found"
	if r.Kind == ErrAmbiguous {
		msg = fmt.Sprintf("text found %d times", r.Count)
		if r.Tier != "" && r.Tier != Exact {
			msg += fmt.Sprintf(" (%s)", r.Tier)
		}
	}
	if r.Reason != "" {
		msg += ": " + r.Reason
	}
	return msg
}

// Is reports whether target is the refusal's kind.
func (r *Refusal) Is(target error) bool { return target == r.Kind }

// Find locates old in content and returns it only if it is unique: exact
// first, then the fuzzy tiers unless opt.ExactOnly. It returns a *Refusal
// (ErrNotFound or ErrAmbiguous) otherwise. old must not be empty.
func Find(content []byte, old string, opt Options) (Match, error) {
	if old == "" {
		return Match{}, &Refusal{Kind: ErrNotFound, Reason: "empty search text"}
	}
	exact := exactAll(content, old, true)
	if opt.WholeLines {
		exact = wholeLines(content, exact)
	}
	switch {
	case len(exact) == 1:
		return exact[0], nil
	case len(exact) > 1:
		return Match{}, ambiguous(content, Exact, exact)
	}
	if opt.ExactOnly {
		return Match{}, notFound(content, old, opt)
	}
	return fuzzyFind(content, old, opt)
}

// FindAll returns every non-overlapping occurrence of old, in order, for
// replace-all edits. Exact occurrences win; if there are none, the fuzzy
// tiers may supply a single match (never several: a fuzzy tier must not
// rewrite many places at once). It returns a *Refusal with ErrNotFound when
// nothing is found.
func FindAll(content []byte, old string, opt Options) ([]Match, error) {
	var out []Match
	err := FindAllFunc(content, old, opt, func(i, n int, m Match) {
		if i == 0 {
			out = make([]Match, 0, n)
		}
		out = append(out, m)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// FindAllFunc is FindAll handing the matches to yield one at a time, in
// order (i of n), rather than returning them: a replace-all of every line
// of a big file has 750,000 (80 bytes each), and a caller that makes
// something of each need not hold them all beside what it makes. yield is
// not called when the error is not nil.
func FindAllFunc(content []byte, old string, opt Options, yield func(i, n int, m Match)) error {
	if old == "" {
		return &Refusal{Kind: ErrNotFound, Reason: "empty search text"}
	}
	if starts := exactStarts(content, []byte(old), false); len(starts) > 0 {
		lines := newLineCounter(content)
		for i, start := range starts {
			yield(i, len(starts), exactMatch(lines, start, len(old)))
		}
		return nil
	}
	if opt.ExactOnly {
		return notFound(content, old, opt)
	}
	m, err := fuzzyFind(content, old, opt)
	if err != nil {
		return err
	}
	yield(0, 1, m)
	return nil
}

// exactAll lists the exact occurrences of old. With overlapping set, an
// occurrence may start inside the previous one ("aa" twice in "aaa"), which
// is what ambiguity needs; replace-all needs non-overlapping ones.
func exactAll(content []byte, old string, overlapping bool) []Match {
	starts := exactStarts(content, []byte(old), overlapping)
	if len(starts) == 0 {
		return nil
	}
	out := make([]Match, len(starts))
	lines := newLineCounter(content)
	for i, start := range starts {
		out[i] = exactMatch(lines, start, len(old))
	}
	return out
}

// exactMatch is the exact occurrence of n bytes at start.
func exactMatch(lines *lineCounter, start, n int) Match {
	end := start + n
	return Match{
		Start: start, End: end,
		Line: lines.lineAt(start), EndLine: lines.lineAt(lastByte(start, end)),
		Tier: Exact, Similarity: 1,
	}
}

// parallelSearchBytes is the content size from which the search for
// every overlapping occurrence (the unique-match path, which must read the
// whole content even after the first hit) is split in two halves searched
// at once.
const parallelSearchBytes = 1 << 20

// exactStarts returns the offsets of the occurrences of needle in
// content, in order.
func exactStarts(content, needle []byte, overlapping bool) []int {
	if !overlapping || len(content) < parallelSearchBytes || runtime.GOMAXPROCS(0) < 2 {
		return searchFrom(content, needle, 0, overlapping)
	}
	// An occurrence starting before mid ends before mid+len(needle)-1, so
	// the first half, extended by that much, holds exactly those.
	mid := len(content) / 2
	var first []int
	done := make(chan struct{})
	go func() {
		defer close(done)
		first = searchFrom(content[:min(len(content), mid+len(needle)-1)], needle, 0, true)
	}()
	second := searchFrom(content, needle, mid, true)
	<-done
	return append(first, second...)
}

// searchFrom lists the occurrences of needle in content from offset from.
func searchFrom(content, needle []byte, from int, overlapping bool) []int {
	var out []int
	rare := rarestByte(needle)
	for from <= len(content) {
		i := index(content[from:], needle, rare)
		if i < 0 {
			break
		}
		start := from + i
		out = append(out, start)
		if overlapping {
			from = start + 1
		} else {
			from = start + len(needle)
		}
	}
	return out
}

// wholeLines keeps the matches that begin and end at line boundaries.
func wholeLines(content []byte, ms []Match) []Match {
	out := ms[:0:0]
	for _, m := range ms {
		startOK := m.Start == 0 || content[m.Start-1] == '\n'
		endOK := m.End == len(content) || content[m.End-1] == '\n' || content[m.End] == '\n' ||
			content[m.End] == '\r' && m.End+1 < len(content) && content[m.End+1] == '\n'
		if startOK && endOK {
			out = append(out, m)
		}
	}
	return out
}

func lastByte(start, end int) int {
	if end > start {
		return end - 1
	}
	return start
}

// lineCounter turns increasing byte offsets into 1-based line numbers in
// one forward pass.
type lineCounter struct {
	content []byte
	off     int
	line    int
}

func newLineCounter(content []byte) *lineCounter {
	return &lineCounter{content: content, line: 1}
}

func (c *lineCounter) lineAt(off int) int {
	if off < c.off {
		c.off, c.line = 0, 1
	}
	c.line += bytes.Count(c.content[c.off:off], []byte{'\n'})
	c.off = off
	return c.line
}

// ambiguous builds the refusal for several matches of one tier, listing them
// as candidates so that the caller can add context to pick one.
func ambiguous(content []byte, tier Tier, ms []Match) *Refusal {
	r := &Refusal{Kind: ErrAmbiguous, Count: len(ms), Tier: tier,
		Reason: "add surrounding lines to make it unique, or use a line-based edit"}
	for i, m := range ms {
		if i == maxCandidates {
			break
		}
		r.Candidates = append(r.Candidates, Candidate{
			Line: m.Line, EndLine: m.EndLine, Similarity: m.Similarity,
			Text:   linesText(content, m.Line, m.EndLine),
			Reason: "one of several equal matches",
		})
	}
	return r
}

// maxCandidates bounds the candidates listed in one refusal.
const maxCandidates = 3

// linesText returns the text of the 1-based lines first..last, inclusive,
// with their line endings.
func linesText(content []byte, first, last int) string {
	start := 0
	for l := 1; l < first && start < len(content); l++ {
		i := bytes.IndexByte(content[start:], '\n')
		if i < 0 {
			return ""
		}
		start += i + 1
	}
	end := start
	for l := first; l <= last && end < len(content); l++ {
		i := bytes.IndexByte(content[end:], '\n')
		if i < 0 {
			end = len(content)
			break
		}
		end += i + 1
	}
	return string(content[start:end])
}

// commonBytes lists bytes from the most to the least frequent in source
// code and prose, roughly; bytes not listed are rarer still. Searching for
// a needle's rarest byte wastes fewer candidates than its first, which in
// code is often a space or a tab that starts every line.
const commonBytes = " etnriosal\ncdupmfh().,;=_gbyv\"\txkw{}:-/*0'1>[]2<#&!+3jq45|$6879zETSARINOCLDPMFUBGHVWYKXJQZ%?@\\^`~\r"

// byteRank is each byte's place in commonBytes (len(commonBytes) when not
// listed): the higher, the rarer.
var byteRank = func() (r [256]uint8) {
	for i := range r {
		r[i] = uint8(len(commonBytes))
	}
	for i := len(commonBytes) - 1; i >= 0; i-- {
		r[commonBytes[i]] = uint8(i)
	}
	return r
}()

// rarestByte returns the position in needle of its rarest byte by
// byteRank (the first of equals), or 0 when none is rarer than the first.
func rarestByte(needle []byte) int {
	best := 0
	for i := 1; i < len(needle); i++ {
		if byteRank[needle[i]] > byteRank[needle[best]] {
			best = i
		}
	}
	return best
}

// index is bytes.Index(s, needle), searching for the byte needle[rare]
// and checking the needle around each one found. Should that byte prove
// common in s after all (more than once in 32 bytes: each candidate costs
// about as much as bytes.Index spends on 32 bytes, BenchmarkIndex), it
// hands over to bytes.Index, whose cost is bounded whatever the input.
func index(s, needle []byte, rare int) int {
	n := len(needle)
	if rare == 0 || n < 2 {
		return bytes.Index(s, needle)
	}
	b := needle[rare]
	misses := 0
	for start := 0; start+n <= len(s); {
		// The rare byte of a match starting at start or later, up to the
		// last start a match can have.
		i := bytes.IndexByte(s[start+rare:len(s)-n+rare+1], b)
		if i < 0 {
			return -1
		}
		start += i
		if bytes.Equal(s[start:start+n], needle) {
			return start
		}
		start++
		if misses++; misses > 16+start>>5 {
			if j := bytes.Index(s[start:], needle); j >= 0 {
				return start + j
			}
			return -1
		}
	}
	return -1
}
