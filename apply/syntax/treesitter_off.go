//go:build !cgo

package syntax

// Without cgo there is no tree-sitter: the languages without a pure-Go
// checker are detected but left unchecked.
func treeSitterChecker(string) *checker { return nil }
