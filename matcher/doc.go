// Package matcher locates an old block of text in a file's content: exactly
// first, then through fuzzy tiers for the mistakes models make. It is pure:
// no I/O, no global state.
//
// A match is accepted only when it is unique within its tier; several
// equal-looking candidates are an ambiguity, never a guess.
package matcher
