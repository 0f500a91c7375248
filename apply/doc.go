// Package apply is graft's engine: it turns a tool call into byte changes
// of files and lands them all or none. The CLI (`graft call`, `graft
// edit`, ...) and the MCP server are thin faces over it; both run the same
// registry of tools ([Tools]) through [Engine.Call].
//
// # The path of a call
//
// A call goes through the same five steps whatever its format. Steps 3 to
// 5 are one code path for every format: the formats differ only in how
// they read the request (step 2) and locate it (step 3), and each hands
// the transaction the same value.
//
//  1. Request. [Engine.Call] finds the tool and decodes its JSON arguments
//     strictly (decode.go): an unknown field names the fields the tool
//     takes and the near spelling, a wrong type names the field, and a
//     missing required field is named after any unknown one. Nothing is
//     read before the request is whole. A call that writes runs under the
//     repository's lock from its first read to its write (Engine.locked).
//
//  2. Files. The tool opens each file it names once per call through the
//     transaction (tx.go, Tx.Open): the path is checked first (inside the
//     worktree, not in the git directory, not in another repository),
//     then size, type and binary content. Every format then reads the
//     file's text, not its bytes (TxFile.Text): the text view of
//     internal/textedit, which today leaves a UTF-8 byte order mark out
//     (it belongs to the file, not to line 1) and is where a later view
//     (an encoding, a notebook's cells) maps text back to bytes.
//
//  3. Located changes. Every format turns its operations into
//     internal/textedit.Change values of that text: replace [Start, End)
//     by New, with where and how it was located (line, end line, method or
//     tier, similarity). The formats, and where each is located:
//     - string edits (edit, edit_text_file, multi_edit, replace_in_file's
//     string type): the old text through package matcher (exact, then
//     the fuzzy tiers and their guards; see `go doc ./matcher`), the new
//     text as the match adapts it (indentation, line endings,
//     typography) — stringChanges in tools_edit.go;
//     - line ranges (edit_lines, replace_in_file's lines and inserts):
//     by number through package apply/lineedit, new lines re-indented
//     where plainly off; replace_in_file's regex type by RE2;
//     - a patch (apply_patch; unified diffs, Codex envelopes,
//     SEARCH/REPLACE blocks): package apply/patch locates each hunk's
//     context and removed lines at its stated line, else through the
//     matcher exactly as the equivalent string edit;
//     - a snippet (edit_file): package apply/snippet anchors each region by
//     its first and last lines through the matcher and checks what the
//     region may delete;
//     - a symbol (edit_symbol, multi_edit's symbol edits): package
//     apply/symbol finds the declaration in the file's outline and makes
//     line-range changes through apply/lineedit.
//     New text takes the line ending of the place it lands: the one policy,
//     textedit.EOL. No format builds file content; a refusal is the one
//     error value (textedit.Error, [Error] here) with the nearest
//     candidates where a text was not found or stood several times.
//
//  4. Transaction. TxFile.Step takes one step's changes: it checks them
//     together (inside the text; overlapping operations are refused,
//     naming both; every line number of a step refers to the text as the
//     step began), maps them from text to bytes through the view, and
//     composes them with the file's earlier steps (textedit.Compose), so
//     that a file always holds one set of changes against its bytes when
//     the call began. Most calls make one step per file; multi_edit's
//     edits to one file, SEARCH/REPLACE blocks and a file a patch names
//     twice make several, each seeing what the ones before left. Only a
//     file the call creates, deletes or fills from another (a patch's
//     rename or copy, binary data) holds a whole content
//     (TxFile.SetContent). [Tx.Land] then refuses a call that changes
//     nothing, changes a read-only file or passes a limit (files, bytes
//     per call), runs the syntax check (package apply/syntax: an edit that
//     adds a syntax error to a file that parsed is refused under
//     --check=reject), computes each file's diff from its changes (a
//     window around them, so the cost follows the change, not the file),
//     and hands the contents to package gitstore, which writes them all or
//     none (crash-safe, under the repository lock) and records the call as
//     a journal commit. When a file changed since the call read it
//     (another process, an editor), the engine re-runs the call under the
//     lock on the current content (string edits located again, line
//     numbers carried through the change); only an edit whose own text or
//     lines changed is a conflict. Lines appended to a file meanwhile (a
//     logger) do not make it run again: the store carries them onto the
//     new content, also when they arrive just before its rename; any other
//     write that late makes the store put the files back and the call run
//     again (gitstore/late.go).
//
//  5. Result. A [Landing]: per file its path, unified diff, line range,
//     counts, and each operation's Location; the batch members that
//     changed nothing; the journal commit. A refusal is an [*Error]
//     carrying a code ([Code]); [CodeOf] is the one mapping of every error
//     (the formats', the matcher's, the repository's, the file system's)
//     to its code, from which the CLI's exit codes and the MCP server's
//     JSON-RPC codes follow.
//
// Nothing on disk changes before step 4 succeeds, and a refused call leaves
// every file as it was.
//
// Undo and redo are journal operations, not formats: they reverse (or
// replay) recorded journal commits with git's three-way merge on the files
// as they are now (package gitstore), so later changes by others survive
// and a change to the same lines is a conflict. They locate nothing and
// add no text of their own — they restore what the journal recorded — so
// they do not go through steps 3 and 4: no syntax check (the content was
// checked when it landed) and no call limits beyond those the reversed
// call met when it landed. They hold the same lock and write through the
// same crash-safe store.
//
// Every step that reads a content by lines (the engine's line edits and
// diffs, the matcher's fuzzy tiers, snippet planning, symbol outlines,
// syntax diagnostics, patch hunks) reads them through one index,
// internal/lineindex: lazy where a call may touch only the top of a big
// file, eager where the matcher compares every line; the indentation unit
// comes from internal/indent.
package apply
