package outline

import (
	"encoding/json"
	"errors"
	"strconv"

	"github.com/graftdev/graft/internal/lineindex"
)

// parseJSONPure outlines JSON without tree-sitter (builds without cgo): a
// small scanner that keeps offsets, accepting comments and trailing
// commas as JSONC files have them. A file it cannot read is an error.
func parseJSONPure(src []byte) (*Outline, error) {
	p := &jsonScanner{src: src, l: lineindex.New(src)}
	o := &Outline{Config: true}
	p.space()
	if p.i == len(src) {
		return o, nil
	}
	list, err := p.value(nil)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i != len(src) {
		return nil, p.fail("content after the document")
	}
	o.Symbols = list
	return o, nil
}

type jsonScanner struct {
	src []byte
	i   int
	l   *lineindex.Index
}

var errJSON = errors.New("invalid JSON")

func (p *jsonScanner) fail(what string) error {
	return errors.Join(errJSON, errors.New(what+" at byte "+strconv.Itoa(p.i)))
}

// space skips white space and comments.
func (p *jsonScanner) space() {
	for p.i < len(p.src) {
		switch c := p.src[p.i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '/':
			for p.i < len(p.src) && p.src[p.i] != '\n' {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.src) && p.src[p.i+1] == '*':
			end := indexFrom(p.src, p.i+2, "*/")
			if end < 0 {
				p.i = len(p.src)
				return
			}
			p.i = end + 2
		default:
			return
		}
	}
}

func indexFrom(b []byte, from int, s string) int {
	for i := from; i+len(s) <= len(b); i++ {
		if string(b[i:i+len(s)]) == s {
			return i
		}
	}
	return -1
}

// value reads one value and returns the symbols inside it (its keys or
// items), named under segs.
func (p *jsonScanner) value(segs []string) ([]*Symbol, error) {
	if p.i >= len(p.src) {
		return nil, p.fail("unexpected end")
	}
	switch c := p.src[p.i]; {
	case c == '{':
		return p.object(segs)
	case c == '[':
		return p.array(segs)
	case c == '"':
		_, err := p.str()
		return nil, err
	default:
		start := p.i
		for p.i < len(p.src) && !isSpace(p.src[p.i]) && p.src[p.i] != ',' && p.src[p.i] != '}' && p.src[p.i] != ']' && p.src[p.i] != '/' {
			p.i++
		}
		if p.i == start {
			return nil, p.fail("a value expected")
		}
		if tok := string(p.src[start:p.i]); tok != "true" && tok != "false" && tok != "null" {
			if _, err := strconv.ParseFloat(tok, 64); err != nil {
				return nil, p.fail("invalid literal " + strconv.Quote(tok))
			}
		}
		return nil, nil
	}
}

// str reads a string and returns its value.
func (p *jsonScanner) str() (string, error) {
	start := p.i
	p.i++
	for p.i < len(p.src) && p.src[p.i] != '"' {
		if p.src[p.i] == '\\' {
			p.i++
		}
		if p.i < len(p.src) && p.src[p.i] == '\n' {
			return "", p.fail("line break in a string")
		}
		p.i++
	}
	if p.i >= len(p.src) {
		return "", p.fail("unterminated string")
	}
	p.i++
	var s string
	if err := json.Unmarshal(p.src[start:p.i], &s); err != nil {
		return "", p.fail("invalid string")
	}
	return s, nil
}

func (p *jsonScanner) object(segs []string) ([]*Symbol, error) {
	p.i++ // {
	var out []*Symbol
	for {
		p.space()
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			return out, nil
		}
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return nil, p.fail("a key expected")
		}
		start := p.i
		key, err := p.str()
		if err != nil {
			return nil, err
		}
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return nil, p.fail("':' expected")
		}
		p.i++
		p.space()
		vstart := p.i
		s := &Symbol{Segs: with(segs, key), Start: start, ValueStart: vstart}
		if p.i < len(p.src) {
			s.Kind = jsonKind(p.src[p.i])
		}
		if err := p.member(s, '}'); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

func (p *jsonScanner) array(segs []string) ([]*Symbol, error) {
	p.i++ // [
	var out []*Symbol
	for n := 0; ; n++ {
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			return out, nil
		}
		start := p.i
		s := &Symbol{Segs: with(segs, "["+strconv.Itoa(n)+"]"), Kind: "item", Start: start, ValueStart: start}
		if err := p.member(s, ']'); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
}

// member reads the value of s (a key's or an item's), ends its span, and
// reads the separator after it, up to the close bracket of its container.
func (p *jsonScanner) member(s *Symbol, close byte) error {
	kids, err := p.value(s.Segs)
	if err != nil {
		return err
	}
	s.End, s.ValueEnd, s.Children = p.i, p.i, kids
	fillSpan(p.l, s, s.Start, s.End, slashComments)
	return p.separator(close)
}

// separator reads the comma after a member, or sees the closing bracket.
func (p *jsonScanner) separator(closing byte) error {
	p.space()
	switch {
	case p.i < len(p.src) && p.src[p.i] == ',':
		p.i++
		return nil
	case p.i < len(p.src) && p.src[p.i] == closing:
		return nil
	}
	return p.fail("',' or '" + string(closing) + "' expected")
}

func jsonKind(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	}
	return "key"
}

func with(segs []string, seg string) []string {
	return append(append(make([]string, 0, len(segs)+1), segs...), seg)
}
