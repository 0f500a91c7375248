//go:build !cgo

package outline

import "fmt"

// Without cgo there is no tree-sitter: Go (go/parser) and JSON (a small
// scanner) alone are outlined.

func treeSitterLangs(lang string) bool { return lang == "json" }

func parseTreeSitter(lang string, _ []byte) (*Outline, error) {
	return nil, fmt.Errorf("%w: %s needs tree-sitter, and this graft was built without cgo", ErrUnsupported, lang)
}

func parseConfig(lang string, src []byte) (*Outline, error) {
	if lang == "json" {
		return parseJSONPure(src)
	}
	return parseTreeSitter(lang, nil)
}
