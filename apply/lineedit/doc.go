// Package lineedit reads a file's text by lines and makes the changes
// that replace or insert whole lines: the one line-range change of
// edit_lines, replace_in_file's lines and inserts, and symbol edits
// (package apply/symbol).
//
// A [File] is a text's line index (internal/lineindex) with its
// indentation style read once. [Range] replaces or deletes lines and
// [InsertAfter] inserts them; both return internal/textedit's one change
// value, new lines taking the line ending of their place (textedit.EOL).
// A line is its text and its own ending, and a line change touches only
// the lines it names: deleting the last lines of a file without a final
// newline removes exactly their bytes.
//
// [Plan] re-indents new lines where their base indentation is plainly off
// for where they land (indent.go says how that is decided), in the file's
// own style.
package lineedit
