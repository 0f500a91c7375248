//go:build cgo

package syntax

import "unsafe"

// Grammar returns the tree-sitter grammar of the language called name (as
// Detect names it), or nil when this build has none. It also points
// tree-sitter's allocations at libc, as the checks do, so a caller parsing
// with the grammar pays no more than they do.
func Grammar(name string) unsafe.Pointer {
	lang := grammars[name]
	if lang == nil {
		return nil
	}
	useLibcAllocator()
	return lang()
}
