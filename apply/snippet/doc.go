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
// heading or a list item. A comment that says nothing but its ellipsis
// ("// ...", " *     ...") is the file's line where the file holds it as
// a line, indentation included: a doc comment's example elides that way,
// and reading that line as a marker would pick one of its two readings. A
// bare "..." without a comment is not a marker (it is code in Python and
// TypeScript). In prose, a fenced code block holds code of its own
// language: there a comment in another syntax than the snippet's markers
// outside such blocks is the example's ("// ..." in a JavaScript example
// of a Markdown snippet that marks with "<!-- ... -->"), not a marker.
// Markers keep the file's lines between the regions they separate,
// unchanged.
//
// # Regions
//
// A region is a run of lines between markers (blank lines at its ends
// left out: they belong to the code the markers keep; but where the
// snippet has no marker at its start, its first region keeps them, and
// where it has none at its end, its last region does: there they are the
// file's first or last lines). Each
// region is anchored in the file by its unchanged lines: its head, the
// longest run of its first lines that stands in the file as a unique
// block of whole lines, and its tail, the same for its last lines, after
// the head. Both are located by the matcher, each region after the one
// before it, unique only, by its exact tier or the tiers that forgive only
// line endings, trailing white space or a constant indentation shift (the
// blank-line, typography and escape tiers do not place anchors: a blank
// line or a changed character at a region's edge is a change, not a slip).
// An anchor grows one line at a time while it stays at one place by one
// tier; found by forgiving trailing white space, while its lines add the
// same white space wherever they add any (a model's slip adds it to every
// line; a line with another is a new line, not the anchor's, and so is
// one that adds none but ends in that white space, as the file's line
// does, or drops or changes the file's: "0 " is the file's "0 " or "0\f",
// or a new "0" slipped); and, found
// by its indentation, while its lines keep one shift (the same white
// space added before each line's indentation, or removed): a line that
// the matcher fits only by scaling indentation levels (a key at the
// margin after lines sent two columns left) ends it, so the region is
// re-indented by the shift alone. A line with tabs written as spaces, or
// the reverse, says nothing against the shift where it is as wide as the
// file's line, with the shift, at a tab width of 2, 4 or 8 (one space for
// two tabs ends it too), and so long as the region's next line is not, with
// the shift, that same file line as it stands (then the line with spaces is
// a new one beside its twin, and the anchor ends before it); a block that stands several times grows until it stands once, but
// a blank line, or a looser tier than the one that found the places, never
// counts as what tells them apart; but
// for a region sent without its common indentation, a block of two lines
// or more that stands once with its indentation shifted is found so, even
// where its first line (a "}") stands exactly elsewhere, at the margin,
// once or more; shifted means white space added or removed, one shift for
// every line: a block that differs from the file only by tabs written as
// spaces is no region sent shifted (that is the second reading, below),
// and its exact lines stay the anchor. A head found with a shift rewrites the whole region as the
// matcher re-indents (so the tail is sought in the file's terms; a tail
// that then needs a shift of its own is refused, one that differs only by
// trailing white space or line endings is the file's). The matcher reads
// indentation as levels and tab widths; a head whose every line shows
// the same white space added or removed says the region was sent shifted
// by it, and where the two readings give one of the region's lines
// different indentation (a line sent with a tab in a block that mixes
// tabs and spaces) the region leaves it open and is refused
// (Unshiftable); a
// one-line anchor found only by its indentation (or only by forgiving its
// trailing white space) places the region only when the other end shows
// the same shift (the same difference). A head that stands several
// times, or reads two ways (its first line once as sent, its first lines
// once elsewhere with their indentation shifted), is placed by the
// region's tail: the tail, grown from the region's end, must stand once
// after the previous region, and exactly one reading of the head (one of
// its places, or one of the two ways) must end before it such that, the
// region re-indented as that reading was found, the tail read after it
// in the file's terms is that same tail with no shift of its own. The
// pair (head, tail) then stands once with one shift, as a head alone
// must stand once; where two readings pair so (two places of the head
// before the tail), the nearer is not chosen, and the region is refused
// as its head standing twice. Why: a region sent without its common
// indentation often begins with the end of a block (a statement and a
// "}"), which, shifted, stands wherever such a block ends, while its
// last lines stand once with that shift; a reader places it by them.
// A tail is sought after the
// head, in the file's order; where it also stands before the head and the
// head's first line does not stand once (the lines the head grew by told
// its places apart, and they may be lines the region moves), it is
// refused: the region's ends could be read either way. A head that
// stands exactly may have grown through the region's new lines: a block
// inserted as a copy of the code after it (an assertion repeated, then
// changed) begins with that code's lines, so the head takes them for its
// own, and the tail then stands further on (the lines between read as
// removed), or nowhere after it. So the region is read once more with
// shorter heads: each that stands once, exactly, at the head's place, and
// that the region's tail follows directly, exactly (the region inserts
// between them and removes nothing), is a reading. Where the tail stands
// after the head, every reading must end the region where it does; where
// it stands nowhere after it, the readings place the region when they
// all end it at one file line (they give one file). Readings that end it
// at different lines leave the region two ways to read, and it is refused
// (EndsEitherWay). A region whose first or last lines were found by a
// looser tier (shifted, trailing white space or line endings forgiven;
// the region read in the file's terms) is read so too, for that refusal;
// such a region's shorter heads do not place it where its tail stands
// nowhere after the head.
// The file's lines between head and tail are replaced by the region's
// lines between them. A region must be anchored at both ends (but where the
// snippet has no marker, at the file's start or end): a line that is not
// in the file may be new code or a line the model misremembered, and only
// an anchor on its far side tells the two apart. So a region that inserts
// lines shows the line before them and the line after.
//
// A region that changes nothing (all its lines stand together in the file)
// is also how a deletion of the lines between two of its lines would look;
// it is taken as unchanged only when no other place of its first line and
// place of its last line pair up, the first before the last (white space
// at their ends aside), and refused otherwise: a first line that stands
// again only after the last (a docstring's quotes), or a last line only
// before the first, reads no other way. A region without a marker at the
// snippet's start (end) that stands together short of the file's edge
// does change something, the lines up to the edge (below; blank lines
// only, too, as a commit that drops a file's last blank line sends), so
// it is read as its lines stand together, as any region with a change
// is; and so does a region found only with its indentation shifted that,
// re-indented, still differs from the file in white space (a line's
// trailing spaces dropped, as a commit that strips them sends): those
// lines are its change.
//
// Behind anchors that stand exactly, the region's new lines are written
// as sent: re-indentation applies only where a tier found an indentation
// difference, and only by it. So a line of white space only is written
// as sent (it has no code to indent), and a line of the head that,
// re-indented, still differs from the file's (trailing white space the
// change drops or adds) is the region's own, written as sent, not an
// anchor that keeps the file's bytes. The one exception is read second: where the
// anchors as sent do not place a region, its exact lines with no
// indentation (a function's first line) may grow into lines whose
// indentation the model wrote in the other character, tabs as spaces or
// the reverse, throughout the region; then that is the difference found,
// and the region is re-indented by it. A head that stands exactly says
// how the region is indented only where it has indented lines: a head of
// lines at the margin and a tail found shifted is the region sent without
// its common indentation, re-indented by the tail's shift; but behind an
// exact head with indented lines, a tail that stands only shifted is the
// region's own lines re-indented (a body wrapped in a new block), not an
// anchor. Without a marker at the snippet's end, where those lines end
// the file (blank lines aside), the file's end ends the region and every
// line is written as sent; otherwise nothing says where the region ends,
// and it is refused (MixedShift).
//
// Unchanged lines keep the file's bytes where the anchors were found only
// by forgiving trailing white space, and then the new lines lose the
// trailing white space the model added to every anchor line (a line is
// the file's where it is that line plus that white space exactly; one
// that drops or changes the file's own is a change, written as sent);
// where the anchors add none (the model dropped the file's trailing white
// space), a line is the file's where it is that line with trailing white
// space aside; otherwise the region's lines are taken as sent.
//
// # What a region may delete
//
// The file's lines between a region's anchors that the region does not
// show are the lines it removes: graft pairs the file's lines there with
// the region's lines by its line diff (white space at line ends aside, and
// a bracket paired between changed lines on both sides does not count),
// and whatever stays unpaired on the file's side is removed; a brace
// alone on its line (C's Allman style, "{" under "void f(int x)" or "for
// (...)") is read on both sides as the end of the line before it, the
// line that opens the block, so that a definition whose brace moves onto
// its line is that definition rewritten, and a loop so written opens its
// block as "for (...) {" does in part 2. Removed blank
// lines never matter: a blank line holds no code, so dropping one is the
// snippet's literal text, and no marker is forgotten for it alone. Every
// other removed line must be accounted for by the snippet, or the region
// is refused, naming the lines (to delete lines, a caller uses edit or
// replace_in_file). The rule, in four parts:
//
// 1. Read like. A removed line is accounted for by a new line of the
// snippet that reads like it, one new line for one removed line: a line
// that has at least half of its names (words that are not keywords,
// outside string literals; export is a keyword: "export type {" names
// nothing) and one of them of two characters or more. Half,
// because a line rewritten keeps most of what it works on; two
// characters, because one-letter names (i, n, b) are in every line; one
// for one, because ten removed lines that each read like one new line (a
// table of similar calls) are a run dropped, not ten rewrites. The pairs
// are a line diff's: a monotone alignment of the removed lines with the
// new lines, pairing as many as it can (and of those alignments, each
// removed line in turn with the new line that reads most like it),
// because a rewrite keeps its lines' order; new lines that read like the
// lines they would drop only crosswise are new code beside them. A line
// inside a block the region drops whole (its opening line read like no
// new line) is not paired with a new line that reads better still, by
// the share of names each holds of the other's both ways, like a removed
// line outside that block: that is the line the new one rewrites, and
// the block's line read like it would hide a block dropped by a
// forgotten marker (a test's body line read like the next test's new
// first line, the next test's old first line left over within the
// budget). A line
// replaced by one line in its place, or sent again with only its
// indentation changed (a case label too, which has no name), is that
// line rewritten. A row of data (literals and punctuation only: - "3.9",
// (100, "1,000"),) has no name, and reads like a new row by its values
// as code does by its names: one with the same literals whatever its
// punctuation or a comment at its end ("3.6", in a flow list and - "3.6"
// in a block list), or one that keeps at least half of them (an
// expected result changed), its identity kept among its siblings as
// below. A removed line that has
// siblings, lines of the file of its shape (the same punctuation, some
// of the same words and some other: a table's rows, tests of the same
// calls, a changelog's headings), is read like only by a new line that
// keeps its identity: the token at which it first differs from each
// sibling (a keyword aside: const for let tells nothing apart), or a
// name that begins or ends with it (d1Edited for d1), or one of three
// characters or more that holds it or that it holds (a name prefixed, a
// name in a template string), or a string of mostly its words, quotes
// and letter case aside. Shape is what every sibling shares, so a new row reading
// like a row it would drop is no evidence that it is that row
// rewritten; a row changed keeps its key. This holds in place too, and
// siblings are sought in the whole file, so no distance is chosen; but
// a line's identity is read against at most the 64 lines of its shape
// nearest it on either side, because on a file that is one long table,
// where every removed row reads like a new row, reading each row
// against all the others costs the square of the file (a table a
// reader compares by eye is shorter). A block's opening line at the
// margin with siblings and an identity (a test, a route; not a
// definition, which the rule for definitions below reads) whose block
// the region changes too, with a new line of its shape in its place that
// does not keep its identity, or keeps it only by extending it ('timeout
// option' to 'timeout option as object', '/413' to '/413withTimestamp'),
// is refused whatever else the region accounts for: a commit adds a test
// copied from the one before it and changed, and a marker forgotten over
// the old one leaves exactly that; a test renamed with its body as it
// was is the test renamed (a copy would be no test). Not within a block
// (a route inside a hook, a catch clause): there lines of one shape are
// control flow that rewrites change (measured: docs/ACCURACY.md, twelfth
// pass). In prose (Markdown, plain text),
// a list item's siblings are the items of its marker (-, *, +, 1.)
// whatever their length, read as words (inline code too): a changelog's
// items share no punctuation but their marker, and each is told apart
// by the word at which it first differs from the others, most often its
// first ("- Windows CI" is not "- Improve CI setup"); an ordered item's
// number is its place, not what tells it apart; and a new item keeps an
// item's identity by half those words, because a list's items are often
// rewritten together (a tag, [ADD] to [NEW], or a verb changed, the
// subject kept). Only a comment reads like
// a comment (a C preprocessor line, #define and its kin, is code, as in
// part 4: "#define bump(c) ..." reads like the function bump it
// replaces), but a line commented out ("// x.List()" for "x.List()") is
// that line kept in sight, and reads like it; a definition (func, def, class, function, a name given an
// arrow function, a named function returned: return function
// textParser(req, res, next) {, as a middleware factory ends; and a
// block a string names, a call of a bare name whose first argument, or
// second after a fixture's name, is a string and whose line opens a
// block of code: a test, it "parses" do, test('parses', () => {,
// TEST_CASE_METHOD(App, "parses") {, @test "parses" {, and its group,
// describe 'JSON' do, whose string tells it from its siblings as a
// function's name does; and in the languages of C's family and Rust,
// whose functions are declared by what they return or by modifiers
// before their name, such a declaration, its body opened on its line or
// not: @Override public Shape scaled(double k) {, static int
// count(char *s), pub fn parse(input: &str) -> Config {, and a macro
// with parameters, #define bump(c), which may take a function's place;
// in Ruby, Python or a shell, "emit format(row)" is a call) reads like
// one of the same name whatever its signature
// (a TypeScript return type added too), and like an import of its name
// (moved to a module of its own: a forgotten marker leaves no import of
// the name it drops, and with both the file would define it twice), and like one of another name (a
// rename) only where its body stays shown and the rest of its line reads
// alike: a function renamed with its body gone is a function deleted; and
// where code the result keeps still calls the old name (a line of the
// file that no region replaces, or a line a region writes), only where
// the rest of its line is unchanged (a function whose name and parameters
// both changed while its callers stay is another function, added beside
// the one a forgotten marker would drop; a caller another region rewrites
// to the new name stays nowhere). A function given to a member
// (this.slugify = function, X.prototype.y = (...) =>) is read as any
// assignment is, but not like a line that calls that member: the call
// needs the function, so it rewrites nothing of it. A
// print or log line reads like no line that works. And the new line must
// stand in the same definition as the removed one (by indentation), in
// one nested in it (a closure), or in a helper that the definition's new
// lines call: code moves into a closure or a helper it calls, not into an
// unrelated new function.
//
// 2. Stood for by a call. A region that the first part does not account
// for is read once more as blocks rewritten as a call (code moved into a
// helper the snippet may not show, a loop replaced by a call): a removed
// line that opens a block (it ends in "{" or ":", strings and a comment at
// its end aside: "else {  /* why */" opens one too) and that no new line
// reads like is accounted for, with its whole block (the lines deeper
// than it, and its closing line, within the region), by a call among the
// snippet's new lines whose arguments name at least half of the values
// the opening line works on (its names and selectors; where they name
// only what a value is a field of, p for p.dirty, the call also passes
// half of the values the block works on and neither declares nor imports),
// or whose name has a part of three characters or more that the line
// names (processItem, for item); where the opening line names only
// one-letter values (for n > 0 {), by a call of a function the file does
// not hold, passed only values the block uses and half of those it uses
// without declaring. The call must stand where the block's code may move,
// as a line read like must in part 1 (its definition, one nested in it, a
// helper it calls): a call in a new method beside it stands for nothing of
// it. A line that names nothing (for {, try {, if err !=
// nil {) is stood for by no call: any call inserted before a forgotten
// marker would do. One call stands for one block, and not for a block
// nested in one that vanishes around it (nor does such a block's opening
// line, read like a new opening line, take the block with it: a test
// dropped whole whose first statement reads like the next test's new
// first line is no rewrite; the nested lines answer for themselves); a
// call that reads like a removed line outside the block stands for no
// block (one that reads
// like a line inside it may: it replaced that line too); a print or log call
// and a definition's line stand for none. An opening line read like a new
// line that opens nothing (a comprehension, a call) takes its block with
// it too, but not a loop's, a function's or a condition's header read
// like a line that calls nothing either (an assignment, a destructuring,
// an argument; for a condition, one that chooses nothing either: no
// conditional or boolean expression, which an if block may become)
// where the region writes no loop: that line does none of the block's
// work; one read like a new opening
// line keeps its block only where the
// snippet shows that line's block, and only where that block is about its
// size: the removed block's lines with a name that no new line reads like
// number at most the new block's lines with a name, and two more (the
// budget of part 3). A block of six lines "rewritten" as one of two
// under a first line that reads alike is another block, as repetitive
// code has them (a test beside the one a forgotten marker dropped); that
// new line may still stand for the block as a call (if err :=
// check(typ, allow); err != nil {). A header whose brace stood alone on
// the next line, read like a new line that opens nothing and is no
// statement (no ";": the header sent without its brace, if (...) or a
// function's first line), keeps no block: its block is dropped, not
// rewritten; and one at the margin is a C function's (or type's) first
// line, a definition's, which no call stands for. Nor does an opening
// line take its block through a new line that reads better still (by
// the share of names each holds of the other's, both ways) like a
// removed line outside its statement (else, elif, except, finally and
// catch continue a statement), where the block holds more lines with a
// name that nothing reads like than the budget of part 3: the new line
// is that other line rewritten (the line after an if block), and the
// block is gone with nothing in its place, as a forgotten marker leaves
// it; a guard of a line or two dropped beside a rewritten line is a
// rewrite's.
//
// 3. Few left over. At most two removed lines with a name may stay
// accounted for by neither part (in the second, also those outside the
// run from the first line accounted for to the last). Two, because a
// rewrite changes a line or two beyond recognition, or deletes a line or
// two outright, and a marker stands for code the model did not want to
// write out, which is more than that. Measured on real commits no one
// here tuned on: with one, 3% of their rewrites and deletions are
// refused; with three, markers forgotten over three lines land. But a
// region that shows no new line between its anchors says only that the
// lines between them go, and there one run of up to three lines with no
// blank line among them may go (a comment, a statement, three requires
// no line uses): a deletion that small is what a commit makes, and the
// blank line is where a reader sees one thing end and the next begin, so
// lines set apart by blank lines (a list of calls, a banner and the next
// function's comment), or four and more, are what a marker elides
// (docs/ACCURACY.md, eighteenth pass: three lines across blank lines
// landed markers forgotten over them). Lines
// without a name (a brace, return nil, else:) say nothing either way and
// never count; but a case label (case 0x01:, case "get":) counts, its
// value being what it is about as a name is (a switch's labels dropped
// are a table's rows gone), and so does a row of data (a CI matrix's
// versions, a test table's tuples: a marker forgotten over them drops
// what the table is about; ": null", a ternary's last line, is no row,
// as true, null and their kin make none alone), and in prose every word counts, a version
// number too ("0.5.0 (2017-02-06)" names its changelog section), and so
// does a code fence ("```" alone): an example dropped goes with its two
// fences, which a rewrite of the prose around it keeps. A comment line
// is prose in code and counts as prose does, every word ("@return
// false", "Returns false." and "@param file the file" are a doc comment
// dropped whole, where only two of them name anything: measured, four
// of 64 WRONG on eight families caught and no landing lost,
// docs/ACCURACY.md, twenty-fifth pass). Lines of a comment or a
// docstring count even rewritten between delimiters the region shows:
// a marker forgotten among prose a commit edits leaves exactly that shape (new sentences between the same
// block's lines, old ones gone), and letting it pass landed more such
// markers than rewrites (docs/ACCURACY.md, eighth pass). A removed
// definition that no new line reads like is refused whatever the budget
// (a function dropped is what a forgotten marker drops), unless it is
// gone whole, its block removed with it, and no other line of the file
// uses its name: a dead helper deleted, whose lines then count against
// the budget like any others (a helper the file still calls, or one
// whose callers the region rewrites, stays refused). In prose a heading
// is what a definition is in code: a Markdown heading ("#" to "######",
// or a line underlined with "=" or "-"; outside code fences) that no new
// line reads like, nor shares half its words with (made a paragraph;
// words with a letter, as the next version's heading shares a version's
// and a date's numbers: "0.4.3 / 2011-12-04" is not kept by "0.4.2 /
// 2011-11-24"), is
// refused whatever the budget, unless its section goes whole (every line
// to the next heading of its level or above is removed too) or the
// region writes as many new headings of its level as it removes: a
// heading gone while its section's text stays, now under the heading
// before it, is what a marker forgotten across a changelog's versions
// leaves. A heading that begins with a version number (1.9.2 /
// 2014-10-27, v2.1.4) is a released version's notes, history that
// commits keep: its section gone whole is refused too.
//
// 4. Structure. Whatever is accounted for: the lines the snippet removes
// and the lines it puts in their place open as many brackets as they
// close, over all its regions (code that parses opens as many as it
// closes; a C preprocessor line, #define and its kin, is code there though
// it begins as a Python comment does; not in prose files, where a
// Markdown code fence pairs instead),
// and as many block comments, over all its regions too ("/*" that a line leaves
// open, "*/" that ends one the line did not begin; not in prose): a
// marker forgotten from inside a doc comment down to the code under it
// drops the comment's end with that code, and the lines after its kept
// beginning would turn into comment; nor may a region remove a block
// comment's end and then, past code it removes too, another comment's
// beginning, unless its new lines also end a comment and begin another:
// balanced, but what stays of the two comments reads as one (the first's
// head over the second's tail), which is what a marker forgotten from
// one doc comment to the next leaves, and no rewrite writes;
// a removed line that opens a block may not leave the block's body past
// the region where it is (a line stacked on an opening line that stays,
// case 4: under case 13:, leaves the body under that one), unless it
// reads like a new opening line or, for
// one such line, the region's last new line opens a block that reads like
// no other removed opening line and takes the body over, or the region
// ends inside such a new block (its last new lines deeper than that
// block's opening line: the body's new first lines, a guard put first in
// a loop whose header is rewritten) and its new lines name every name of
// the removed line that the body uses (a body re-parented without the
// loop variable it reads is a loop a forgotten marker dropped, with new
// code before it), or the removed line goes on a statement ("} else {",
// "else:", "except ...:") whose opening line and every line from it on
// the region removes too, and the region's last new line opens a block
// that reads like that opening line: a branch dropped and the condition
// rewritten ("if !ok { a } else { b }" as "if ok { b }"), the statement
// one block now, its last branch's body under its new line; a new
// definition may not take over a line the region keeps from a definition whose opening line it keeps (by indentation,
// the line stood in that one and stands in the new one, which is not
// nested in it; the lines past the region are read too): a test inserted
// after the previous test's docstring, with the marker for that test's
// body forgotten, re-parents the body, and a rewrite that keeps a
// definition keeps its body in it; a block may not
// vanish with new lines in its place none of which reads like a line of
// its gap or opens a block (new code inserted, and a marker forgotten for
// the block after it); and a removed declaration (a, b :=, var, let,
// const) that no new line reads like may not be of a name that the
// region's lines or the snippet's new lines still use in its scope and
// that no other line declares (code that still needs the value is no
// rewrite of the line that made it); nor may a run of removed lines (file
// lines no new line keeps, between two kept ones, in any region) hold two
// lines or more that bind names at the top level (an import, a
// declaration at the margin, a Python module's "NAME = value") which the
// file still needs (no kept or new line binds the name again, and a kept
// or new line uses it, not as a member after "."), with a blank line
// between code lines of the run: one import dropped while its uses stay
// is how a change in steps begins, and an import list shown with entries
// missing is the model's own writing, but two bindings the file needs,
// gone with the blank line that parted their groups (imports from the
// module's constants, one import group from the next), are a stretch of
// the file's head lost to a missing marker.
//
// A snippet that removes nothing is held to part 4's brackets too, read
// by whole lines: a line whose code ends opening a block with "{" (a Rust
// attribute, #[...], is code there, not a comment) and one whose code
// begins closing one with "}" pair over its new lines, because a test
// inserted with its closing brace behind a forgotten marker removes
// nothing and leaves the next test inside it; whole lines, because
// insertions are most of what snippets send, and brackets counted inside
// lines misread what this package does not parse (a regular expression's
// quotes, a doc comment's {@link}). Measured: docs/ACCURACY.md,
// twenty-third pass.
//
// A refusal's Reason says which part refused: DeletesUnlike (parts 1 to
// 3, a definition gone, a declaration still used), CutsBlock,
// UnpairedBrackets.
//
// A region that lands may still have removed lines with a name that
// nothing in the snippet accounts for: part 3's few, and those left over
// by part 2's blocks. Its change names them (Dropped, the file's lines
// as they were: "7, 9-10"), and edit_file's result warns of them: such a
// deletion is what a rewrite makes, and what a marker forgotten over a
// line or two leaves too, which no rule here tells apart. The caller,
// who knows what it meant, reads which lines went. Measured on every
// corpus (docs/ACCURACY.md, nineteenth pass): 72 of the 98 snippets that
// land WRONG carry the warning, and 15% of those that land right.
//
// # The ends of the snippet
//
// Without a marker at its start, a snippet begins where the file begins:
// its first region replaces from line 1. Where its first lines stand only
// shifted, further down (a changed first key that a nested block repeats),
// and its last lines stand nowhere after them, that place is no reading:
// the region is read without a head, its last lines placing its end. Where its first lines stand
// further down (found exactly), the file's lines before them are lines
// the region removes, under the deletion rule, as between any region's
// anchors: a change that drops a file's first import is sent so. But at
// most two of them, blank lines aside, whether or not they have a name:
// between two anchors the lines removed are bounded on both sides, at
// the file's edge only by the edge, so more lines there read as a marker
// forgotten before the first lines as well as a deletion (a module's
// docstring dropped), and graft does not pick. Where they are more, or
// the rule refuses them, the snippet is refused as not reaching the
// file's start (NotAtEdge). The same holds at the end. A snippet without any marker is a whole-file write, which the tool
// allows only for a new file or with overwrite.
package snippet
