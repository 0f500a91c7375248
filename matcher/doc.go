// Package matcher locates an old block of text in a file's content: exactly
// first, then through fuzzy tiers for the mistakes models make when they
// copy text out of a file. It is pure: no I/O, no global state. It does not
// edit anything: Find says where the block is and Match.Adapt rewrites the
// caller's new text to fit it; the engine (package apply) splices it in and
// gives inserted line breaks the file's line ending.
//
// # Tiers, in order
//
// Exact: byte for byte. A unique occurrence is taken; several are an
// ambiguity (ErrAmbiguous), never a guess. Nothing else runs when the exact
// tier found something, so a fuzzy tier can never move an edit that the
// exact tier would have placed.
//
// The line tiers compare whole lines. Content and old text are split into
// lines; each tier compares them under a looser reading than the one before,
// and a tier includes the readings of those before it:
//
//   - line-endings: "\r\n" and "\n" are the same break (and an old text that
//     ends with a break matches a last line that has none);
//   - trailing-whitespace: white space at line ends is ignored;
//   - indentation: leading white space is ignored for comparison, but the
//     old text's indentation must map onto the file's by one transformation
//     for all its lines: a common prefix added or removed, or levels of tabs
//     or of N spaces shifted by a constant (tabs for spaces and the reverse).
//     Units are taken from the lines themselves, then from the file; the
//     caller's lines are read in another unit of spaces than the file's
//     only in the unit they step by (two lines fit four-space levels onto
//     two-space ones at a wrong place while the new lines stepped by two). A
//     prefix in one style (tabs) while the caller indents in the other
//     gives way to levels when they fit too, so that new lines are written
//     in the file's style rather than as a tab followed by spaces. Last,
//     lines that mix tabs and spaces otherwise than the file (some retyped
//     with spaces, others copied with their tabs) are read with a tab
//     counted as w columns: they fit when every old line is as wide as the
//     file's under exactly one w of 2, 4 and 8, and new lines take their
//     width under w in the file's style. A block of the file that itself
//     writes a width in more than one form, or otherwise than its style
//     (a Markdown code sample pasted from two places, a raw string
//     aligned with spaces in tab-indented code, tabs of eight columns
//     with levels of four read by a caller who counted a tab as four)
//     decides a new line's indentation line by line: narrower than a
//     tab, spaces; a form the caller copied from the block (one the old
//     text does not write), kept; a changed line, the form of the line it
//     changes; a width the block writes in one form, that form (but not
//     spaces alone a tab or more wide among tabs). Otherwise the form is
//     open and the edit refused; without Options.NewText, a block that
//     writes some widths with tabs and others with spaces alone is
//     refused. A block whose relative indentation differs (in Python, a
//     different program) is refused. An old text that starts after its
//     first line's indentation, as an exact match may, is allowed for;
//   - typography: typographic quotes, dashes and non-breaking spaces stand for
//     their ASCII forms (folded rune for rune, both ways).
//
// The old text is then read differently and the cascade (exact, then the
// line tiers) runs again: without the blank lines at its ends (fewest left
// out first, and the readings that leave out as many tried together: if
// they find different lines, that is an ambiguity; a text whose leading
// blank lines were left out starts where a line starts; tier
// "blank-lines+..."), then unescaped once (literal \n, \t,
// \", doubled backslashes; tier "escapes+..."), then both; and last with its
// inner line breaks read as the \n escapes a string literal in the file has
// (a \n that reached graft as a real line break; tier "escapes"). The new
// text is always read the same way as the old.
//
// # Guards
//
// A tier accepts only a unique candidate. Candidates are counted under the
// tier's own reading: two blocks that are equal once indentation is ignored
// are two candidates for the indentation tier even if only one has a
// consistent indentation. The first tier with any candidate decides: one is
// taken (or refused with its reason), several are an ambiguity, and looser
// tiers are not consulted.
//
// The line tiers find whole lines, but an old text may start inside a line
// and, without a final line break, end inside one, as an exact occurrence
// may. So a candidate is also counted where, under the tier, the old
// text's first line, as typed, ends a file line (or, from the indentation
// tier on, is the whole line after its indentation), its last line begins
// one, and the lines between are whole:
// "f()" then "return n" stands at "x := f()" then "return nil" too. Such a
// place beside the block found is an ambiguity (the exact tier, given the
// text without the slip, would have found both), never a reason to pick
// the whole-line block.
//
// A line that differs in substance (another identifier, a missing line, an
// extra line) matches under no tier, so the block is refused, never
// repaired. Similarity scores only rank the near misses in a refusal.
//
// When Options.NewText is given, more checks run before a fuzzy match is
// taken (among them: a new text that repeats a line the old text has
// once, where the file's copy differs in what the tier ignores, leaves
// open which copy is the kept line, and is refused unless
// Options.ContextKnown says the caller knows it): an edit whose new text differs from the old text only in what the
// tier ignored is refused (it cannot be told from an edit already made),
// except an edit that re-indents some lines relative to the others where
// the block found does not stand so, when the old text shows the caller's
// unit (tabs, or a step of spaces), the lines move by whole units, and the
// readings of the old indentation (a prefix, levels) agree on the new
// lines' (the file does not hold such an edit, and its place is decided); an
// edit whose new text already stands in the file where the block found does
// not explain it (overlapping the block, or elsewhere in another form than
// the block would give it), at least as tightly as the old text fits its
// block (under the indentation tier, only where its own relative
// indentation maps onto the file's), is refused as already applied, while new text
// that stands elsewhere exactly as the block found would write it is a file
// repeating itself and no evidence (a deletion of fewer than three
// non-blank lines is exempt, and so is one whose kept lines stand inside the
// block found); a blank line left out at an end of the old text is refused
// when the file has a blank line two or three lines further on and the
// edit changes the line next to the left-out blank (read as skipped lines,
// the edit would change them too; when it keeps that line, both readings
// leave them alone); and under the typography tier, a character of a changed
// line whose form the block leaves open is refused (see Adapt). Every such
// refusal names its guard and what to send instead.
//
// # Adapt
//
// For a line-tier match, Adapt aligns the new text's lines with the old
// text's (longest common subsequence, common leading and trailing lines
// first). A new line equal to an old line becomes the file's line it was
// matched to, byte for byte (its indentation, trailing white space and
// typography), unless it could as well be another old line of the same
// text whose file line differs (the new text keeps one of two "}" lines):
// then which one was kept is open, and the line is written as a changed
// line is. Other new lines get the block's transformation: the same
// indentation mapping in the file's style (tabs stay tabs; a line of white
// space only is mapped too where the old text's such lines show the caller
// shifted them, or, showing nothing, it is exactly the indentation of a new
// line next to it; otherwise it is kept as sent, as Aider keeps it: white
// space alone shows no shift), and typography
// occurrence by occurrence: a quote, dash or space takes the file's form
// where it is aligned, character by character, with an occurrence in the
// old line it was made from and so is a neighbour of it, or where every occurrence of the same typed
// character with the same neighbours in the block reads one way; otherwise
// it keeps the caller's character (a character the block shows read
// several ways, undecided, is refused when NewText is known). Inside a
// code span (between backticks) an ASCII character stays ASCII unless the
// occurrence it is aligned with stood in a code span too: typesetting
// leaves code alone. White space
// the caller added at the end of every matched non-blank line (each the
// file's line followed by the same white space) is the trailing
// white-space tier's transformation: a changed line that ends with it loses
// it (a blank line made of it becomes empty). Typographic
// punctuation the caller typed where the block has ASCII is its artifact
// and becomes ASCII, one character for one; a dash is refused instead
// when the block writes "--" somewhere, since it may stand for two
// hyphens as well as one, and when the block shows no dash and the caller
// typeset other characters only (quotes): an em dash in new prose is as
// often the writer's own. The escapes and blank-lines readings apply
// to the new text as they did to the old. Line endings are left to the
// caller.
//
// # Cost and budget
//
// Exact search is bytes.Index. The line tiers index the content once: line
// starts and a 64-bit hash of each line's loosest reading (trimmed, typography
// folded). The old line whose hash is rarest in the file anchors the scan;
// only where it stands are the other lines compared, by hash and then for
// real. A 30-line block in 10,000 lines is located in about 0.6 ms (about
// 6 ms in 100,000 lines) on the reference machine. Every phase books work
// units (about one per line indexed or compared) against Options.Budget
// before it starts; a search that would pass the budget stops and refuses
// (ErrNotFound) rather than go slow. Refusals look for near misses by voting:
// each old line found in the file votes for where the block would start,
// with the weight 1/(times it is found), so a rare line counts more than a
// "}" (lines found more than 64 times do not vote). When no line votes,
// the old lines found nowhere (lines the caller got wrong) are compared
// with every file line, and the most similar vote by their similarity,
// the too-common lines adding their small weight where they stand. The 24
// best starts are aligned line by line to say what differs, and ranked:
// first by how many old lines stand there as they are (a place holding
// every line of the text with one line between is a line the caller
// skipped, more likely than a place where one of them is merely alike),
// then by similarity, then (given Options.NewText) by how much the place's
// lines that are none of the old text's look like the new text's lines
// that are none of the old text's (a line skipped or got wrong tends to
// come back rewritten), then by votes. A candidate takes in the blank lines
// the old text has at its ends where the file has them too.
//
// # The line hint
//
// Options.Hint never decides which match is taken: a stale hint cannot move
// an edit, and an ambiguous block stays ambiguous whatever the hint says. It
// only orders otherwise equal near misses in a refusal, nearest first. So it
// can never pick wrong, because it never picks.
package matcher
