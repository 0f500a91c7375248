// Package symbol edits a declaration named by its path in a file's
// outline (package apply/outline): file_outline's names, edit_symbol and
// multi_edit's symbol edits.
//
// [Resolve] finds the one declaration a name path names (a line picks
// among legal duplicates) or refuses with the candidates; [Changes] turns
// replace, insert_before, insert_after or delete into located changes of
// internal/textedit, line ranges through package apply/lineedit (spans
// with their decorators and comment block, content re-indented to the
// symbol's, insertions separated as the file separates a pair of
// declarations like the new one and the symbol, see separation and
// docs/SYMBOLS.md), or for JSON, YAML and TOML keys the value and the
// separators around it (config.go). Like every format it builds no file
// content: the engine's transaction lands the changes.
package symbol
