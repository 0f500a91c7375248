// Package syntax tells whether an edit adds a syntax error to a file.
//
// [Check] takes a path and the file's content before and after an edit
// (before is nil for a new file) and reports the syntax errors that after
// has and before did not, each with a 1-based line and column, a short
// message and a snippet of the offending lines with a caret. It is a pure
// function: no I/O, no state between calls, safe for concurrent use. The
// engine calls it for every touched file before a call lands and refuses
// the call (code -32013) when an error was added ([Report.Refuses]), or
// attaches the report under --check=warn. Some added errors only warn: in a
// file that did not parse before, and where the language's compiler may
// accept what the grammar cannot read (see "What a compiler may accept").
//
// # Languages and checkers
//
// The language comes from the file name ([Detect]): its base name
// (Gemfile, Cargo.lock), its extension, or for a file without one, its #!
// line. [Languages] lists them with the checker this build uses.
//
// Built with cgo, every language is parsed by tree-sitter through the
// official Go binding (github.com/tree-sitter/go-tree-sitter) and a grammar
// module per language: Go, Python, JavaScript, TypeScript, TSX, Rust, Java,
// C, C++ (which also takes .h), Ruby, Bash, JSON, YAML and TOML; zsh goes to
// mvdan.cc/sh, which has a zsh mode. Errors are tree-sitter's ERROR nodes
// (reported at their start, as `unexpected "tok" in <construct>`) and
// MISSING nodes (`missing "}"`), and in Python a block header without a
// body ("if x:" followed by a line no deeper, or by comments only), which
// CPython refuses and the grammar reads as an empty block without an
// error: the text is scanned for such headers and the tree asked only
// there. Every parser, tree and cursor is closed
// before Check returns; nothing relies on finalizers. Tree-sitter's
// allocator is pointed at libc's malloc and free on first use, instead of
// go-tree-sitter's default of a Go callback per allocation.
//
// Built without cgo, the pure-Go parsers check what they can: go/parser for
// Go, encoding/json for JSON (comments allowed, as tree-sitter's grammar
// allows them), go.yaml.in/yaml/v3 for YAML (every document; it gives the
// line where the construct holding the error starts), BurntSushi/toml for
// TOML, and mvdan.cc/sh for Bash and zsh. Python, JavaScript, TypeScript,
// TSX, Rust, Java, C, C++ and Ruby are then detected but unchecked: the
// Report says Checked false and why, and the edit is not held up. The
// pure-Go parsers other than go/parser stop at their first error.
//
// # What counts as added
//
// Both contents are compared where they differ: the longest common prefix
// and suffix leave one changed span (several hunks in one file make one
// span from the first to the last).
//
// First, a window: the smallest run of whole lines around the span that
// starts and ends at top-level boundaries, a line in column 0 that follows
// a blank line and does not continue a construct (not "}", "else", "end",
// "fi", ...), or the start or end of the file; TOML windows start only at a
// table header. In Go, Python, JavaScript, TypeScript and Rust a line in
// column 0 that starts a declaration by its first words ("func ", "def ",
// "export ", "fn ", ...) is a boundary without the blank line, so that
// generated files, which write one declaration after another, get windows
// too. The window is parsed on its own (go/parser gets a package
// clause put before it), before and after the edit. Clean in both: nothing was added, and the rest of the file, which
// the edit did not touch, is not parsed at all. This is what makes a check
// on a large file cost about as much as on a small one.
//
// Otherwise whole files are parsed (tree-sitter reuses the tree of after
// to parse before incrementally; a clean after ends the check at once) and
// the errors of after are matched to those of before:
//
//  1. same kind at the same position carried through the change (text
//     before the span keeps its offset; text after it shifts by the span's
//     growth), unless the old error ended before the span and the new one
//     reaches past it (error recovery swallowed the edit);
//  2. same kind, where the old one was inside the changed span (broken
//     text edited and still broken the same way);
//  3. any kind, for a new error inside the span, against an old one inside
//     it (broken text rewritten and still broken, not more so).
//
// Each old error accounts for one new error at most; whatever is left was
// added. When the window was clean before and is not after, and whole files
// confirm damage (an added error, an error covering the edit, or a parser
// that stopped at an older error before reaching the edit), the window's
// own errors are reported, because they sit where the edit is. When whole
// files show nothing added and no error near the edit, the window misled
// (it was cut inside a string or a nested block) and the edit is accepted.
//
// An error counts as added only where before's parse of the same region
// was clean: when the window was clean but every error it shows after the
// edit is one the parser already reports elsewhere in before, with the
// same message (an idiom this parser cannot read, such as a C header's
// calling-convention macros), the file is treated as not parsing before:
// the errors are reported and only warn. A lone "&" in JSX text, which
// TypeScript and Babel read as text, is not an error.
//
// A tree-sitter ERROR spanning three lines or more is reported at the edit,
// with its span in the message: recovery often starts such a node lines
// above the text that broke it.
//
// # What a compiler may accept
//
// The checker reads a file as its grammar does; the compiler reads more.
// In C and C++ the preprocessor runs first, so a name the grammar cannot
// place (void (SQLITE_CDECL *xLog)(int, const char*); int APIENTRY
// glFlush(void); Q_OBJECT in a class) may be a macro that expands to
// nothing, or to whatever makes the line valid. A check that cannot run
// the preprocessor refuses only what no macro and no choice of the
// preprocessor's conditionals could make valid, which it tells by three
// tests:
//
//  1. Balance. The edit changed, over the whole file, the count of (), []
//     or {} outside comments, literals and preprocessor lines (in each
//     #if chain only the first branch counts, as each branch often opens
//     its own brace), the count of string and character literals a line
//     break cuts, or whether a comment is left open at the end. No macro
//     changes these: the preprocessor works on tokens the lexer has
//     already cut, and a macro's body stands on its #define line.
//  2. Words. The added errors stay when the words at their sites are
//     dropped, each taken for a macro that may expand to nothing: every
//     identifier-shaped word that is not a C or C++ keyword, and such a
//     word together with the parenthesised list after it (a macro called
//     with arguments, as G_DEFINE_TYPE(Foo, foo, G_TYPE_OBJECT) or
//     DECLARE_DYNAMIC(View)). An error's site is its own lines and one
//     line on each side.
//  3. Directives. The added errors stay however the preprocessor's
//     directives are taken out. The grammar reads a directive line only
//     where a declaration or a statement may stand, while the
//     preprocessor takes it out wherever it stands: an #ifdef around one
//     row of a table or one enum member, an #if whose two branches each
//     open the block one "}" closes, an extern "C" { under #ifdef
//     __cplusplus, an #include inside an initializer (an X-macro list),
//     #embed. So before and after are read again, alike, as builds may
//     leave them: the directive lines of every #if chain blanked (offsets
//     kept), and each chain reduced to one branch, its k-th in the k-th
//     reading (its last where it has fewer; at most 4 readings). A chain
//     without #else keeps its one branch in every reading, so its code is
//     always read (broken code under #ifdef X is refused, as a build with
//     X refuses it); #if 0 is never read, nor are #if 1's alternatives,
//     in any build; and a chain one of whose branches holds the whole
//     edit keeps that branch in every reading, as a build that compiles
//     the edit does. The other directive lines are blanked too: the
//     file's own (an error one has is old), and those the edit wrote
//     where they parse on their own (a malformed #include stays to be
//     reported). Every line of the edit that some build compiles must
//     stand in a reading (a fifth branch, or a branch nested where no
//     reading takes it, leaves the errors refusing), and test 2 runs on
//     each reading. When no reading leaves an added error that test 2
//     does not account for, the errors only warn, with
//     Report.Conditionals set. Chains that do not nest (an #endif with no
//     #if, an #if left open, an #elif after #else) and an #if without a
//     condition leave no reading. The same readings settle a file that
//     did not parse before the edit only because of its directives: when
//     every reading of before parses, the errors a reading of after adds
//     (a row missing its comma beside the table's #ifdef rows) are the
//     edit's own, and refuse. Where the window around the edit did not
//     parse before the edit, the readings come first, before whole files
//     are compared: where every reading's window parses before the edit
//     (and, below MaxWholeFile, every reading of before that must confirm
//     an error the window shows parses whole), the readings decide
//     (errors they add refuse, errors test 2 accounts for warn, and none
//     is no error), and whole files are compared, as for any language,
//     only when they cannot; test 2's trials on such a reading, its
//     error confirmed, read the window only. A C file whose table rows
//     stand under #ifdef parses whole only through error recovery, which
//     costs a tenth of a second at 170 KB; its readings' windows cost a
//     few milliseconds. Past MaxWholeFile,
//     where whole files are never compared, such a file was reported
//     unchecked before the readings.
//
// An edit that fails test 1 refuses at once. Otherwise a search looks for
// a witness for test 2: the file with some words blanked out (offsets
// kept) and no added error left. It drops one word at a time at the site
// of the first error left, words named as macros are (no lower-case
// letter, or a leading "__") before the rest and nearest first, and keeps
// a drop when fewer errors are left or the first one has moved on. With
// a witness the errors are reported, the dropped words in
// Report.UnknownWords, and only warn; without one they refuse. The search
// is greedy and bounded (at most 32 parses and 16 MiB parsed), so it may
// refuse what another choice of words would have mended, never the
// reverse. It takes the grammar's word for what parses, so it also warns,
// rather than refuses, where a lower-case name could be a macro even if
// it is not one (x = a b; parses if a expands to nothing).
//
// The same holds where a grammar lags its compiler. Languages grow by
// allowing a modifier word where it did not stand before, and a grammar
// written earlier reads the construct only without it. In TypeScript
// (override; in and out on a type parameter; accessor on a field; type in
// export type * from) and Rust (safe in an unsafe extern block) test 2
// runs with those words only: an error that vanishes when they are
// dropped only warns. The older modifiers (public, static, readonly,
// async) stand where every grammar reads them, so an error at one is a
// mistake and refuses. What the compiler itself rejects stays refused:
// a generator overload signature (export function* f(a: A): B; before the
// implementation) is tsc's error TS1222, "An overload signature cannot be
// declared as a generator".
//
// # Limits
//
// Test 3 reads every chain alike, all first branches, all second ones and
// so on: code valid only when one chain takes its first branch and another
// its second (an #ifdef A chain and a later #ifndef A chain, each with an
// #else, whose branches open and close a block crosswise) is refused. GNU C's case ranges (case 1 ... 5:) and Qt's signals: section
// (a macro for an access specifier) are refused: no word dropped makes
// them parse.
//
// Windows are bounded by lines, not by brackets: past MaxWholeFile, where
// the window decides alone, a window may begin inside an initializer
// thousands of lines long (SQLite's table of system calls, with comments
// and #define lines at the margin between its rows), where its rows read
// as code out of place; a reading's window then does not parse before the
// edit, and a valid #if chain added among those rows is refused (one of
// the 14 valid chains the amalgamation's check still refuses,
// docs/ACCURACY.md; in another, of a function's body, the readings of
// before do not parse in the window either).
//
// An edit inside the same construct as an old error can go unnoticed when
// recovery already wraps that whole construct in one ERROR (tree-sitter's
// Ruby and YAML grammars do this for a whole module or document); so can
// an edit after the first old error of a parser that stops there, when no
// window isolates the edit from it. Content over [MaxSize] is not checked.
// The check is syntax only: no types, no names, no imports.
package syntax
