// Package patch reads patches as agents and people write them and works out
// what they do to files, locating every hunk by its context through the
// matcher, as an edit's old text is located. It is pure: it reads files
// through a Source and returns, for every path, the located hunks as byte
// edits (Change.Steps), which package apply lands as its Hunk values in the
// same transaction as every other edit, and the content they leave;
// writing is the caller's business (package apply's apply_patch tool,
// `graft patch`).
//
// # Formats
//
// Parse detects the format; it is never declared:
//
//   - git and plain unified diffs: several files, created, deleted, renamed
//     and copied files, mode changes, and binary patches from
//     `git diff --binary` (literal and delta);
//   - the envelope Codex's apply_patch writes: *** Begin Patch,
//     *** Add File / *** Delete File / *** Update File (+ *** Move to),
//     "@@ anchor" lines, *** End of File, *** End Patch; a file header
//     may be indented (after an update's chunks, indented as that
//     update's header was);
//   - Aider's SEARCH/REPLACE blocks, each after a line naming the file,
//     with or without a markdown fence around it; a block after a line
//     that cannot be a path (prose, "...") keeps the previous block's
//     file, unless a path stands just above that line (ambiguous: refused);
//     a backslash in that path separates directories, as Aider writes them
//     on Windows (a file whose name holds one is still found by it).
//
// Markdown fences, prose and commit messages around a patch are ignored.
//
// # Normalisation
//
// go-gitdiff's parser silently drops lines when a hunk header undercounts
// and reads "@@ @@" as no change, so hunks are read here, and go-gitdiff
// only reads git's extended headers and binary data:
//
//   - A hunk's body is every following line that can belong to a hunk
//     (" ", "-", "+", "\ No newline", or an empty line, which is an empty
//     context line whose space was stripped). The header's counts decide
//     where the hunk ends only when the lines past them are blank or an
//     e-mail signature ("-- "); otherwise the body decides and the header
//     is recounted. Trailing blank lines of a recounted hunk are dropped.
//   - A header without numbers ("@@ @@", "@@ func f()") gives a hunk with
//     no stated position; numbers beyond 2^30 are malformed.
//   - a/ and b/ prefixes are removed when both names carry them (or one
//     side is /dev/null); a git header written without them is read as
//     such. The name as written is kept as an alternative: when the chosen
//     path does not exist and exactly one alternative does, that is used.
//   - Hunk lines keep their own line endings (a patch may be CRLF).
//
// A patch that names no change (no hunks, a hunk without + or - lines, a
// SEARCH/REPLACE reply whose every block has identical sides) is
// malformed, never a silent no-op. One block whose sides are identical
// among blocks that change is located like them and reported unchanged
// (Hunk.Unchanged), as a string edit whose old and new text are the same
// is: models repeat a block they leave as it is.
//
// A section that creates a file which exists and is empty writes into it:
// there is nothing in it to lose. A file with content is refused.
//
// # Location
//
// Each hunk's old side (context and removed lines) is looked for in turn:
//
//  1. exactly at the stated line (line endings aside);
//  2. by matcher.Find, as the equivalent string edit (old side → new side)
//     is, whole lines only: the exact tier, where a single occurrence lands
//     ("offset N") and several are refused as ambiguous, listing the places
//     (the stated line being one of them is case 1, which is not a guess);
//     then the fuzzy tiers (trailing whitespace, indentation and mixed
//     tabs, typography...) under the matcher's own guards and refusal
//     rules: a unique candidate only, never a line that differs in
//     substance; the stated line is only the matcher's hint. When no whole
//     lines fit, the old side is searched exactly as an edit's old text
//     would be, so that a first blank line that is the line break before
//     the block (found where the edit finds it) still lands. The match
//     must be whole lines, as many as the hunk's old side; blank old lines
//     at its ends that the matcher's stray-blank-lines tier left out are
//     dropped from the hunk.
//
// Hunks of one unified diff or Codex section refer to the file before the
// patch. They are taken in the order of their stated lines (patch order
// when any has none), and each is searched first after the lines the
// previous one took: that is how a diff reads. A hunk whose lines are not
// there (listed out of order, or with numbers that put it after a later
// one) is then searched in the whole file, as git apply and an edit find
// it: it lands only where it stands once in the whole file, and never on
// lines another hunk took, so hunks cannot overlap. A Codex "@@ anchor"
// moves the search past the first line equal to the anchor (exactly, else
// with surrounding blanks ignored); "*** End of File" requires the hunk to
// end the file. SEARCH/REPLACE blocks instead apply one after the other,
// each to the result of the ones before, searching the whole file, as
// Aider applies them.
//
// A hunk that only adds lines, with no context, is placed only in an empty
// file or at the end of the file: by "*** End of File", or because it is
// a Codex chunk without context or anchor, which Codex's format adds at
// the end (the parser states that position; the engine places it).
// Elsewhere nothing confirms its place, so it is refused: a unified diff's
// hunk, which only its line numbers place (git apply refuses it too
// without --unidiff-zero, unless it ends the file), and a Codex chunk
// under an "@@ anchor", which names a place it does not confirm.
//
// # Bytes
//
// A located hunk is an Edit: its block's bytes replaced by the context
// lines, copied from the file byte for byte (its text is kept, not the
// patch's, which may differ by trailing blanks or indentation in a fuzzy
// tier), and the added lines. Added lines keep the patch's line endings
// when every old line of the hunk matched the file's ending exactly (a
// patch may convert endings on purpose); otherwise they take the ending of
// the file lines around them, so an LF patch lands in a CRLF file as CRLF.
// "\ No newline at end of file" is honoured for added lines; a line left
// without an ending gets one when anything follows it. A fuzzy tier's
// re-indentation and retyping reach added lines through Match.AdaptKept
// (the hunk's context lines name the old lines kept, so an added line is
// read against the removed lines it stands among, as an edit's changed
// line is), never another line's bytes. A SEARCH/REPLACE block has
// no context lines: it is a string edit, its REPLACE text adapted by
// Match.Adapt as an edit's new text is. Everything outside the hunks is
// left as it is.
//
// # What it does not do
//
// It does not write files, take locks, check paths against a worktree,
// or keep a journal; it does not read context diffs (diff -c), ed scripts
// or combined merge diffs; it never applies a hunk at a place its lines do
// not confirm, and it has no matcher, line index or line diff of its own.
package patch
