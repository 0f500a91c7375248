// Package snippet merges the snippets that Cursor-style edit_file tools
// send: the changed parts of a file, with the unchanged parts elided by
// marker comments such as "// ... existing code ...". It does so
// deterministically, through graft's one matcher, and never guesses:
// whatever the snippet leaves open is refused, with the reason.
//
// # Markers
//
// A marker is a line holding only a comment (//, #, --, ;, %, /* */, {/* */},
// <!-- -->) whose text is an ellipsis ("..." or "…"), alone or with words
// that say "existing code": "... existing code ...", "... rest of the code
// ...", "... keep existing imports ...", "(existing methods unchanged)...",
// "... rest of parseArgs ...". Without an ellipsis, a comment is a marker
// when all its words are such words and they say the code stays ("//
// rest of the code unchanged", "# existing code", "// the rest remains
// the same"), unless the file holds that very comment as a line (there it
// is code) or is prose (Markdown, plain text), where such a line is a
// heading or a list item. A bare "..." without a comment is not a marker
// (it is code in Python and TypeScript). Markers keep the file's lines
// between the regions they separate, unchanged.
//
// # Regions
//
// A region is a run of lines between markers (blank lines at its ends
// left out: they belong to the code the markers keep; but where the
// snippet has no marker at its start, its first region keeps them). Each
// region is anchored in the file by its unchanged lines: its head, the
// longest run of its first lines that stands in the file as a unique
// block of whole lines, and its tail, the same for its last lines, after
// the head. Both are located by the matcher, each region after the one
// before it, unique only, by its exact tier or the tiers that forgive only
// line endings, trailing white space or a constant indentation shift (the
// blank-line, typography and escape tiers do not place anchors: a blank
// line or a changed character at a region's edge is a change, not a slip).
// An anchor grows one line at a time while it stays at one place by one
// tier (exact lines with no indentation may be followed by lines whose
// indentation the model wrote in the other character, tabs as spaces or
// the reverse, throughout the region); a block that stands several times
// grows until it stands once, but a blank line, or a looser tier than the
// one that found the places, never counts as what tells them apart; but
// for a region sent without its common indentation, a block of two lines
// or more that stands once with its indentation shifted is found so, even
// where its first line (a "}") stands exactly elsewhere, at the margin,
// once or more. A head found with a shift rewrites the whole region as the
// matcher re-indents (so the tail is sought in the file's terms); a
// one-line anchor found only by its indentation places the region only
// when the other end shows the same shift. A tail is sought after the
// head, in the file's order; where it also stands before the head and the
// head's first line does not stand once (the lines the head grew by told
// its places apart, and they may be lines the region moves), it is
// refused: the region's ends could be read either way. The
// file's lines between head and tail are replaced by the region's lines
// between them. A region must be anchored at both ends (but where the
// snippet has no marker, at the file's start or end): a line that is not
// in the file may be new code or a line the model misremembered, and only
// an anchor on its far side tells the two apart. So a region that inserts
// lines shows the line before them and the line after.
//
// A region that changes nothing (all its lines stand together in the file)
// is also how a deletion of the lines between two of its lines would look;
// it is taken as unchanged only when its first and its last line each
// stand once, and refused otherwise.
//
// Unchanged lines keep the file's bytes where the anchors were found only
// by forgiving trailing white space, and then the new lines lose the
// trailing white space the model added to every anchor line; otherwise
// the region's lines are taken as sent.
//
// # Never deleting what was not shown
//
// File lines between a region's anchors that the region neither shows nor
// replaces could be a rewrite, or lines the model forgot to elide with a
// marker. They are paired with the region's new lines (graft's line diff;
// a brace paired between changed lines on both sides does not count). In
// each gap between paired lines something must stand in the removed
// lines' place, blank lines may not shrink, and a block's opening line
// may not vanish with no new line like it and no new block in its place
// (a few lines changed beyond recognition are a rewrite; a whole
// condition or loop gone is not, unless the second reading finds the
// call that stands for it). A print or log line reads like no line.
// Whatever the reading, a region may not drop a block's opening line
// while the block's body, past the region, stays where it is, unless the
// opening line reads like a new one (rewritten in place) or, for one
// such line, the region's last new line opens a block that reads like no
// other removed opening line and takes the body over: otherwise a
// changed line followed by a forgotten marker would hand the body to the
// changed line's block. Each removed line with a
// name (a word that is not a keyword, outside string literals) is then
// matched to a new line of the snippet (this gap's, or another region's:
// code moved into a new helper) that has at least half of its names and
// one of two characters or more, one new line for one removed line. At
// most two removed lines may match nothing, per gap and per region; and
// when the new lines match the removed lines at one end of a gap, no more
// than two may stand unmatched at its other end (what a forgotten marker
// leaves). A gap that puts more new lines in place of fewer removed
// ones, where no removed line shares a name with a new line of the
// snippet (one of two characters or more, or half of its names), is new
// code inserted after the line before it with a marker forgotten for the
// lines after, and is refused even when no more than two lines vanish.
//
// A region this line-for-line reading refuses is read once more as
// blocks rewritten, for code replaced by a call (of a helper, for a
// loop) that reads like none of its lines. In file order, a block's
// opening line (ending in "{" or ":") that no new line reads like is
// stood for by a call in the snippet's new lines whose arguments name at
// least half of the values the opening line works on (its names and
// selectors; or the values they are fields of, p for p.dirty, when the
// call also passes half of the values the block works on and neither
// declares nor imports), or, where the opening line names only short
// values (for n > 0 {), by a call of a helper the file does not hold
// passed values the block's body uses and half of its values; a line
// that names nothing (for {, try {, if err != nil {) by no call; one
// call for one block, never a print or a log call, never for a
// definition's line (only a new definition that reads like it stands
// for that), and never for a block nested in one that vanishes around
// it. An opening line accounted for takes its whole block with it, when
// the block ends within the region. The region lands when no definition
// (func, def, class, function) vanishes unaccounted for, the removed
// lines open as many brackets as the new lines, no removed declaration
// (a, b :=, var, let, const) is of a name new code still uses, blank
// lines it drops stand inside a block accounted for whole, and no more
// than three removed lines vanish: those outside the run from the first
// accounted line to the last, and those with a name inside it that are
// not accounted for. Otherwise the region is refused, naming the lines
// it would delete: to delete lines, a caller uses edit or
// replace_in_file. Whatever the reading, a region that removes lines it
// does not show while its removed and new lines do not pair up their
// brackets is refused (not in prose files, where brackets need not
// pair): code that parses opens as many as it closes.
//
// # The ends of the snippet
//
// Without a marker at its start, a snippet begins where the file begins:
// its first region must be anchored at line 1 (or have no head, and then it
// replaces from line 1, under the deletion rule). The same holds at the
// end. A snippet without any marker is a whole-file write, which the tool
// allows only for a new file or with overwrite.
package snippet

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/graftdev/graft/gitstore/textdiff"
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
}

// IsProse reports whether a file of this name is prose, by its extension:
// Markdown, reStructuredText, AsciiDoc, Org, plain text, or none at all
// (README, LICENSE; not a build file such as a Makefile or a Dockerfile,
// nor a dotfile).
func IsProse(name string) bool {
	base := name[strings.LastIndexAny(name, "/\\")+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 {
		// README, LICENSE; but a build file without an extension, or a
		// dotfile, is code.
		switch strings.ToLower(base) {
		case "makefile", "gnumakefile", "dockerfile", "containerfile", "jenkinsfile", "rakefile", "gemfile",
			"vagrantfile", "podfile", "brewfile", "justfile", "build", "workspace":
			return false
		}
		return dot < 0
	}
	switch strings.ToLower(base[dot+1:]) {
	case "txt", "text":
		return !strings.EqualFold(base, "CMakeLists.txt")
	case "md", "markdown", "mdx", "rst", "adoc", "asciidoc", "org":
		return true
	}
	return false
}

// commentRE takes one comment apart: its opening, text and closing.
var commentRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:\{/\*|/\*+|<!--|//+|#+|--|;+|%+|\*)\s*(.*?)\s*(?:\*+/\}|\*+/|-->|//+)?$`)
})

// markerWordsRE is what a marker may say besides its ellipses.
var markerWordsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(?:(?:keep|keeping|the|rest|of|remaining|existing|unchanged|previous|other|omitted|same|more|original|all|any|your|as|before|here|is|are|stays|stay|remains|remain|untouched|code|lines?|content|contents|file|implementation|methods?|functions?|imports?|fields?|properties|props|cases?|tests?|logic|body|definitions?|declarations?|rules?|styles?|config|configuration|settings|entries|items|components?|classes|class|members|exports?|routes?|handlers?|types?|helpers?|and|etc|so|on|omitted|elided|for|brevity|snip|snipped|no|changes?|changed|unmodified|continues|continued|state|jsx|markup|html|below|above|intact|following|preceding|everything|else|switch|struct|structs|left|stays?)\s*)*$`)
})

// stringsRE matches string literals of the usual forms.
var stringsRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`")
})

// keepRE is what a marker without an ellipsis must say: that the code
// it stands for stays as it is.
var keepRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:existing|unchanged|untouched|unmodified|intact|omitted|elided|snipped|rest of|(?:remains?|stays?|is|are) the same|same as before|as before|no changes?)\b`)
})

// restRE is a marker that names what it keeps ("rest of parseArgs
// unchanged", "existing handleRequest code"): a name or two besides the
// marker words.
var restRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\b(?:rest of|existing)\b`)
})

// IsMarker reports whether a snippet line is a marker: a comment holding
// an ellipsis with words that say "existing code", or those words alone
// when they say the code stays ("// rest of the code unchanged", "#
// existing code"). ParseIn reads the second kind as code where the file
// holds that very comment line.
func IsMarker(line string) bool { return markerKind(line) != noMarker }

// Kinds of marker line.
const (
	noMarker = iota
	ellipsisMarker
	phraseMarker // words that say the code stays, without an ellipsis
)

func markerKind(line string) int {
	t := strings.TrimSpace(strings.TrimSuffix(line, "\r"))
	m := commentRE().FindStringSubmatch(t)
	if m == nil {
		return noMarker
	}
	text := strings.TrimSpace(m[1])
	ellipsis := strings.Contains(text, "...") || strings.Contains(text, "…")
	words := strings.NewReplacer("...", " ", "…", " ", "(", " ", ")", " ", "[", " ", "]", " ", ",", " ", ".", " ", ":", " ", "-", " ", ";", " ").Replace(text)
	said := strings.ToLower(strings.Join(strings.Fields(words), " "))
	if said == "" && !ellipsis {
		return noMarker
	}
	if !ellipsis && !keepRE().MatchString(said) {
		return noMarker
	}
	if !markerWordsRE().MatchString(said) && !(ellipsis && namesWhatItKeeps(said)) {
		return noMarker
	}
	if ellipsis {
		return ellipsisMarker
	}
	return phraseMarker
}

// namesWhatItKeeps reports whether a marker's words are marker words but
// for one or two names of the code kept ("... rest of parseArgs ...",
// "... existing __init__ body ..."), with "rest of" or "existing" saying
// it is kept. Only a marker with an ellipsis may name things: "//
// existing users" is a comment.
func namesWhatItKeeps(said string) bool {
	if !restRE().MatchString(said) {
		return false
	}
	other := 0
	for _, w := range strings.Fields(said) {
		if markerWordsRE().MatchString(w) {
			continue
		}
		if other++; other > 2 || !isName(w) {
			return false
		}
	}
	return true
}

// isName reports whether w reads as an identifier (letters, digits, _
// and $, not starting with a digit).
func isName(w string) bool {
	for i, r := range w {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return w != ""
}

// Parse splits a code_edit into its regions.
func Parse(code string) Snippet { return ParseIn(code, nil) }

// ParseIn splits a code_edit into its regions for the file content it
// merges into: a marker without an ellipsis ("// rest of the code
// unchanged") is read as code where content holds that comment as a line
// of its own (it may then anchor a region). Parse reads every such line
// as a marker.
func ParseIn(code string, content []byte) Snippet { return parse(code, content, false) }

// ParseFile is ParseIn for the file named name, and sets Prose by its
// name (IsProse): in prose a line such as "## Existing code" or "* No
// changes" is a heading or a list item, so only a marker with an
// ellipsis is one there.
func ParseFile(name, code string, content []byte) Snippet {
	prose := IsProse(name)
	s := parse(code, content, prose)
	s.Prose = prose
	return s
}

func parse(code string, content []byte, prose bool) Snippet {
	var s Snippet
	lines := splitKeep(code)
	var cur *Region
	flush := func() {
		if cur == nil {
			return
		}
		// Blank lines at a region's ends belong to the code around it,
		// but where the snippet begins (ends) without a marker, at the
		// file's start (end): there they are the region's own.
		keepLead := len(s.Regions) == 0 && s.Markers == 0
		a, b := 0, len(cur.Lines)
		for a < b && !keepLead && strings.TrimSpace(cur.Lines[a]) == "" {
			a++
		}
		for b > a && strings.TrimSpace(cur.Lines[b-1]) == "" {
			b--
		}
		if a < b {
			s.Regions = append(s.Regions, Region{Lines: cur.Lines[a:b], Line: cur.Line + a})
		}
		cur = nil
	}
	seenCode := false
	for i, l := range lines {
		if k := markerKind(l); k == ellipsisMarker || k == phraseMarker && !prose && !standsAsLine(content, l) {
			flush()
			s.Markers++
			if k == phraseMarker {
				s.Phrases++
			}
			if !seenCode {
				s.Lead = true
			}
			s.Trail = true
			continue
		}
		if strings.TrimSpace(l) != "" {
			seenCode = true
			s.Trail = false
		}
		if cur == nil {
			cur = &Region{Line: i + 1}
		}
		cur.Lines = append(cur.Lines, l)
	}
	flush()
	return s
}

// standsAsLine reports whether content has a line that is l, white space
// at its ends aside.
func standsAsLine(content []byte, l string) bool {
	return holdsWhole(content, strings.TrimSpace(l), func(s, e int) bool {
		for s > 0 && (content[s-1] == ' ' || content[s-1] == '\t') {
			s--
		}
		for e < len(content) && (content[e] == ' ' || content[e] == '\t' || content[e] == '\r') {
			e++
		}
		return (s == 0 || content[s-1] == '\n') && (e == len(content) || content[e] == '\n')
	})
}

// holdsWhole reports whether content holds text at some place [s, e)
// that whole accepts (a whole line, a whole word).
func holdsWhole(content []byte, text string, whole func(s, e int) bool) bool {
	for off := 0; off < len(content); {
		i := bytes.Index(content[off:], []byte(text))
		if i < 0 {
			return false
		}
		at := off + i
		if whole(at, at+len(text)) {
			return true
		}
		off = at + 1
	}
	return false
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
	snippetLine int
}

// change is the region as the one located-change value (internal/textedit),
// its new text given the line endings of the place it lands.
func (p placed) change(content []byte) textedit.Change {
	return textedit.Change{Start: p.start, End: p.end, New: textedit.WithEOL(p.text, textedit.EOL(content, p.start)),
		Edit: fmt.Sprintf("region %d", p.region+1), Desc: fmt.Sprintf("lines %d-%d", p.line, p.last),
		Line: p.line, EndLine: p.last, Method: string(p.tier), Similarity: p.similarity}
}

// Kinds of refusal. Not found and ambiguous are graft's shared sentinels
// (internal/textedit); the two others are conflicts of their own, which
// the refusal's error matches with errors.Is beside textedit.ErrConflict.
var (
	ErrNotFound  = textedit.ErrNotFound
	ErrAmbiguous = textedit.ErrAmbiguous
	ErrDeletes   = errors.New("region would delete lines it does not show")
	ErrEnds      = errors.New("snippet does not reach the file's end")
)

// refusal is a refused region as the planner finds it: which, why, and
// the nearest places in the file with their text. Plan returns it as the
// one error value (textedit.Error).
type refusal struct {
	Kind       error
	Region     int // 0-based
	Line       int // the region's first line in the snippet
	Reason     string
	Count      int
	Candidates []matcher.Candidate
}

// err is the refusal as graft's one error value: not found, ambiguous, or
// a conflict (lines it would delete, ends that do not reach the file's).
func (e *refusal) err() *textedit.Error {
	out := &textedit.Error{Code: textedit.CodeConflict, Edit: fmt.Sprintf("region %d", e.Region+1),
		Msg: fmt.Sprintf("(snippet line %d) %s", e.Line, e.Reason), Count: e.Count, Candidates: e.Candidates, Err: e.Kind}
	switch e.Kind {
	case ErrNotFound:
		out.Code, out.Err = textedit.CodeTextNotFound, nil
	case ErrAmbiguous:
		out.Code, out.Err = textedit.CodeAmbiguous, nil
	}
	return out
}

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
			return nil, rf.err()
		}
		if rep != nil {
			out = append(out, *rep)
		}
		cursor = end
	}
	// The deletion rule, once every region is placed: a region's removed
	// lines may have moved into another region's new code (a helper
	// extracted below the function that called it).
	var pool []string
	for _, r := range out {
		pool = append(pool, added(fl, r.from, r.to, r.newLines)...)
	}
	for _, r := range out {
		if why := checkDeletions(fl, r.from, r.to, r.newLines, pool, s.Prose); why != "" {
			return nil, (&refusal{Kind: ErrDeletes, Region: r.region, Line: r.snippetLine, Reason: why,
				Candidates: []matcher.Candidate{{Line: r.from + 1, EndLine: r.to, Similarity: 1, Text: string(content[fl.Start(r.from+1):fl.Start(min(r.to, fl.Count())+1)]),
					Reason: "the file's lines between the region's anchors"}}}).err()
		}
	}
	changes := make([]textedit.Change, len(out))
	for i, p := range out {
		changes[i] = p.change(content)
	}
	return changes, nil
}

// anchor is a located run of a region's lines.
type anchor struct {
	n          int // region lines in it
	line       int // first file line (0-based)
	m          matcher.Match
	found      bool
	ambiguous  *matcher.Refusal
	candidates []matcher.Candidate
}

// locate finds lines as a unique block of whole lines in the file from
// line from on (before line to, if to ≥ 0).
func locate(content []byte, fl *lineindex.Index, text string, from, to int, opt matcher.Options) (matcher.Match, int, error) {
	base := fl.Start(from + 1)
	limit := len(content)
	if to >= 0 && to < fl.Count() {
		limit = fl.Start(to + 1)
	}
	o := opt
	o.WholeLines = true
	o.NewText = ""
	m, err := matcher.Find(content[base:limit], text, o)
	if err != nil {
		return matcher.Match{}, 0, err
	}
	line := fl.LineAt(base+m.Start) - 1
	return m, line, nil
}

// standsOnce reports whether line stands once in the file from line from
// on, by a tier anchors use.
func standsOnce(content []byte, fl *lineindex.Index, line string, from int, opt matcher.Options) bool {
	if !strings.HasSuffix(line, "\n") {
		line += "\n"
	}
	m, _, err := locate(content, fl, line, from, -1, opt)
	return err == nil && anchorTier(m.Tier)
}

// anchorTier reports whether an anchor may be found by tier t: exactly,
// or through the tiers that only forgive line endings, trailing white
// space and a constant indentation shift. The tiers that forgive blank
// lines, typography or escaping are not used for anchors: a blank line or
// a changed character in a region's edge is a change to place, not a
// slip to forgive.
func anchorTier(t matcher.Tier) bool {
	switch t {
	case matcher.Exact, matcher.LineEndings, matcher.TrailingSpace, matcher.Indentation:
		return true
	}
	return false
}

// grow finds an anchor: block(n) is the region's first (or last) n lines;
// it grows n while the block stays found uniquely at the same place (the
// same first line for a head, the same last line for a tail) by the same
// tier, and while the block is ambiguous, until one place remains.
func grow(content []byte, fl *lineindex.Index, block func(n int) string, limit, from int, isTail, shift bool, opt matcher.Options) anchor {
	var best anchor
	for n := 1; n <= min(limit, maxAnchor); n++ {
		text := block(n)
		if best.ambiguous != nil && !best.found && newLineBlank(text, isTail) {
			// A blank line does not tell places apart: it may be new.
			continue
		}
		m, line, err := locate(content, fl, text, from, -1, opt)
		var ref *matcher.Refusal
		switch {
		case err == nil && anchorTier(m.Tier):
			a := anchor{n: n, line: line, m: m, found: true}
			if best.found && anchorPlace(a, isTail) != anchorPlace(best, isTail) {
				if shift && best.n == 1 && len(words(block(1))) == 0 && m.Tier == matcher.Indentation && nonBlankLines(text) >= 2 {
					// A brace that stands once at the margin is no place
					// of its own when it and the next line stand once
					// elsewhere with their indentation shifted: the
					// region was sent without its common indentation.
					best = a
					continue
				}
				if shift && best.n == 1 && best.m.Tier == matcher.Exact && m.Tier == matcher.Indentation && nonBlankLines(text) >= 2 {
					// One line that stands once exactly, and a longer
					// block that stands once elsewhere with its
					// indentation shifted: the region, sent without its
					// common indentation, reads both ways.
					return anchor{ambiguous: &matcher.Refusal{Kind: matcher.ErrAmbiguous, Count: 2, Tier: matcher.Indentation,
						Reason: "its first line stands once as sent, and its first lines stand once elsewhere with their indentation shifted",
						Candidates: []matcher.Candidate{
							fileText(content, fl, best.line, best.line+best.n, "the line as sent"),
							fileText(content, fl, line, line+len(splitKeep(text)), "the lines with their indentation shifted")}}}
				}
				return best
			}
			if best.found && m.Tier != best.m.Tier && (best.m.Tier != matcher.Exact || m.Tier != matcher.Indentation ||
				indented(block(best.n)) || newLineBlank(text, isTail) || !converted(text, fl, line, block(min(limit, maxAnchor)), isTail)) {
				// From exact to a looser tier at the same place is allowed
				// only where the exact lines could not show a shift (they
				// have no indentation, like a function's first and last
				// lines): then the indented lines show how the region
				// differs (by its indentation, in a line that is not blank
				// and is indented in the file too: tabs written as spaces
				// or the reverse; a line indented where the file's is not
				// is a new line, not a slip).
				// Indented lines that matched exactly say there is no
				// shift, and a line that then differs is a change.
				return best
			}
			if !best.found && best.ambiguous != nil && best.ambiguous.Tier != m.Tier &&
				(!shift || best.ambiguous.Tier != matcher.Exact || m.Tier != matcher.Indentation || nonBlankLines(text) < 2) {
				// The shorter block stood several times by one tier; a
				// looser tier cannot be what tells its places apart. But
				// with shift, a block of two lines or more that stands
				// once with its indentation shifted as a whole is the
				// region sent without its common indentation: its first
				// line (a "}" that stands exactly at the margin
				// elsewhere) was never a place of its own. (Not for a
				// tail after a head: the head said how the region
				// stands, and the tail is read in the file's terms.)
				return best
			}
			best = a
			continue
		case err == nil:
			// Found only by a tier anchors do not use.
		case errors.As(err, &ref) && errors.Is(err, matcher.ErrAmbiguous):
			if !best.found {
				best.ambiguous = ref
				continue
			}
		case errors.As(err, &ref) && !best.found && best.ambiguous == nil && n == 1:
			best.candidates = ref.Candidates
		}
		break
	}
	return best
}

func nonBlankLines(text string) int {
	n := 0
	for _, l := range splitKeep(text) {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// anchorPlace is the file line an anchor is tied to: a head's first line,
// a tail's last.
func anchorPlace(a anchor, isTail bool) int {
	if isTail {
		return a.line + a.n - 1
	}
	return a.line
}

// head grows the region's leading anchor.
func head(content []byte, fl *lineindex.Index, r Region, from, limit int, opt matcher.Options) anchor {
	return grow(content, fl, func(n int) string { return strings.Join(r.Lines[:n], "") }, min(len(r.Lines), limit), from, false, true, opt)
}

// tail grows the region's trailing anchor, from its last line back, at
// most limit lines, located from line from on.
func tail(content []byte, fl *lineindex.Index, r Region, from, limit int, shift bool, opt matcher.Options) anchor {
	L := len(r.Lines)
	return grow(content, fl, func(n int) string {
		text := strings.Join(r.Lines[L-n:], "")
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		return text
	}, limit, from, true, shift, opt)
}

func planRegion(content []byte, fl *lineindex.Index, r Region, i, cursor int, opt matcher.Options, atStart, atEnd bool) (*placed, int, *refusal) {
	fail := func(kind error, format string, args ...any) *refusal {
		return &refusal{Kind: kind, Region: i, Line: r.Line, Reason: fmt.Sprintf(format, args...)}
	}
	N := fl.Count()
	h := head(content, fl, r, cursor, len(r.Lines), opt)
	if h.found && h.n == len(r.Lines) {
		// The whole region stands in the file: nothing changes here. But a
		// region without a change is also how a deletion of the lines
		// between its first and last lines would look: it is taken as
		// unchanged only when its first and its last line each stand once
		// (after the previous region), so that no other reading places
		// them apart.
		if atStart && h.line != 0 {
			return nil, 0, fail(ErrEnds, "the snippet has no marker at its start, so it must begin where the file begins, but its first lines stand at line %d: add a marker such as \"// ... existing code ...\" before them", h.line+1)
		}
		L := len(r.Lines)
		_, _, e1 := locate(content, fl, r.Lines[0], cursor, -1, opt)
		_, _, e2 := locate(content, fl, strings.TrimSuffix(r.Lines[L-1], "\n")+"\n", cursor, -1, opt)
		if L > 1 && (e1 != nil || e2 != nil) {
			return nil, 0, fail(ErrAmbiguous, "it changes nothing, and its first or last line stands more than once in the file, so it could also mean deleting lines between them (graft does not delete lines a snippet does not show): show the change the region makes, or use edit to delete lines")
		}
		return nil, h.line + h.n, nil
	}
	tailFrom := cursor
	if h.found {
		tailFrom = h.line + h.n
	}
	// A head found with its indentation shifted (or its trailing white
	// space or line endings forgiven) says how the whole region differs
	// from the file: the region is rewritten that way once, so that its
	// tail and new lines are read in the file's terms (and a tail is not
	// taken at some other place where the unshifted text happens to stand).
	adapted := false
	sent := r // the region as the snippet has it
	if h.found && h.m.Tier != matcher.Exact {
		lines := splitKeep(h.m.Adapt(strings.Join(r.Lines, "")))
		if len(lines) != len(r.Lines) {
			return nil, 0, fail(ErrNotFound, "its lines could not be re-indented line for line as its first lines were found: send the region with the file's indentation")
		}
		r.Lines = lines
		adapted = true
	}
	t := tail(content, fl, r, tailFrom, len(r.Lines)-h.n, !h.found, opt)
	if t.found && h.found && h.line > cursor && !atEnd && !standsOnce(content, fl, r.Lines[0], cursor, opt) {
		// A tail that stands once after the head but also before it (after
		// the previous region) is unique only because of where the search
		// starts. Where the head's first line stands once, the head is
		// where the region starts, and the tail after it is the one the
		// file's order allows. But a head told apart from its other places
		// only by the lines it grew by may have grown through new lines
		// that happen to stand later in the file (a block moved): then the
		// tail standing before it says the region's ends could be read
		// either way, and it is refused.
		L := len(r.Lines)
		text := strings.Join(r.Lines[L-t.n:], "")
		if !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		// Only a place found by the tier that found the tail counts: an
		// exact tail does not stand where its lines stand only shifted.
		m, line, err := locate(content, fl, text, cursor, h.line, opt)
		var ref *matcher.Refusal
		if err == nil && m.Tier == t.m.Tier || errors.As(err, &ref) && errors.Is(err, matcher.ErrAmbiguous) && ref.Tier == t.m.Tier {
			if err != nil {
				line = cursor
			}
			return nil, 0, &refusal{Kind: ErrAmbiguous, Region: i, Line: r.Line, Count: 2,
				Reason: fmt.Sprintf("its last lines stand after its first lines (line %d) but also before them (near line %d), so they do not say where the region ends: show more unchanged lines before the end of the region", t.line+1, line+1)}
		}
	}
	if !h.found && !t.found {
		e := fail(ErrNotFound, "neither its first nor its last lines are in the file after line %d, so nothing says where it goes: start and end each region with unchanged lines of the file", cursor)
		if h.ambiguous != nil || t.ambiguous != nil {
			ref := h.ambiguous
			if ref == nil {
				ref = t.ambiguous
			}
			e.Kind, e.Count = ErrAmbiguous, ref.Count
			e.Reason = fmt.Sprintf("its unchanged lines stand %d times in the file (after line %d) and nothing tells them apart: show more unchanged lines around the change", ref.Count, cursor)
			e.Candidates = shift(ref.Candidates, cursor)
		} else {
			e.Candidates = shift(h.candidates, cursor)
		}
		return nil, 0, e
	}
	if h.ambiguous != nil && !h.found && !atStart {
		return nil, 0, &refusal{Kind: ErrAmbiguous, Region: i, Line: r.Line, Count: h.ambiguous.Count,
			Reason:     fmt.Sprintf("its first lines stand %d times in the file and the lines after them are new: show more unchanged lines before the change", h.ambiguous.Count),
			Candidates: shift(h.ambiguous.Candidates, cursor)}
	}
	if t.ambiguous != nil && !t.found && !atEnd {
		return nil, 0, &refusal{Kind: ErrAmbiguous, Region: i, Line: r.Line, Count: t.ambiguous.Count,
			Reason:     fmt.Sprintf("its last lines stand %d times in the file after its first lines and the lines before them are new: show more unchanged lines after the change", t.ambiguous.Count),
			Candidates: shift(t.ambiguous.Candidates, tailFrom)}
	}

	// Both ends must be anchored, but where the snippet has no marker: a
	// region's line that is not in the file may be new code or a line the
	// model misremembered, and only an anchor on the far side tells.
	if !h.found && !atStart {
		e := fail(ErrNotFound, "its first line %q is not in the file after line %d: start the region with unchanged lines of the file (a region inserting new lines shows the line before them and the line after)", clip(r.Lines[0]), cursor)
		e.Candidates = shift(h.candidates, cursor)
		if t.found {
			// The file's text where the region's first lines should be:
			// the lines before its last lines.
			a := max(cursor, t.line-len(r.Lines)+t.n)
			e.Candidates = append(e.Candidates, fileText(content, fl, a, t.line+t.n, "the file's lines up to where the region's last lines stand"))
		}
		return nil, 0, e
	}
	if !t.found && !atEnd {
		e := fail(ErrNotFound, "its last line %q is not in the file after its first lines: end the region with unchanged lines of the file (a region inserting new lines shows the line before them and the line after)", clip(r.Lines[len(r.Lines)-1]))
		e.Candidates = shift(t.candidates, tailFrom)
		if h.found {
			// The file's text where the region's last lines should be:
			// the lines after its first lines.
			e.Candidates = append(e.Candidates, fileText(content, fl, h.line, min(fl.Count(), h.line+len(r.Lines)), "the file's lines from where the region's first lines stand"))
		}
		return nil, 0, e
	}
	// The file lines [from, to) are replaced by the region's lines
	// [h.n, len-t.n); a snippet without a marker at its start (end)
	// reaches the file's start (end).
	from, to := 0, N
	if h.found {
		from = h.line + h.n
	}
	if t.found {
		to = t.line
	}
	if atStart && h.found && h.line != 0 {
		return nil, 0, fail(ErrEnds, "the snippet has no marker at its start, so it must begin where the file begins, but its first lines stand at line %d: add a marker such as \"// ... existing code ...\" before them", h.line+1)
	}
	if atEnd && t.found && t.line+t.n != N {
		return nil, 0, fail(ErrEnds, "the snippet has no marker at its end, so it must end where the file ends, but its last lines stand at line %d of %d: add a marker such as \"// ... existing code ...\" after them", t.line+t.n, N)
	}
	newLines := r.Lines[h.n : len(r.Lines)-t.n]
	// Re-indent the new lines as the anchor was found (the head's, else
	// the tail's), giving lines equal to the anchor's the file's bytes.
	text := strings.Join(newLines, "")
	adapt := h.m
	if !h.found || h.m.Tier == matcher.Exact && t.found && t.m.Tier == matcher.Indentation {
		// No head, or an exact head (a top-level line) and a tail that
		// shows the region's indentation shifted: the tail says how.
		adapt = t.m
	}
	if h.found && t.found && t.m.Tier != matcher.Exact && t.m.Tier != h.m.Tier && adapted {
		return nil, 0, fail(ErrAmbiguous, "its first lines were found with their indentation shifted and its last lines differ from the file in another way: send the region as the file has it")
	}
	if !adapted {
		text = adapt.Adapt(text)
	}
	// One line found with its indentation shifted is weak: it may be a new
	// line that happens to read like a file line. It places the region
	// only when the other end shows the same shift (the region as sent
	// does not stand in the file as it is there).
	weak := func(a anchor, block string) bool {
		return a.found && a.m.Tier == matcher.Indentation && nonBlankLines(block) < 2
	}
	L := len(sent.Lines)
	if weak(h, strings.Join(sent.Lines[:h.n], "")) || weak(t, strings.Join(r.Lines[L-t.n:], "")) {
		other := !h.found || !t.found
		if h.found && t.found {
			tailSent := strings.Join(sent.Lines[L-t.n:], "")
			if !strings.HasSuffix(tailSent, "\n") {
				tailSent += "\n"
			}
			m, _, err := locate(content, fl, tailSent, t.line, t.line+t.n, opt)
			headSent := strings.Join(sent.Lines[:h.n], "")
			hm, _, herr := locate(content, fl, headSent, h.line, h.line+h.n, opt)
			other = err == nil && m.Tier == matcher.Indentation && herr == nil && hm.Tier == matcher.Indentation
		}
		if !other {
			return nil, 0, fail(ErrNotFound, "it is placed by one line whose indentation differs from the file's, and its other end does not show the same shift, so that line may be new: show more unchanged lines, indented as in the file")
		}
	}
	if h.found && h.m.Tier == matcher.TrailingSpace || t.found && t.m.Tier == matcher.TrailingSpace {
		// The region's anchors differ from the file in trailing white
		// space only: the model does not carry it, so its unchanged lines
		// keep the file's. Otherwise the region's bytes are taken as sent
		// (trailing white space it changes is a change).
		text = keepFileBytes(fl, from, to, text, trailingSlip(fl, sent, h, t))
	}
	rep := &placed{start: fl.Start(from + 1), end: fl.Start(min(to, N) + 1), text: text, region: i,
		line: from + 1, last: max(from, to), tier: adapt.Tier, similarity: adapt.Similarity,
		from: from, to: to, newLines: newLines, snippetLine: r.Line}
	if to == N && rep.end < len(content) {
		rep.end = len(content)
	}
	if h.found && t.found && looser(t.m.Tier, h.m.Tier) {
		rep.tier, rep.similarity = t.m.Tier, t.m.Similarity
	}
	end := to
	if t.found {
		end = t.line + t.n
	}
	return rep, end, nil
}

func looser(a, b matcher.Tier) bool { return a != matcher.Exact && b == matcher.Exact }

func shift(cs []matcher.Candidate, lines int) []matcher.Candidate {
	out := make([]matcher.Candidate, len(cs))
	for i, c := range cs {
		c.Line += lines
		c.EndLine += lines
		out[i] = c
	}
	return out
}

// checkDeletions applies the deletion rule (package doc) to the file lines
// [from, to) replaced by newLines; pool is every line of the snippet that
// does not stand in the file (its new code, wherever it is). It returns
// why the region is refused, or "".
func checkDeletions(fl *lineindex.Index, from, to int, newLines []string, pool []string, prose bool) string {
	var old []string
	for i := from; i < to && i < fl.Count(); i++ {
		old = append(old, string(fl.Text(i+1)))
	}
	key := func(s string) string { return strings.TrimRight(s, " \t\r\n") }
	ok, nk := make([]string, len(old)), make([]string, len(newLines))
	for i, l := range old {
		ok[i] = key(l)
	}
	for i, l := range newLines {
		nk[i] = key(l)
	}
	pairs := trustedPairs(ok, nk)
	pairs = append(pairs, [2]int{len(ok), len(nk)})
	pi, pj := 0, 0
	var total []string // removed lines like no new line, in all gaps
	strict := ""       // why the line-for-line reading refuses
	var removed []int  // the removed lines that are not blank, in all gaps
	var regionAdded []string
	blankMsg := ""    // why dropping blank lines among removed code refuses, unless it is a block rewrite
	var dropped []int // those blank lines
	for _, p := range pairs {
		var deleted, added []string
		first, blanks, addedBlanks := -1, 0, 0
		var gapBlanks []int
		for i := pi; i < p[0]; i++ {
			if strings.TrimSpace(ok[i]) == "" {
				blanks++
				gapBlanks = append(gapBlanks, i)
				continue
			}
			if first < 0 {
				first = i
			}
			deleted = append(deleted, ok[i])
			removed = append(removed, i)
		}
		for j := pj; j < p[1]; j++ {
			if strings.TrimSpace(nk[j]) == "" {
				addedBlanks++
				continue
			}
			added = append(added, nk[j])
		}
		regionAdded = append(regionAdded, added...)
		if edgeBlanks(ok[pi:p[0]], false) > edgeBlanks(nk[pj:p[1]], false) || edgeBlanks(ok[pi:p[0]], true) > edgeBlanks(nk[pj:p[1]], true) {
			// A blank line at the edge of what the region replaces (next
			// to an anchor, or at the file's end) is not part of any
			// rewrite: it separates the code the region leaves alone.
			return fmt.Sprintf("it would delete a blank line of the file it does not show (near line %d): if it stays, show it or put a marker such as \"// ... existing code ...\" where it is; to delete it, use edit or replace_in_file",
				from+pi+1)
		}
		if blanks > 0 && len(deleted)+blanks > len(added)+addedBlanks {
			// Blank lines are lines too: dropping them unseen changes the
			// file as much as any other line; but blank lines among code
			// the gap rewrites go with it, when the rewrite reads as one.
			msg := fmt.Sprintf("it would delete %d blank line(s) of the file it does not show (from line %d) with nothing in their place: if they stay, put a marker such as \"// ... existing code ...\" where they are; to delete them, use edit or replace_in_file",
				blanks, from+pi+1)
			if len(deleted) == 0 || len(added) == 0 {
				return msg
			}
			if blankMsg == "" {
				blankMsg = msg
			}
			dropped = append(dropped, gapBlanks...)
		}
		why, lines, unlike := replaces(deleted, added, pool)
		total = append(total, unlike...)
		if why == "" && strict == "" && len(total) > maxUnlikeRegion {
			why, lines = fmt.Sprintf("and %d of them (in all) are like none of the snippet's new lines", len(total)), listLines(total)
		}
		if why == "" && len(unlike) > 0 && len(added) > len(deleted) && !sharesAny(deleted, pool) {
			// More new lines than removed ones, and not a name in
			// common: new code inserted after the line before the gap,
			// and the file's lines after it dropped by a forgotten
			// marker (a rewrite keeps some of what it rewrites).
			why, lines = "and more new lines stand in their place, none of which shares a name with them (new code inserted and a marker forgotten)", listLines(unlike)
		}
		if why != "" {
			msg := fmt.Sprintf("it would delete %d line(s) of the file it does not show (from line %d, %q), %s: if they stay, put a marker such as \"// ... existing code ...\" where they are; to delete them, use edit or replace_in_file",
				len(deleted), from+first+1, clip(old[first]), why+lines)
			if len(added) == 0 {
				// Nothing stands in their place: no reading makes this
				// a rewrite.
				return msg
			}
			if strict == "" {
				strict = msg
			}
		}
		pi, pj = p[0]+1, p[1]+1
	}
	next := ""
	if to < fl.Count() {
		next = string(fl.Text(to + 1))
	}
	if why := cutOpening(ok, removed, nk, next); why != "" {
		return why
	}
	if len(removed) > 0 && !prose && brackets(ok) != brackets(nk) {
		// An edit of code that parses opens as many brackets as it
		// closes: lines that leave some open (or close more) were cut
		// off by a forgotten marker, not rewritten.
		i := removed[0]
		verb, n := "open", brackets(ok)-brackets(nk)
		if n < 0 {
			verb, n = "close", -n
		}
		return fmt.Sprintf("it would delete %d line(s) of the file it does not show (from line %d, %q), and they %s %d more bracket(s) than the lines in their place: if they stay, put a marker such as \"// ... existing code ...\" where they are; to delete them, use edit or replace_in_file",
			len(removed), from+i+1, clip(old[i]), verb, n)
	}
	if strict == "" {
		// The code reads line for line: blank lines may not shrink.
		return blankMsg
	}
	if rewritesBlocks(fl.Content(), ok, removed, dropped, regionAdded, pool, next) {
		return ""
	}
	return strict
}

// cutOpening refuses a region that removes a block's opening line while
// the block's body, past the region, stays at its depth (ok is the file's
// lines the region replaces, removed the indexes of the lines it removes,
// nk its new lines, next the file line after it): the body is then
// re-parented to whatever opens a block last among the new lines. That is
// a condition rewritten (one opening line in place of one), or a marker
// forgotten after a changed line (the opening line lost among the dropped
// lines). It is a rewrite when each such opening line reads like a new
// one (rewritten in place), but for one at most whose block the region's
// last new line, an opening line that reads like no other removed one,
// takes over.
func cutOpening(ok []string, removed []int, nk []string, next string) string {
	if strings.TrimSpace(next) == "" {
		return ""
	}
	var cut []int
	var openers []string // removed opening lines whose blocks end within the region
	for _, i := range removed {
		if !opens(ok[i]) || isComment(ok[i]) {
			continue
		}
		if blockOf(ok, i, next) == nil && indentWidth(next) > indentWidth(ok[i]) {
			cut = append(cut, i)
		} else {
			openers = append(openers, ok[i])
		}
	}
	if len(cut) == 0 {
		return ""
	}
	// A cut opening line rewritten in place (a signature, a condition
	// changed) reads like a new opening line.
	var newOpeners []string
	lastAt := -1 // the new opening line that is the region's last line
	for _, l := range nk {
		if opens(l) && !isComment(l) {
			newOpeners = append(newOpeners, l)
		}
		if strings.TrimSpace(l) != "" {
			lastAt = -1
			if opens(l) && !isComment(l) {
				lastAt = len(newOpeners) - 1
			}
		}
	}
	cutText := make([]string, len(cut))
	for k, i := range cut {
		cutText[k] = ok[i]
	}
	pair := oneForOne(cutText, newOpeners)
	taken := map[int]bool{}
	for _, j := range pair {
		if j >= 0 {
			taken[j] = true
		}
	}
	var unpaired []int
	for k, j := range pair {
		if j < 0 && !named(cutText[k]) {
			// A line of keywords only (case []interface{}:) reads like
			// a new one that starts with the same word (case []any:).
			first := strings.Fields(cutText[k])[0]
			for jj, l := range newOpeners {
				if f := strings.Fields(l); !taken[jj] && len(f) > 0 && f[0] == first {
					j, taken[jj] = jj, true
					break
				}
			}
		}
		if j < 0 {
			unpaired = append(unpaired, cut[k])
		}
	}
	if len(unpaired) == 0 {
		return ""
	}
	// One opening line may give its block to the new block that ends the
	// region, when that line reads like no other removed opening line.
	if len(unpaired) == 1 && lastAt >= 0 && !taken[lastAt] &&
		(len(openers) == 0 || oneForOne(openers, newOpeners[lastAt:lastAt+1])[0] < 0) {
		return ""
	}
	cut = unpaired
	i := cut[len(cut)-1]
	return fmt.Sprintf("it would delete %q, which opens the block of the file's lines after the region, and leave that block's lines where they are: if it stays, show it or put a marker such as \"// ... existing code ...\" where it is; to delete it, use edit or replace_in_file",
		clip(strings.TrimSpace(ok[i])))
}

// maxVanished is how many removed lines may vanish with nothing in the
// snippet like them, when a region is read as whole blocks rewritten.
const maxVanished = 3

// rewritesBlocks is the second reading of a region whose removed lines
// the line-for-line reading does not account for: a block replaced by a
// call (of a helper, for the loop it was) rarely reads like the block
// line for line, but the call's arguments name the block's variables.
// ok is the file's lines the region replaces, removed the indexes of
// those it removes (not blank), added the region's new lines (not
// blank), pool every new line of the snippet, next the file line after
// the region's last replaced line.
//
// A removed line is accounted for when a new line of the snippet reads
// like it (one for one, as replaces does; a comment only by a comment, a
// definition only by a definition, and a print or log line by none). A
// block's opening line (ending in "{" or ":") may also be accounted for
// by a call, one call for one block and only at the top of what vanishes
// (not for a block nested in one dropped around it), never for a
// definition's line: a call whose arguments name half of the values the
// opening line works on (where they name only what those values are
// fields of, p for p.dirty, they must also pass half of the values the
// block works on and neither declares nor imports), or a part of whose
// name (three characters or more) the line names (processItem, for
// item); or, for an opening line that names only short values (for n >
// 0 {), a call of a helper the file does not hold, passed values the
// body uses and half of the block's values. An opening line accounted
// for takes its whole block (deeper lines and the closing line at its
// depth, all within the region) with it.
//
// It reads as a rewrite when no definition vanishes unaccounted for, the
// removed lines open as many brackets as the new lines do (a run cut off
// by a forgotten marker rarely closes what it opens), no removed
// declaration is of a name new code still uses, the blank lines the
// region drops (blanks, indexes into ok) stand inside a block accounted
// for whole, and at most maxVanished removed lines vanish: those outside
// the run from the first accounted line to the last (a forgotten marker
// leaves its lines at one end), and those inside it with a name that are
// not accounted for.
func rewritesBlocks(content []byte, ok []string, removed, blanks []int, added, pool []string, next string) bool {
	if len(removed) == 0 {
		return true
	}
	del := make([]string, len(removed))
	for k, i := range removed {
		del[k] = ok[i]
	}
	like := oneForOne(del, pool)
	acc := make([]bool, len(del))
	for k, j := range like {
		acc[k] = j >= 0
	}
	at := map[int]int{}
	for k, i := range removed {
		at[i] = k
	}
	// In file order: a block opening line that no new line reads like
	// may be stood for by a call, one call for one block (a definition's
	// line never: a call naming its parameters is no rewrite of it; a
	// statement never: it merely names the call's argument); an opening
	// line accounted for takes its block with it.
	used := make([]bool, len(pool)) // a new line stands for one block
	for k, j := range like {
		if j >= 0 && opens(del[k]) {
			used[j] = true // it reads like this block's opening line
		}
	}
	imported := sync.OnceValue(func() map[string]bool { return importedNames(content) })
	held := map[string]bool{}
	holds := func(name string) bool { // whether the file holds name, asked once per name
		h, seen := held[name]
		if !seen {
			h = containsWord(content, name)
			held[name] = h
		}
		return h
	}
	inBlock := map[int]bool{} // lines inside a block accounted for whole
	hidden := -1              // the last line of the blocks of removed opening lines not accounted for
	for k, i := range removed {
		d := del[k]
		if !opens(d) {
			continue
		}
		// A call stands for a block the rewrite replaces whole, not for
		// one nested in a block that vanishes around it.
		outer := i > hidden
		block := blockOf(ok, i, next)
		if outer && !acc[k] && !definitionRE().MatchString(d) {
			body, free := blockValues(ok, block, imported())
			short := named(codeOf(d)) && len(subjects(codeOf(d))) == 0
			for j, l := range pool {
				if used[j] {
					continue
				}
				// A call naming half the values the opening line works
				// on (when it names them only as what their fields
				// belong to, p for p.dirty, it must also pass half the
				// values the block works on); or, for an opening line
				// that names only short values (for n > 0 {), a call of
				// a new helper, one the file does not hold, passed
				// values the block's body uses. A line that names
				// nothing (for {, try {, } else {, if err != nil {) is
				// stood for by no call: any call inserted before a
				// forgotten marker would do.
				if ok, byField := callNames(d, l); ok && (!byField || passes(l, free)) ||
					short && len(body) > 0 && callsNewHelper(l, body, free, holds) {
					used[j], acc[k] = true, true
					break
				}
			}
		}
		if !acc[k] {
			if len(block) > 0 {
				hidden = max(hidden, block[len(block)-1])
			}
			continue
		}
		for _, j := range block {
			if kk, isRemoved := at[j]; isRemoved {
				acc[kk] = true
			}
		}
		if len(block) > 0 {
			for j := i + 1; j < block[len(block)-1]; j++ {
				inBlock[j] = true
			}
		}
	}
	first, last := -1, -1
	for k, d := range del {
		if !acc[k] && definitionRE().MatchString(d) {
			return false
		}
		if acc[k] {
			if first < 0 {
				first = k
			}
			last = k
		}
	}
	if brackets(del) != brackets(added) {
		return false
	}
	if usesVanishedName(del, pool) {
		return false
	}
	if first < 0 {
		// Nothing of the snippet reads like the removed lines: the
		// line-for-line reading has judged them already.
		return false
	}
	for _, b := range blanks {
		if !inBlock[b] {
			// A blank line the region drops goes with the rewrite only
			// inside a block it rewrites whole: elsewhere it separates
			// the rewrite from what a forgotten marker left out.
			return false
		}
	}
	vanished := first + len(del) - 1 - last
	for k := first; k <= last; k++ {
		if !acc[k] && named(del[k]) {
			vanished++
		}
	}
	return vanished <= maxVanished
}

// declRE matches a line that declares names: Go's "a, b :=", "var a",
// "const a", JavaScript's "let a", "const a", "var a" (an assignment may
// change a value declared elsewhere; a loop's variables are its own).
var declRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:(?:var|let|const)\s+([A-Za-z_$][\w$]*)|([A-Za-z_$][\w$]*(?:\s*,\s*[A-Za-z_$][\w$]*)*)\s*:=)`)
})

// declared is the names line l declares.
func declared(l string) []string {
	m := declRE().FindStringSubmatch(l)
	if m == nil {
		return nil
	}
	if m[1] != "" {
		return []string{m[1]}
	}
	var out []string
	for _, n := range strings.Split(m[2], ",") {
		if n = strings.TrimSpace(n); n != "_" && !keywords()[n] {
			out = append(out, n)
		}
	}
	return out
}

// usesVanishedName reports whether a removed line declares a name that
// new code of the snippet uses and no new line declares: code that still
// needs the value is no rewrite of the lines that made it (a forgotten
// marker dropped them).
func usesVanishedName(del, pool []string) bool {
	decl := map[string]bool{}
	for _, l := range pool {
		for _, n := range declared(l) {
			decl[n] = true
		}
	}
	for _, d := range del {
		for _, n := range declared(d) {
			if decl[n] || len(n) < 2 {
				continue
			}
			for _, l := range pool {
				if slices.Contains(words(stringsRE().ReplaceAllString(l, `""`)), n) {
					return true
				}
			}
		}
	}
	return false
}

// oneForOne pairs the removed lines with the lines of pool that read
// like them (at least half of its names, one of two characters or more),
// one pool line for one removed line, as replaces matches them; but only
// a comment stands for a comment, and only a definition for a
// definition. It returns, per removed line, its pool line or -1.
func oneForOne(del, pool []string) []int {
	used := make([]bool, len(pool))
	out := make([]int, len(del))
	pn := poolNames(pool)
	for k, d := range del {
		out[k] = -1
		nd := names(d)
		if len(nd) == 0 {
			continue
		}
		comment, def, report := isComment(d), definitionRE().MatchString(d), reportLine(d)
		best, score := -1, 0.0
		for j := range pool {
			if used[j] || comment != pn[j].comment || def != pn[j].def || pn[j].report && !report {
				continue
			}
			if o := overlap(nd, pn[j].names); o >= 0.5 && o > score && sharesLong(nd, pn[j].names) {
				best, score = j, o
			}
		}
		if best >= 0 {
			used[best], out[k] = true, best
		}
	}
	return out
}

// blockOf is the lines of the block line i of ok opens: the lines after
// it indented deeper, and the line closing it at its depth ("}", ")",
// "]"); none when the block does not end within ok (next is the file's
// line after ok: a block ending with ok ends there when next is not
// deeper).
func blockOf(ok []string, i int, next string) []int {
	depth := indentWidth(ok[i])
	var out []int
	for j := i + 1; j < len(ok); j++ {
		t := strings.TrimSpace(ok[j])
		if t == "" {
			continue
		}
		if indentWidth(ok[j]) > depth {
			out = append(out, j)
			continue
		}
		if indentWidth(ok[j]) == depth && strings.ContainsAny(t[:1], "})]") {
			out = append(out, j)
		}
		return out
	}
	if strings.TrimSpace(next) != "" && indentWidth(next) <= depth {
		return out
	}
	return nil
}

func indentWidth(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }

// opens reports whether a line opens a block: it ends in "{" or ":"
// (strings and a trailing comment aside).
func opens(l string) bool {
	l = codeOf(l)
	return strings.HasSuffix(l, "{") || strings.HasSuffix(l, ":")
}

// codeOf is a line without its string literals' text and without a
// comment at its end ("//", or " #"), trimmed.
func codeOf(l string) string {
	l = stringsRE().ReplaceAllString(l, `""`)
	if i := strings.Index(l, "//"); i >= 0 {
		l = l[:i]
	}
	if i := strings.Index(l, " #"); i >= 0 {
		l = l[:i]
	}
	return strings.TrimSpace(l)
}

// isComment reports whether a line is a comment line.
func isComment(l string) bool {
	t := strings.TrimSpace(l)
	for _, p := range []string{"//", "#", "/*", "*", "<!--", "--"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	return false
}

// brackets is how many more brackets ls opens than it closes, outside
// strings and comments.
func brackets(ls []string) int {
	n := 0
	for _, l := range ls {
		if isComment(l) {
			continue
		}
		for _, r := range codeOf(l) {
			switch r {
			case '{', '(', '[':
				n++
			case '}', ')', ']':
				n--
			}
		}
	}
	return n
}

// definitionRE matches a line that defines a function or a class.
var definitionRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:export\s+)?(?:async\s+)?(?:func|def|class|function)\b`)
})

// callRE matches a called name and its opening parenthesis.
var callRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)\(`)
})

// exprRE matches an argument that names a variable: a name or a selector.
var exprRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*$`)
})

// callNames reports whether the removed line d (code, not a comment, a
// line that opens a block) is stood for by a call in the new line l: the
// call's arguments name at least half of the values d works on (its
// subjects), or a name of d is a part of the called name of several
// parts (processItem, for item).
func callNames(d, l string) (ok, byField bool) {
	if isComment(d) || isComment(l) {
		return false, false
	}
	d = stringsRE().ReplaceAllString(d, `""`)
	l = stringsRE().ReplaceAllString(l, `""`)
	nd := names(d)
	subj := subjects(d)
	named := map[string]bool{}
	for _, m := range callRE().FindAllStringSubmatchIndex(l, -1) {
		if reports(l, m[2], m[3]) {
			continue
		}
		if parts := nameParts(l[m[2]:m[3]]); len(parts) > 1 {
			for _, p := range parts {
				if len(p) >= 3 && !keywords()[p] && slices.Contains(nd, p) {
					return true, false
				}
			}
		}
		for _, arg := range callArgs(l[m[1]:]) {
			arg = strings.TrimLeft(arg, "&*")
			for _, v := range subj {
				// A value, or the value it is a field of (p for p.dirty).
				switch {
				case arg == v:
					named[v] = true
				case arg != "" && strings.HasPrefix(v, arg+"."):
					named[v] = true
					byField = true
				}
			}
		}
	}
	return len(named) > 0 && 2*len(named) >= len(subj), byField
}

// blockValues reads the block of lines ok[at...]: the words of its code
// (comments aside), and the values it works on that it neither declares
// nor imports, two characters or more (free): what a helper that takes
// the block's place is passed.
func blockValues(ok []string, at []int, imported map[string]bool) (body []string, free map[string]bool) {
	free, decl := map[string]bool{}, map[string]bool{}
	for _, b := range at {
		if isComment(ok[b]) {
			continue
		}
		code := stringsRE().ReplaceAllString(ok[b], `""`)
		body = append(body, words(code)...)
		for _, n := range declared(code) {
			decl[n] = true
		}
		for _, v := range subjects(codeOf(ok[b])) {
			if root := rootOf(v); !imported[root] && len(root) >= 2 {
				free[root] = true
			}
		}
	}
	for n := range decl {
		delete(free, n)
	}
	return body, free
}

// rootOf is the value an argument or a selector starts from: p for
// &p.dirty.
func rootOf(expr string) string {
	return strings.SplitN(strings.TrimLeft(expr, "&*"), ".", 2)[0]
}

// passes reports whether the calls of line l pass at least half of the
// values in free (their arguments' roots), or free is empty.
func passes(l string, free map[string]bool) bool {
	l = stringsRE().ReplaceAllString(l, `""`)
	got := map[string]bool{}
	for _, m := range callRE().FindAllStringSubmatchIndex(l, -1) {
		for _, a := range callArgs(l[m[1]:]) {
			if root := rootOf(a); free[root] {
				got[root] = true
			}
		}
	}
	return 2*len(got) >= len(free)
}

// importRE matches the names a file imports: Go's import paths (their
// last element, or the alias), Python's "import a" and "from m import a,
// b", JavaScript's require and import forms.
var importRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:import\s+)?(?:([A-Za-z_]\w*)\s+)?"(?:[^"\n]*/)?([A-Za-z_][\w.-]*)"\s*$` +
		`|^\s*import\s+([A-Za-z_][\w.]*)` + `|^\s*from\s+\S+\s+import\s+\(?([\w, ]+)` +
		`|(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=\s*require\(` + `|^\s*import\s+(?:\*\s+as\s+)?([A-Za-z_$][\w$]*)` +
		`|^\s*import\s*\{([^}]*)\}`)
})

// importedNames is the names content imports (packages, modules): values
// a block uses that no helper is passed.
func importedNames(content []byte) map[string]bool {
	out := map[string]bool{}
	for _, m := range importRE().FindAllSubmatch(content, -1) {
		for _, g := range m[1:] {
			for _, n := range strings.FieldsFunc(string(g), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '-' }) {
				if n = strings.SplitN(n, ".", 2)[0]; n != "" && n != "as" {
					out[n] = true
				}
			}
		}
	}
	return out
}

// callsNewHelper reports whether line l calls a function the file does
// not hold anywhere (holds says; a helper new with the snippet) with
// arguments that are all values the block uses (used: the words of its
// body), one at least, and that pass at least half of the values of two
// characters or more the block works on and neither declares nor
// imports (free): a call inserted before a forgotten marker passes one
// value of the block it would replace, not what that block needs.
func callsNewHelper(l string, used []string, free map[string]bool, holds func(string) bool) bool {
	if isComment(l) {
		return false
	}
	l = stringsRE().ReplaceAllString(l, `""`)
	for _, m := range callRE().FindAllStringSubmatchIndex(l, -1) {
		name := l[m[2]:m[3]]
		if m[2] > 0 && l[m[2]-1] == '.' || keywords()[name] || reports(l, m[2], m[3]) {
			continue
		}
		args := callArgs(l[m[1]:])
		ok := len(args) > 0
		passed := map[string]bool{}
		for _, a := range args {
			a = strings.TrimLeft(a, "&*")
			root := rootOf(a)
			if keywords()[a] || !exprRE().MatchString(a) || !slices.Contains(used, root) {
				ok = false
				break
			}
			if free[root] {
				passed[root] = true
			}
		}
		if ok && 2*len(passed) >= len(free) && !holds(name) {
			return true
		}
	}
	return false
}

// containsWord reports whether content holds name as a whole word.
func containsWord(content []byte, name string) bool {
	word := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	return holdsWhole(content, name, func(s, e int) bool {
		return (s == 0 || !word(content[s-1])) && (e == len(content) || !word(content[e]))
	})
}

// reportRE matches what a call that only reports is called: print,
// log, debug and their kin, or anything of console, log, logger, logging.
var reportRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^(?:f?print|f?println|f?printf|s?log|logf|debug|debugf|info|infof|warn|warnf|warning|trace|tracef)$|(?:^|\.)(?:console|log|logger|logging|slog)\.$`)
})

// reports reports whether the call named l[s:e] (its receiver before it)
// only reports (a print or a log line): such a call does none of the work
// of a block, so it stands for none.
func reports(l string, s, e int) bool {
	if reportRE().MatchString(l[s:e]) {
		return true
	}
	r := receiverStart(l, s)
	return r < s && reportRE().MatchString(l[r:s])
}

// receiverStart is where the receiver of the call named at l[s:] starts
// (s when it has none): the run of names and dots before it.
func receiverStart(l string, s int) int {
	for s > 0 && (l[s-1] == '.' || l[s-1] == '_' || unicode.IsLetter(rune(l[s-1])) || unicode.IsDigit(rune(l[s-1]))) {
		s--
	}
	return s
}

// reportLine reports whether line l is a print or a log call: it reads
// like no line of code that does work, whatever values it shows.
func reportLine(l string) bool {
	m := callRE().FindStringSubmatchIndex(l)
	if m == nil || !reports(l, m[2], m[3]) {
		return false
	}
	// Nothing but the call's receiver before it.
	return strings.TrimSpace(l[:receiverStart(l, m[2])]) == ""
}

// subjectRE matches a name or a selector, and whether a call follows.
var subjectRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z_$][A-Za-z0-9_$]*)*(\s*\()?`)
})

// subjects are the values line d works on: its names and selectors (a,
// a.b; a method's receiver, not the method) of two characters or more
// that are not keywords, each once. A selector is one value: a call
// naming fd stands for no line that works on fd.net alone.
func subjects(d string) []string {
	var out []string
	for _, m := range subjectRE().FindAllStringSubmatchIndex(d, -1) {
		if m[0] > 0 && (d[m[0]-1] == '.' || d[m[0]-1] >= '0' && d[m[0]-1] <= '9') {
			continue
		}
		e := d[m[0]:m[1]]
		if m[2] >= 0 {
			// A call: its receiver is the value, if it has one.
			e = strings.TrimRight(d[m[0]:m[2]], " \t")
			i := strings.LastIndexByte(e, '.')
			if i < 0 {
				continue
			}
			e = e[:i]
		}
		if len(e) < 2 || keywords()[e] || slices.Contains(out, e) {
			continue
		}
		out = append(out, e)
	}
	return out
}

// callArgs splits the text after a call's "(" into its arguments, up to
// the matching ")".
func callArgs(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '(' || c == '[' || c == '{':
			depth++
		case (c == ')' || c == ']' || c == '}') && depth > 0:
			depth--
		case c == ')' || c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			if c == ')' {
				return out
			}
			start = i + 1
		}
	}
	return out
}

// nameParts splits a name at its case changes and underscores, lower
// case: processItem and process_item give process, item.
func nameParts(w string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(w)
	for i, r := range rs {
		switch {
		case r == '_':
			flush()
			continue
		case i > 0 && unicode.IsUpper(r) && !unicode.IsUpper(rs[i-1]):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// added is the region's new lines that stand for no file line between its
// anchors (its new code), without the white space at their ends.
func added(fl *lineindex.Index, from, to int, newLines []string) []string {
	var ok, nk []string
	for i := from; i < to && i < fl.Count(); i++ {
		ok = append(ok, strings.TrimRight(string(fl.Text(i+1)), " \t\r\n"))
	}
	for _, l := range newLines {
		nk = append(nk, strings.TrimRight(l, " \t\r\n"))
	}
	paired := make([]bool, len(nk))
	for _, p := range trustedPairs(ok, nk) {
		paired[p[1]] = true
	}
	var out []string
	for j, l := range nk {
		if t := strings.TrimSpace(l); t != "" && !paired[j] {
			out = append(out, t)
		}
	}
	return out
}

// edgeBlanks counts the blank lines at the start (or, with end, the end)
// of ls.
func edgeBlanks(ls []string, end bool) int {
	n := 0
	for k := range ls {
		l := ls[k]
		if end {
			l = ls[len(ls)-1-k]
		}
		if strings.TrimSpace(l) != "" {
			break
		}
		n++
	}
	return n
}

// trustedPairs pairs the unchanged lines of a region's file lines and its
// new lines (lcs), leaving out pairs of lines without a word (a brace, a
// bracket) between unpaired lines on both sides: a "}" of the new code is
// not the file's "}" just because both close something.
func trustedPairs(a, b []string) [][2]int {
	ps := lcs(a, b)
	out := ps[:0:0]
	for k, p := range ps {
		if len(words(a[p[0]])) == 0 {
			prevGap := k == 0 && (p[0] > 0 || p[1] > 0) || k > 0 && (ps[k-1][0] != p[0]-1 || ps[k-1][1] != p[1]-1)
			nextGap := k == len(ps)-1 && (p[0] < len(a)-1 || p[1] < len(b)-1) || k < len(ps)-1 && (ps[k+1][0] != p[0]+1 || ps[k+1][1] != p[1]+1)
			if prevGap && nextGap {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// maxUnlike is how many of the lines a gap removes may be unlike every
// new line of the snippet: a rewrite changes a few lines beyond
// recognition; a marker forgotten drops a run of code with nothing like
// it in the snippet.
const maxUnlike = 2

// maxUnlikeRegion bounds the same over all gaps of a region: lines a
// marker left out can be split into several gaps by the braces and
// common lines the snippet happens to share with them.
const maxUnlikeRegion = 2

// maxExplained is how many removed lines one new line may stand for: a
// line rewritten is one line; ten lines that each read like the one new
// line (a table of similar calls) are a run dropped, not ten rewrites.
const maxExplained = 1

// replaces says why removing the deleted lines of one gap of a region in
// favour of the added ones is not a rewrite ("" when it is), with the
// lines that would vanish. Something must stand in their place, and at
// most maxUnlike of the removed lines may be unlike every new line of the
// snippet (the gap's, or another region's: code moved into a helper).
// A removed line is like a new line when it shares at least half of its
// words with it, one of them a name (not a keyword of the languages graft
// knows); a line without a name (a brace, "return nil", "else:") says
// nothing either way.
func replaces(deleted, added, pool []string) (why, lines string, unlike []string) {
	if len(deleted) == 0 {
		return "", "", nil
	}
	if len(added) == 0 {
		return "without anything in their place", "", nil
	}
	explained := make([]int, len(pool))
	pn := poolNames(pool)
	first, last := -1, -1 // the first and last removed lines like a new line
	newBlock := false     // a new line opens a block
	for _, l := range added {
		newBlock = newBlock || opens(l)
	}
	var gone []string // removed block openings that nothing stands for
	for k, d := range deleted {
		nd := names(d)
		if len(nd) == 0 {
			if opens(d) && !newBlock && !isComment(d) {
				gone = append(gone, d)
			}
			continue
		}
		report := reportLine(d)
		best, score := -1, 0.0
		for j := range pool {
			if explained[j] >= maxExplained || pn[j].report && !report {
				// A print or a log line reads like no line that works.
				continue
			}
			if o := overlap(nd, pn[j].names); o >= 0.5 && o > score && sharesLong(nd, pn[j].names) {
				best, score = j, o
			}
		}
		if best < 0 {
			unlike = append(unlike, d)
			if opens(d) && !newBlock && !isComment(d) {
				gone = append(gone, d)
			}
			continue
		}
		explained[best]++
		if first < 0 {
			first = k
		}
		last = k
	}
	switch {
	case len(unlike) > maxUnlike:
		return fmt.Sprintf("and %d of them are like none of the snippet's new lines", len(unlike)), listLines(unlike), unlike
	case len(gone) > 0:
		// A few lines changed beyond recognition are a rewrite; a block
		// (a condition, a loop) gone with no block and no line like it
		// in its place is not, unless the second reading finds the call
		// that stands for it.
		return "and a block among them opens where no new line opens one or reads like it", listLines(gone), unlike
	case first >= 0 && (first > maxUnlike || len(deleted)-1-last > maxUnlike):
		// The new lines read like the removed lines at one end of the
		// gap; the lines at its other end, like none of them, are what a
		// forgotten marker leaves out.
		lo, hi := last+1, len(deleted)
		if first > maxUnlike {
			lo, hi = 0, first
		}
		return "and the new lines stand for only part of them", listLines(deleted[lo:hi]), unlike
	}
	return "", "", unlike
}

// sharesAny reports whether a line of deleted has a name in common with
// a line of pool: one of two characters or more, or at least half of its
// names.
func sharesAny(deleted, pool []string) bool {
	for _, d := range deleted {
		for _, l := range pool {
			if sharesLongName(d, l) || nameOverlap(d, l) >= 0.5 {
				return true
			}
		}
	}
	return false
}

// listLines lists lines for a refusal, one a line, at most six.
func listLines(ls []string) string {
	var b strings.Builder
	for _, u := range ls[:min(len(ls), 6)] {
		fmt.Fprintf(&b, "\n\t%s", clip(u))
	}
	if len(ls) > 6 {
		fmt.Fprintf(&b, "\n\t(and %d more)", len(ls)-6)
	}
	return b.String()
}

// lineNames is what the deletion rule asks of a snippet line, read once.
type lineNames struct {
	names                []string
	comment, def, report bool
}

// poolNames reads the lines of pool once for the deletion rule.
func poolNames(pool []string) []lineNames {
	out := make([]lineNames, len(pool))
	for j, l := range pool {
		out[j] = lineNames{names(l), isComment(l), definitionRE().MatchString(l), reportLine(l)}
	}
	return out
}

// overlap is nameOverlap of lines already read into names.
func overlap(na, nb []string) float64 {
	if len(na) == 0 {
		return 0
	}
	count := map[string]int{}
	for _, w := range nb {
		count[w]++
	}
	common := 0
	for _, w := range na {
		if count[w] > 0 {
			count[w]--
			common++
		}
	}
	return float64(common) / float64(len(na))
}

// sharesLong is sharesLongName of lines already read into names.
func sharesLong(na, nb []string) bool {
	for _, w := range na {
		if len(w) > 1 && slices.Contains(nb, w) {
			return true
		}
	}
	return false
}

// sharesLongName reports whether a and b have a name of two characters
// or more in common (one letter, like "i" or "b", is everywhere).
func sharesLongName(a, b string) bool { return sharesLong(names(a), names(b)) }

// nameOverlap is the share of a's names (counted with multiplicity) that
// b has too.
func nameOverlap(a, b string) float64 { return overlap(names(a), names(b)) }

// keywords are words of the languages graft knows that name nothing of
// a program's own: a line of only these says nothing about what it is.
var keywords = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`if else for range func return var const type struct interface map chan go defer
		select case switch default break continue nil true false err def elif while in not and or is None True False self
		pass raise try except finally with as import from class lambda yield function let new this typeof instanceof of
		null undefined await async throw catch do end then fn pub mut impl use package public private static void int
		string bool error len make append`) {
		m[w] = true
	}
	return m
})

// names are a line's words that are not keywords or numbers, outside
// its string literals (prose in a message is not what code is about).
// A line whose names all stand in strings (a JSON key and value) keeps
// them.
func names(s string) []string {
	pick := func(s string) []string {
		var out []string
		for _, w := range words(s) {
			if !keywords()[w] && !unicode.IsDigit(rune(w[0])) {
				out = append(out, w)
			}
		}
		return out
	}
	if out := pick(stringsRE().ReplaceAllString(s, `""`)); len(out) > 0 {
		return out
	}
	return pick(s)
}

func named(s string) bool { return len(names(s)) > 0 }

// wordOverlap is the share of the words (runs of letters, digits and _)
// of a that b has too, counted with multiplicity; lines without words
// compare their punctuation as one word.
func wordOverlap(a, b string) float64 {
	wa := words(a)
	if len(wa) == 0 {
		if strings.TrimSpace(a) == strings.TrimSpace(b) {
			return 1
		}
		return 0
	}
	return overlap(wa, words(b))
}

func words(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool {
		return !(r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r))
	})
}

func clip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) > 60 {
		return s[:57] + "..."
	}
	return s
}

// lcs pairs equal elements of a and b (single lines, without line
// breaks) in order, by graft's one line diff: the lines it leaves
// unchanged.
func lcs(a, b []string) [][2]int {
	join := func(ls []string) []byte {
		var buf []byte
		for _, l := range ls {
			buf = append(append(buf, l...), '\n')
		}
		return buf
	}
	var out [][2]int
	i, j := 0, 0
	for _, e := range textdiff.Lines(join(a), join(b)) {
		for ; i < e.A0; i, j = i+1, j+1 {
			out = append(out, [2]int{i, j})
		}
		i, j = e.A1, e.B1
	}
	for ; i < len(a) && j < len(b); i, j = i+1, j+1 {
		out = append(out, [2]int{i, j})
	}
	return out
}

// splitKeep splits text after each line break, keeping it.
func splitKeep(text string) []string {
	ls := strings.SplitAfter(text, "\n")
	if ls[len(ls)-1] == "" {
		ls = ls[:len(ls)-1]
	}
	return ls
}

// keepFileBytes is for a region whose anchors were found only by
// forgiving trailing white space: its lines that stand unchanged in the
// file's lines [from, to) (paired in order, trailing white space and line
// endings aside) get the file's own bytes, as the matcher keeps unchanged
// lines of an edit, and its new lines lose the trailing white space the
// model adds.
func keepFileBytes(fl *lineindex.Index, from, to int, text, slip string) string {
	if text == "" {
		return text
	}
	nl := splitKeep(text)
	key := func(s string) string { return strings.TrimRight(s, " \t\r\n") }
	ok, nk := make([]string, 0, to-from), make([]string, len(nl))
	for i := from; i < to && i < fl.Count(); i++ {
		ok = append(ok, key(string(fl.Text(i+1))))
	}
	for j, l := range nl {
		nk[j] = key(l)
	}
	paired := make([]bool, len(nl))
	for _, p := range lcs(ok, nk) {
		paired[p[1]] = true
		if ok[p[0]] == "" {
			continue
		}
		line := string(fl.Content()[fl.Start(from+p[0]+1):fl.End(from+p[0]+1)])
		if !strings.HasSuffix(line, "\n") && strings.HasSuffix(nl[p[1]], "\n") {
			line += "\n"
		}
		nl[p[1]] = line
	}
	// The region's other lines are new: where the model added the same
	// trailing white space to every anchor line, that slip is taken off
	// the new lines that carry it too.
	for j, l := range nl {
		body := strings.TrimRight(l, "\r\n")
		if !paired[j] && slip != "" && strings.HasSuffix(body, slip) {
			nl[j] = strings.TrimSuffix(body, slip) + l[len(body):]
		}
	}
	return strings.Join(nl, "")
}

// trailingSlip is the trailing white space the model added to every
// non-blank anchor line of r (found by the trailing white space tier), or
// "" when the anchors do not all show the same addition.
func trailingSlip(fl *lineindex.Index, r Region, h, t anchor) string {
	slip, seen := "", false
	check := func(regionLine string, fileLine int) bool {
		got := strings.TrimRight(regionLine, "\r\n")
		want := string(fl.Text(fileLine + 1))
		if strings.TrimSpace(got) == "" {
			return true
		}
		add, ok := strings.CutPrefix(got, want)
		switch {
		case !ok || strings.Trim(add, " \t") != "" || seen && add != "" && add != slip:
			return false
		case add != "":
			slip, seen = add, true
		}
		return true
	}
	if h.found {
		for k := 0; k < h.n; k++ {
			if !check(r.Lines[k], h.line+k) {
				return ""
			}
		}
	}
	if t.found {
		L := len(r.Lines)
		for k := 0; k < t.n; k++ {
			if !check(r.Lines[L-t.n+k], t.line+k) {
				return ""
			}
		}
	}
	return slip
}

// newLineBlank reports whether the line an anchor's block grew by (its
// last line for a head, its first for a tail) is blank.
func newLineBlank(block string, isTail bool) bool {
	ls := splitKeep(block)
	l := ls[len(ls)-1]
	if isTail {
		l = ls[0]
	}
	return strings.TrimSpace(l) == ""
}

// indented reports whether a non-blank line of block starts with white
// space.
func indented(block string) bool {
	for _, l := range splitKeep(block) {
		if strings.TrimSpace(l) != "" && (l[0] == ' ' || l[0] == '\t') {
			return true
		}
	}
	return false
}

// converted reports whether the line an anchor grew by (the block's last
// line for a head, its first for a tail; the block was found from file
// line line on) reads as the file line it was found at with its
// indentation written in another character: both are
// indented, with different first characters, and no line of the region
// (whole) is indented with the file's character (a model that writes tabs
// as spaces does so throughout).
func converted(block string, fl *lineindex.Index, line int, whole string, isTail bool) bool {
	ls := splitKeep(block)
	sent, at := ls[len(ls)-1], line+len(ls)-1 // a head grows by its last line
	if isTail {
		sent, at = ls[0], line
	}
	if at >= fl.Count() {
		return false
	}
	file := fl.Text(at + 1)
	ind := func(l []byte) bool { return len(l) > 0 && (l[0] == ' ' || l[0] == '\t') }
	if !ind([]byte(sent)) || !ind(file) || sent[0] == file[0] {
		return false
	}
	for _, l := range splitKeep(whole) {
		if l != "" && l[0] == file[0] {
			return false
		}
	}
	return true
}

// fileText is file lines [a, b) as a refusal's candidate.
func fileText(content []byte, fl *lineindex.Index, a, b int, reason string) matcher.Candidate {
	b = max(a, min(b, fl.Count()))
	return matcher.Candidate{Line: a + 1, EndLine: b, Text: string(content[fl.Start(a+1):fl.Start(b+1)]), Reason: reason}
}
