package syntax

// The pure-Go checkers: always built, used for the languages tree-sitter does
// not cover in a build (all of them when cgo is off). Each stops at its
// parser's first error except go/parser, which reports them all.

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/scanner"
	"go/token"

	"mvdan.cc/sh/v3/syntax"
)

var goChecker = &checker{
	name: "go/parser",
	diagnose: func(src []byte) ([]diag, error) {
		fset := token.NewFileSet()
		_, err := parser.ParseFile(fset, "", src, parser.AllErrors|parser.SkipObjectResolution)
		var list scanner.ErrorList
		if !errors.As(err, &list) {
			return nil, err
		}
		out := make([]diag, 0, len(list))
		for _, e := range list {
			out = append(out, diag{start: e.Pos.Offset, end: e.Pos.Offset, key: e.Msg, msg: e.Msg})
		}
		return out, nil
	},
	// A slice of a Go file lacks the package clause go/parser insists on.
	window:       true,
	windowPrefix: "package p;",
}

var jsonChecker = &checker{
	name:      "encoding/json",
	diagnose:  diagnoseJSON,
	firstOnly: true,
	window:    true,
}

// diagnoseJSON checks JSON with comments allowed (as in tsconfig.json and as
// tree-sitter's JSON grammar allows them); content that is only whitespace
// counts as valid, so that creating an empty file is not refused.
func diagnoseJSON(src []byte) ([]diag, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		return nil, nil
	}
	var raw json.RawMessage
	err := json.Unmarshal(blankJSONComments(src), &raw)
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		return nil, err
	}
	at := int(se.Offset) - 1 // Offset counts the offending byte too
	if at < 0 || se.Error() == "unexpected end of JSON input" {
		at = len(bytes.TrimRight(src, " \t\r\n"))
	}
	msg := se.Error()
	return []diag{{start: at, end: at, key: msg, msg: msg}}, nil
}

// blankJSONComments returns src with // and /* */ comments outside strings
// replaced by spaces (newlines kept), so offsets stay the same. It returns
// src itself when there is no comment.
func blankJSONComments(src []byte) []byte {
	if !bytes.Contains(src, []byte("/")) {
		return src
	}
	var out []byte
	inString := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(src) && (src[i+1] == '/' || src[i+1] == '*'):
			if out == nil {
				out = append([]byte(nil), src...)
			}
			end := len(src)
			if src[i+1] == '/' {
				if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
					end = i + j
				}
			} else if j := bytes.Index(src[i+2:], []byte("*/")); j >= 0 {
				end = i + 2 + j + 2
			}
			for k := i; k < end; k++ {
				if out[k] != '\n' && out[k] != '\r' {
					out[k] = ' '
				}
			}
			i = end - 1
		}
	}
	if out == nil {
		return src
	}
	return out
}

var bashChecker = shellChecker(syntax.LangBash)

var zshChecker = shellChecker(syntax.LangZsh)

func shellChecker(lang syntax.LangVariant) *checker {
	return &checker{
		name: "mvdan.cc/sh",
		diagnose: func(src []byte) ([]diag, error) {
			_, err := syntax.NewParser(syntax.Variant(lang)).Parse(bytes.NewReader(src), "")
			var pe syntax.ParseError
			var le syntax.LangError
			switch {
			case errors.As(err, &pe):
				at := int(pe.Pos.Offset())
				return []diag{{start: at, end: at, key: pe.Text, msg: pe.Text}}, nil
			case errors.As(err, &le):
				at := int(le.Pos.Offset())
				msg := le.Feature + " is not supported"
				return []diag{{start: at, end: at, key: msg, msg: msg}}, nil
			}
			return nil, err
		},
		firstOnly: true,
		window:    true,
	}
}
