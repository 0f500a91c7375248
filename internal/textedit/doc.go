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
//     [ErrNoFile] match it by code with errors.Is; a format's finer kind
//     of refusal ([Kind]: a patch's "file already exists") wraps one of
//     them, and [KindCode] is the one mapping from a kind to its code. The
//     matcher's refusals use the same sentinels and [Candidate].
//   - [View] is the text a format reads and locates in, and the one
//     mapping from that text back to the file's bytes. A byte order mark
//     belongs to the file, not to its first line, so no format shows it,
//     matches it, moves it or drops it; a file in another [Encoding] than
//     UTF-8 is decoded, and each change of the text becomes a change of
//     exactly the bytes its characters came from, its new text encoded
//     back (or refused, when the encoding cannot represent it or the
//     bytes it touches do not decode). A Jupyter notebook is one more
//     view, not a second change type: its text is the percent script
//     ("# %%" cell headers, then each source), and a change inside one
//     cell's source becomes the change of that cell's source value in
//     the JSON (notebook.go).
//
// The package is a leaf: it imports nothing of graft's (only
// golang.org/x/text's codecs), so the matcher,
// the formats (apply/patch, apply/snippet, apply/symbol) and the engine
// all build on it.
package textedit
