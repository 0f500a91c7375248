//go:build !cgo

package outline

import "fmt"

// Without cgo there is no tree-sitter: Go alone is outlined (go/parser).

func treeSitterLangs(string) bool { return false }

func parseTreeSitter(lang string, _ []byte) (*Outline, error) {
	return nil, fmt.Errorf("%w: %s needs tree-sitter, and this graft was built without cgo", ErrUnsupported, lang)
}

func parseConfig(lang string, _ []byte) (*Outline, error) {
	return parseTreeSitter(lang, nil)
}
