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
