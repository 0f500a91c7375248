//go:build cgo

package outline

import (
	"bytes"
	"strconv"
	"strings"

	ts "github.com/tree-sitter/go-tree-sitter"

	"github.com/graftdev/graft/internal/lineindex"
)

// parseConfig outlines JSON, YAML and TOML by key path: every key of
// every mapping, every item of every list ("[N]"), and TOML tables.
func parseConfig(lang string, src []byte) (*Outline, error) {
	t, err := parseTree(lang, src)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	c := &configWalker{src: src, l: lineindex.New(src), comments: commentsOf(lang), cur: t.Walk()}
	defer c.cur.Close()
	o := &Outline{Config: true}
	root := t.RootNode()
	switch lang {
	case "json":
		for _, v := range c.named(root) {
			o.Symbols = append(o.Symbols, c.json(&v, nil)...)
		}
	case "yaml":
		for _, doc := range c.named(root) {
			for _, v := range c.named(&doc) {
				o.Symbols = append(o.Symbols, c.yaml(&v, nil)...)
			}
		}
	case "toml":
		o.Symbols = c.toml(root)
	}
	return o, nil
}

type configWalker struct {
	src      []byte
	l        *lineindex.Index
	comments commentStyle
	cur      *ts.TreeCursor
}

// named returns n's named children other than comments.
func (c *configWalker) named(n *ts.Node) []ts.Node {
	kids := n.NamedChildren(c.cur)
	out := kids[:0]
	for _, k := range kids {
		if k.Kind() != "comment" {
			out = append(out, k)
		}
	}
	return out
}

func (c *configWalker) symbol(segs []string, kind string, n, value *ts.Node) *Symbol {
	s := &Symbol{Segs: segs, Kind: kind, Start: int(n.StartByte()), End: int(n.EndByte())}
	if value != nil {
		s.ValueStart, s.ValueEnd = int(value.StartByte()), c.trimEnd(int(value.StartByte()), int(value.EndByte()))
	}
	s.End = c.trimEnd(s.Start, s.End)
	fillSpan(c.l, s, s.Start, s.End, c.comments)
	return s
}

// trimEnd moves end back over trailing white space (YAML and TOML nodes
// end after their line break) and over whole comment lines at the end (a
// YAML node holds the comments that follow it, down to the next key).
func (c *configWalker) trimEnd(start, end int) int {
	for {
		for end > start && isSpace(c.src[end-1]) {
			end--
		}
		ls := max(start, bytes.LastIndexByte(c.src[:end], '\n')+1)
		if ls == start || c.comments.line == "" || !bytes.HasPrefix(bytes.TrimSpace(c.src[ls:end]), []byte(c.comments.line)) {
			return end
		}
		end = ls
	}
}

func valueKind(n *ts.Node) string {
	switch n.Kind() {
	case "object", "block_mapping", "flow_mapping", "inline_table":
		return "object"
	case "array", "block_sequence", "flow_sequence":
		return "array"
	}
	return "key"
}

func (c *configWalker) json(n *ts.Node, segs []string) []*Symbol {
	var out []*Symbol
	switch n.Kind() {
	case "object":
		for _, p := range c.named(n) {
			if p.Kind() != "pair" {
				continue
			}
			k, v := p.ChildByFieldName("key"), p.ChildByFieldName("value")
			if k == nil || v == nil {
				continue
			}
			s := c.symbol(with(segs, unquote(k.Utf8Text(c.src))), valueKind(v), &p, v)
			s.Children = c.json(v, s.Segs)
			out = append(out, s)
		}
	case "array":
		for i, e := range c.named(n) {
			s := c.symbol(with(segs, "["+strconv.Itoa(i)+"]"), "item", &e, &e)
			s.Children = c.json(&e, s.Segs)
			out = append(out, s)
		}
	}
	return out
}

// unquote reads a quoted key; a key it cannot read stays as written,
// without its quotes.
func unquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return strings.Trim(s, `"'`)
}

// yamlCollection returns the mapping or list inside a YAML node (past
// its tag and anchor), or the node itself.
func (c *configWalker) yamlCollection(n *ts.Node) *ts.Node {
	if n.Kind() == "block_node" || n.Kind() == "flow_node" {
		for _, k := range c.named(n) {
			switch k.Kind() {
			case "block_mapping", "block_sequence", "flow_mapping", "flow_sequence":
				return &k
			}
		}
	}
	return n
}

func (c *configWalker) yaml(n *ts.Node, segs []string) []*Symbol {
	coll := c.yamlCollection(n)
	var out []*Symbol
	switch coll.Kind() {
	case "block_mapping", "flow_mapping":
		for _, p := range c.named(coll) {
			if p.Kind() != "block_mapping_pair" && p.Kind() != "flow_pair" {
				continue
			}
			k := p.ChildByFieldName("key")
			if k == nil {
				continue
			}
			v := p.ChildByFieldName("value")
			kind := "key"
			if v != nil {
				kind = valueKind(c.yamlCollection(v))
			}
			s := c.symbol(with(segs, unquote(strings.TrimSpace(k.Utf8Text(c.src)))), kind, &p, v)
			if v != nil {
				s.Children = c.yaml(v, s.Segs)
			}
			out = append(out, s)
		}
	case "block_sequence":
		for i, it := range c.named(coll) {
			kids := c.named(&it)
			var v *ts.Node
			if len(kids) > 0 {
				v = &kids[0]
			}
			s := c.symbol(with(segs, "["+strconv.Itoa(i)+"]"), "item", &it, v)
			if v != nil {
				s.Children = c.yaml(v, s.Segs)
			}
			out = append(out, s)
		}
	case "flow_sequence":
		for i, e := range c.named(coll) {
			s := c.symbol(with(segs, "["+strconv.Itoa(i)+"]"), "item", &e, &e)
			s.Children = c.yaml(&e, s.Segs)
			out = append(out, s)
		}
	}
	return out
}

// tomlKey reads a TOML key (bare, quoted or dotted) as segments.
func (c *configWalker) tomlKey(n *ts.Node) []string {
	switch n.Kind() {
	case "dotted_key":
		var out []string
		for _, k := range c.named(n) {
			out = append(out, c.tomlKey(&k)...)
		}
		return out
	case "quoted_key":
		return []string{unquote(n.Utf8Text(c.src))}
	}
	return []string{n.Utf8Text(c.src)}
}

func (c *configWalker) toml(root *ts.Node) []*Symbol {
	var out []*Symbol
	arrays := map[string]int{}
	// elem is the last [[array]] element: the tables under its key that
	// follow ([array.sub]) belong to it.
	var elem *Symbol
	var elemKey []string
	for _, n := range c.named(root) {
		switch n.Kind() {
		case "pair":
			out = append(out, c.tomlPair(&n, nil)...)
		case "table", "table_array_element":
			kids := c.named(&n)
			if len(kids) == 0 {
				continue
			}
			segs := c.tomlKey(&kids[0])
			kind := "table"
			var under *Symbol
			if n.Kind() == "table_array_element" {
				p := JoinPath(segs)
				elem, elemKey = nil, nil
				if base, ok := c.arrayBase(out, segs); ok {
					// [[a.b]] under an element of [[a]]: its own index.
					p = JoinPath(base.Segs) + "." + JoinPath(segs[len(elemKeyOf(base)):])
					segs = append(append([]string(nil), base.Segs...), segs[len(elemKeyOf(base)):]...)
					under = base
				}
				segs = with(segs, "["+strconv.Itoa(arrays[p])+"]")
				arrays[p]++
				kind = "item"
			} else if elem != nil && hasPrefix(segs, elemKey) && len(segs) > len(elemKey) {
				segs = append(append([]string(nil), elem.Segs...), segs[len(elemKey):]...)
				under = elem
			} else {
				elem, elemKey = nil, nil
			}
			s := c.symbol(segs, kind, &n, nil)
			s.Body = true
			s.arrayKey = c.tomlKey(&kids[0])
			if len(kids) > 1 {
				s.ValueStart = int(kids[1].StartByte())
				s.ValueEnd = s.End
			}
			for i := 1; i < len(kids); i++ {
				if kids[i].Kind() == "pair" {
					s.Children = append(s.Children, c.tomlPair(&kids[i], segs)...)
				}
			}
			if under != nil {
				// A sub-table of an array element: a child of the element,
				// whose span (and its parents') now reaches its end.
				under.Children = append(under.Children, s)
				for p := under; p != nil; p = p.tomlParent {
					p.End, p.EndLine = max(p.End, s.End), max(p.EndLine, s.EndLine)
				}
				s.tomlParent = under
			} else {
				out = append(out, s)
			}
			if n.Kind() == "table_array_element" {
				elem, elemKey = s, c.tomlKey(&kids[0])
			}
		}
	}
	return out
}

// arrayBase returns the array element (or sub-table of one) that a
// [[key]] header nests under: the latest element whose array key is a
// proper prefix of key.
func (c *configWalker) arrayBase(top []*Symbol, key []string) (*Symbol, bool) {
	var best *Symbol
	var walk func(list []*Symbol)
	walk = func(list []*Symbol) {
		for _, s := range list {
			if s.Kind == "item" && s.Body && len(s.arrayKey) < len(key) && hasPrefix(key, s.arrayKey) {
				best = s
			}
			walk(s.Children)
		}
	}
	walk(top)
	return best, best != nil
}

// elemKeyOf is the header key of a TOML array element.
func elemKeyOf(s *Symbol) []string { return s.arrayKey }

func hasPrefix(segs, prefix []string) bool {
	if len(prefix) > len(segs) {
		return false
	}
	for i := range prefix {
		if segs[i] != prefix[i] {
			return false
		}
	}
	return true
}

func (c *configWalker) tomlPair(p *ts.Node, segs []string) []*Symbol {
	kids := c.named(p)
	if len(kids) < 2 {
		return nil
	}
	key := c.tomlKey(&kids[0])
	v := &kids[len(kids)-1]
	s := c.symbol(append(append([]string(nil), segs...), key...), valueKind(v), p, v)
	s.Children = c.tomlValue(v, s.Segs)
	return []*Symbol{s}
}

func (c *configWalker) tomlValue(v *ts.Node, segs []string) []*Symbol {
	var out []*Symbol
	switch v.Kind() {
	case "inline_table":
		for _, p := range c.named(v) {
			if p.Kind() == "pair" {
				out = append(out, c.tomlPair(&p, segs)...)
			}
		}
	case "array":
		for i, e := range c.named(v) {
			s := c.symbol(with(segs, "["+strconv.Itoa(i)+"]"), "item", &e, &e)
			s.Children = c.tomlValue(&e, s.Segs)
			out = append(out, s)
		}
	}
	return out
}
