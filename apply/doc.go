// Package apply is graft's engine: it turns a tool call into byte changes
// of files and lands them all or none. The CLI (`graft call`, `graft
// edit`, ...) and the MCP server are thin faces over it; both run the same
// registry of tools ([Tools]) through [Engine.Call].
//
// # The path of a call
//
// A call goes through the same five steps whatever its format.
//
//  1. Request. [Engine.Call] finds the tool and decodes its JSON arguments
//     strictly (decode.go): an unknown field names the fields the tool
//     takes and the near spelling, a wrong type names the field, and a
//     missing required field is named after any unknown one. Nothing is
//     read before the request is whole.
//
//  2. Operations. The tool reads its request as operations on files:
//     string replacements (edit, edit_text_file, multi_edit,
//     replace_in_file's string type), line ranges (edit_lines,
//     replace_in_file's lines and inserts), a regular expression, a
//     snippet's regions (edit_file, via package snippet), a patch's hunks
//     (apply_patch, via package patch), a journal entry reversed (undo).
//     Each file is opened once per call through the transaction ([Tx.Open]):
//     the path is checked first (inside the worktree, not in the git
//     directory, not in another repository), then size, type and binary
//     content.
//
//  3. Hunks. Every operation becomes [Hunk] values: replace the bytes
//     [Start, End) of the file as it was when the call began with New. A
//     string edit locates its old text through package matcher (exact, then
//     the fuzzy tiers and their guards; see `go doc ./matcher`) and writes
//     its new text as the match adapts it (the file's indentation, line
//     endings and typography); a line edit takes its range from the line
//     index and re-indents its new lines (indent.go); a patch's hunk and a
//     snippet's region are located the same way as a string edit's old text.
//     All hunks of a file are checked together before a byte is produced:
//     overlapping operations are refused, naming both, and every line
//     number refers to the file as the call began (no line shifting). The
//     one exception is multi_edit, whose edits to one file apply in order,
//     each to the result of the one before.
//
//  4. Transaction. [Tx.Land] builds each file's new content in one pass
//     over its hunks, refuses a call that changes nothing, changes a
//     read-only file or passes a limit (files, bytes per call), runs the
//     syntax check (package syntax: an edit that adds a syntax error to a
//     file that parsed is refused under --check=reject), computes the diffs,
//     and hands the changes to package gitstore, which writes them all or
//     none (crash-safe, under the repository lock) and records the call as a
//     journal commit. When a file changed since the call read it (another
//     process, an editor), the engine re-runs the call under the lock on the
//     current content (string edits located again, line numbers carried
//     through the change); only an edit whose own text or lines changed is a
//     conflict. Lines appended to a file meanwhile (a logger) do not make it
//     run again: the store carries them onto the new content, also when they
//     arrive just before its rename; any other write that late makes the
//     store put the files back and the call run again (gitstore/late.go).
//
//  5. Result. A [Landing]: per file its path, unified diff, line range,
//     counts, and how each hunk was located (exact, lines, or the fuzzy tier
//     with its similarity); the batch members that changed nothing; the
//     journal commit. A refusal is an [*Error] carrying a code ([Code]: the
//     JSON-RPC style codes, mapped to exit codes in one place by the CLI),
//     the file and the operation it concerns, and for a text that was not
//     found or stood several times the nearest candidates with their line
//     numbers and the file's actual text.
//
// Nothing on disk changes before step 4 succeeds, and a refused call leaves
// every file as it was.
//
// Every step that reads a content by lines (the engine's line edits and
// diffs, the matcher's fuzzy tiers, snippet planning, symbol outlines,
// syntax diagnostics) reads them through one index,
// internal/lineindex: lazy where a call may touch only the top of a big
// file, eager where the matcher compares every line; the indentation unit
// comes from internal/indent.
package apply
