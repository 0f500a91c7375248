// Package textedit holds the one value every input format of graft becomes,
// and what every format shares around it.
//
// A string edit, a line range, a patch's hunk, a snippet's region and a
// symbol edit are each located by their own reading of the request, and
// each ends as [Change] values: replace the bytes [Start, End) of the text
// the step began with by New, plus where and how the change was located
// ([Location]). Nothing else travels from a format to the transaction:
// no format builds a file's content, and no format has its own change
// type, splice, line-ending rule or error type. Concretely:
//
//   - [Splice] and [Parts] are the one way changes become content;
//     [Check] validates a step's changes together (inside the text, no
//     overlap) and [Compose] turns a step made on the result of earlier
//     steps into changes of the text the call began with, so that a file
//     in a transaction is always one set of changes against its first
//     text, whatever its format and however many steps it took.
//   - [EOL] is the one line-ending policy: new text takes the ending of
//     the line it lands on, else of the nearest line before, else after.
//   - [Error] is the one error value, with a [Code]; the sentinels
//     [ErrNotFound], [ErrAmbiguous], [ErrConflict], [ErrMalformed] and
//     [ErrNoFile] match it by code with errors.Is. The matcher's refusals
//     use the same sentinels and [Candidate].
//   - [View] is the text a format reads and locates in, and the one
//     mapping from that text back to the file's bytes. Today a view is the
//     file's bytes without a UTF-8 byte order mark: the mark belongs to
//     the file, not to its first line, so no format shows it, matches it,
//     moves it or drops it. A later view (a legacy encoding, a notebook's
//     cells) is one more mapping here, not a second change type.
//
// The package is a leaf: it imports nothing of graft's, so the matcher,
// the formats (apply/patch, apply/snippet, apply/symbol) and the engine
// all build on it.
package textedit
