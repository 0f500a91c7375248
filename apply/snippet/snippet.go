package snippet

// The snippet and its regions, Plan (the regions placed in order, then the
// deletion rule over all of them) and the refusal value.

import (
	"fmt"
	"strings"

	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/internal/textedit"
	"github.com/graftdev/graft/matcher"
)

// Region is one run of snippet lines between markers.
type Region struct {
	// Lines are the region's lines, each with its line break ("\n"; the
	// last may have none).
	Lines []string
	// Line is the 1-based line of the snippet the region starts at.
	Line int
}

// Snippet is a parsed code_edit.
type Snippet struct {
	Regions []Region
	// Lead and Trail say whether a marker opens and closes the snippet.
	Lead, Trail bool
	// Markers counts the marker lines; Phrases those of them without an
	// ellipsis ("// rest of the code unchanged").
	Markers, Phrases int
	// Prose says the file is prose (Markdown, plain text), where
	// brackets need not pair up; the caller sets it (IsProse).
	Prose bool
	// Ext is the file name's extension, lower case, without its dot
	// (ParseFile sets it): in Python ("py", "pyi", "pyw") a bare
	// assignment at the margin binds a module's name (package doc, part
	// 4).
	Ext string
	// Marker is the marker a refusal suggests adding: the snippet's
	// first marker as sent, or else (ParseFile) one in the file's
	// comment syntax (MarkerFor). Empty means "// ... existing code ...".
	Marker string
}

// placed is one region as the planner placed it: file bytes [start,
// end) become text, the file lines [from, to) that the region's new lines
// replace (for the deletion rule), and how its anchors were found.
type placed struct {
	start, end int
	text       string // the region's new lines, re-indented for the file
	region     int    // 0-based
	line, last int    // the file lines (1-based) the region spans, anchors included
	tier       matcher.Tier
	similarity float64

	from, to    int
	newLines    []string
	lines       []string // the region's lines, anchors included
	headAt      int      // the file line (0-based) its first line stands at
	snippetLine int
	// edge is the refusal of a region that reaches the file's edge by
	// removing the lines between its anchor and that edge (the snippet
	// has no marker there): where the deletion rule refuses the region,
	// this is its refusal.
	edge *refusal
	// dropped is the file lines (0-based) the region removes that nothing
	// in the snippet accounts for (checkDeletions), which the result names.
	dropped []int
}

// change is the region as the one located-change value (internal/textedit),
// its new text given the line endings of the place it lands.
func (p placed) change(content []byte) textedit.Change {
	return textedit.Change{Start: p.start, End: p.end, New: textedit.WithEOL(p.text, textedit.EOL(content, p.start)),
		Edit: fmt.Sprintf("region %d", p.region+1), Desc: fmt.Sprintf("lines %d-%d", p.line, p.last),
		Line: p.line, EndLine: p.last, Method: string(p.tier), Similarity: p.similarity, Dropped: textedit.LineList(p.dropped)}
}

// refusal is a refused region as the planner finds it: which, why, and
// the nearest places in the file with their text. Plan returns it as the
// one error value (textedit.Error).
type refusal struct {
	Why        Reason
	Region     int // 0-based
	Line       int // the region's first line in the snippet
	Reason     string
	Count      int
	Candidates []matcher.Candidate
}

// err is the refusal as graft's one error value: not found, ambiguous, or
// a conflict (lines it would delete, ends that do not reach the file's).
// Where its reason suggests a marker, it is marker (none: the // form):
// an agent copies the suggestion, so it is written in the snippet's own
// marker style or the file's comment syntax.
func (e *refusal) err(marker string) *textedit.Error {
	if marker == "" {
		marker = defaultMarker
	}
	why := strings.ReplaceAll(e.Reason, markerHint, marker)
	return &textedit.Error{Code: textedit.KindCode(e.Why.Kind()), Edit: fmt.Sprintf("region %d", e.Region+1),
		Msg: fmt.Sprintf("(snippet line %d) %s", e.Line, why), Count: e.Count, Candidates: e.Candidates, Err: e.Why}
}

// markerHint stands in a refusal's reason where it suggests a marker; err
// writes the snippet's. A NUL cannot stand in the file's lines a reason
// quotes (%q escapes it), so only the suggestion is replaced.
const markerHint = "\x00marker\x00"

// maxAnchor bounds an anchor's length in lines.
const maxAnchor = 40

// Plan locates every region of s in content, in order, and returns the
// replacements, sorted by position. opt carries the matcher options (the
// budget, exact-only); Plan sets WholeLines and NewText itself.
func Plan(content []byte, s Snippet, opt matcher.Options) ([]textedit.Change, error) {
	fl := lineindex.New(content)
	var out []placed
	cursor := 0 // file line the next region may start at
	for i, r := range s.Regions {
		rep, end, rf := planRegion(content, fl, r, i, cursor, opt, i == 0 && !s.Lead, i == len(s.Regions)-1 && !s.Trail)
		if rf != nil {
			return nil, rf.err(s.Marker)
		}
		if rep != nil {
			out = append(out, *rep)
		}
		cursor = end
	}
	// The deletion rule, once every region is placed: a region's removed
	// lines may have moved into another region's new code (a helper
	// extracted below the function that called it).
	dl := dialectOf(s.Ext)
	var pool, scope []string
	poolAt := make([]int, len(out)) // where each region's new lines start in pool
	for i, r := range out {
		poolAt[i] = len(pool)
		ls, sc := added(fl, r.from, r.to, r.newLines, s.Prose, dl)
		pool, scope = append(pool, ls...), append(scope, sc...)
	}
	// Brackets pair over the whole snippet: one region may open what the
	// next closes (a call wrapped around a closure whose end another
	// region shows).
	// So do block comments (a block commented out across a marker).
	total, totalComments := 0, 0
	deltas := make([][2]int, len(out))
	for i, r := range out {
		b, c := pairDelta(fl, r.from, r.to, r.newLines)
		deltas[i] = [2]int{b, c}
		total, totalComments = total+b, totalComments+c
	}
	// A name is still used where a line of the file that no region
	// replaces, or a line a region writes, uses it (but its definition):
	// a definition renamed with its callers rewritten by the snippet's
	// other regions is used by nothing the result keeps.
	replaced := func(i int) bool {
		for _, r := range out {
			if r.from <= i && i < r.to {
				return true
			}
		}
		return false
	}
	stillUsed := map[string]bool{}
	used := func(name string) bool {
		u, seen := stillUsed[name]
		if !seen {
			for i := 0; i < fl.Count() && !u; i++ {
				u = refersTo(string(fl.Text(i+1)), name, dl) && !replaced(i)
			}
			for _, r := range out {
				for _, l := range r.newLines {
					if !u {
						u = refersTo(l, name, dl)
					}
				}
			}
			stillUsed[name] = u
		}
		return u
	}
	for i, r := range out {
		others, otherComments := total-deltas[i][0], totalComments-deltas[i][1]
		kind, why, dropped := checkDeletions(fl, r.from, r.to, r.headAt, r.lines, r.newLines, pool, scope, poolAt[i], others, otherComments, s.Prose, dl, used)
		out[i].dropped = dropped
		if kind != 0 {
			if r.edge != nil {
				return nil, r.edge.err(s.Marker)
			}
			return nil, (&refusal{Why: kind, Region: r.region, Line: r.snippetLine, Reason: why,
				Candidates: []matcher.Candidate{{Line: r.from + 1, EndLine: r.to, Similarity: 1, Text: string(content[fl.Start(r.from+1):fl.Start(min(r.to, fl.Count())+1)]),
					Reason: "the file's lines between the region's anchors"}}}).err(s.Marker)
		}
	}
	// A snippet that removes nothing opens as many blocks as it closes
	// (part 4): checkDeletions reads brackets only for a region that
	// removes a line, so where no region removes one, the new lines alone
	// must pair the blocks they open (a test inserted with its closing
	// brace left behind a forgotten marker opens one that nothing closes).
	// Read by whole lines, a line that ends opening a block and one that
	// begins closing one, because an insertion is what most snippets are,
	// and brackets counted one by one inside lines misread what this
	// package does not parse (a regular expression's quotes, a doc
	// comment's {@link}), where a block's lines read one way in every
	// language with braces. Both readings must find the snippet unpaired
	// (total, the brackets counted as part 4 counts them, and blocks).
	if !s.Prose && total != 0 {
		blocks := 0
		for _, r := range out {
			blocks += blockLines(r.newLines)
		}
		for _, r := range out {
			if blocks == 0 || blockLines(r.newLines) == 0 {
				continue
			}
			why := fmt.Sprintf("its new lines open %d more block(s) than they close", blocks)
			if blocks < 0 {
				why = fmt.Sprintf("its new lines close %d more block(s) than they open", -blocks)
			}
			why += ", which no code that parses does, before or after the change: if they pair with lines of the file, show those lines; if code follows them, put a marker such as \"" + markerHint + "\" where it is"
			at, text := max(min(r.from, fl.Count()-1), 0), ""
			if fl.Count() > 0 {
				text = string(fl.Text(at+1)) + "\n"
			}
			return nil, (&refusal{Why: UnpairedBrackets, Region: r.region, Line: r.snippetLine, Reason: why,
				Candidates: []matcher.Candidate{{Line: at + 1, EndLine: at + 1, Similarity: 1, Text: text,
					Reason: "the file's line where the region's new lines go"}}}).err(s.Marker)
		}
	}
	// Lines binding names the file still needs, lost together (part 4):
	// read over every region, as a name's uses may stand anywhere.
	if at, name, use, ok := bindingsLost(fl, out, replaced, dl); ok {
		for _, r := range out {
			if r.from <= at && at < r.to {
				if r.edge != nil {
					return nil, r.edge.err(s.Marker)
				}
				return nil, (&refusal{Why: DeletesUnlike, Region: r.region, Line: r.snippetLine, Reason: bindingReason(fl, at, name, use),
					Candidates: []matcher.Candidate{{Line: at + 1, EndLine: at + 1, Similarity: 1, Text: string(fl.Text(at+1)) + "\n",
						Reason: "the line that binds " + name}}}).err(s.Marker)
			}
		}
	}
	changes := make([]textedit.Change, len(out))
	for i, p := range out {
		changes[i] = p.change(content)
	}
	return changes, nil
}
