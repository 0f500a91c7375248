//go:build cgo

package outline

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/graftdev/graft/apply/syntax"
	"github.com/graftdev/graft/internal/lineindex"
	ts "github.com/tree-sitter/go-tree-sitter"
)

// decl says how one kind of node declares symbols.
type decl struct {
	kind string
	// names returns the declared names (several for "int x, y;"); nil
	// means the field "name".
	names func(n *ts.Node, src []byte) [][]string
	// body is the field holding the declarations nested in this one
	// (a class's methods), "" when none are listed.
	body string
	// kindOf, when set, decides the kind from the node.
	kindOf func(n *ts.Node, src []byte) string
	// inner, when set, turns kind into this one for a symbol nested in
	// another (a Python function in a class is a method).
	inner string
}

// grammarRules are one language's declarations.
type grammarRules struct {
	decls map[string]decl
	// through are the kinds looked inside for declarations at the same
	// level (a C++ namespace body, a Rust impl block: see scoped).
	through map[string]bool
	// wrap are the kinds whose span covers the declaration they hold
	// (decorators, export, template <...>).
	wrap map[string]bool
	// attrs are sibling kinds just above a declaration that belong to its
	// span (Rust #[...]).
	attrs map[string]bool
	// scoped names a scope that is not itself a symbol (a Rust impl
	// block): its declarations are named under it.
	scoped func(n *ts.Node, src []byte) []string
	// hoisting are the statements at the top of a file (if, try, loops,
	// blocks) whose var declarations belong to the file: JavaScript's var
	// is scoped to its function or script, not to its block. Only
	// declarations standing as statements are listed (not a for loop's
	// initializer), and only those of the kind hoisted names.
	hoisting map[string]bool
	hoisted  string
}

func treeSitterLangs(lang string) bool {
	_, ok := rules()[lang]
	return ok && syntax.Grammar(lang) != nil || configLangs[lang] && syntax.Grammar(lang) != nil
}

func parseTreeSitter(lang string, src []byte) (*Outline, error) {
	r, ok := rules()[lang]
	if !ok {
		return nil, fmt.Errorf("%w: graft reads no declarations in %s files", ErrUnsupported, lang)
	}
	t, err := parseTree(lang, src)
	if err != nil {
		return nil, err
	}
	defer t.Close()
	w := &walker{r: r, src: src, l: lineindex.New(src), comments: commentsOf(lang), cur: t.Walk()}
	defer w.cur.Close()
	o := &Outline{}
	o.Symbols = w.visit(t.RootNode(), nil, nil)
	return o, nil
}

func parseTree(lang string, src []byte) (*ts.Tree, error) {
	g := syntax.Grammar(lang)
	if g == nil {
		return nil, fmt.Errorf("%w: %s", ErrUnsupported, lang)
	}
	p := ts.NewParser()
	defer p.Close()
	if err := p.SetLanguage(ts.NewLanguage(g)); err != nil {
		return nil, fmt.Errorf("tree-sitter grammar %s: %w", lang, err)
	}
	t := p.ParseWithOptions(func(i int, _ ts.Point) []byte {
		if i >= len(src) {
			return nil
		}
		return src[i:min(i+64<<10, len(src))]
	}, nil, nil)
	if t == nil {
		return nil, errors.New("tree-sitter returned no tree")
	}
	return t, nil
}

type walker struct {
	r        grammarRules
	src      []byte
	l        *lineindex.Index
	comments commentStyle
	cur      *ts.TreeCursor
}

// visit returns the symbols declared among n's children, under scope.
func (w *walker) visit(n *ts.Node, scope []string, parent *Symbol) []*Symbol {
	var out []*Symbol
	kids := n.NamedChildren(w.cur)
	for i := range kids {
		out = append(out, w.node(&kids[i], kids[:i], scope, parent, nil)...)
	}
	return out
}

// node returns the symbols c declares; prev are its earlier siblings
// (for attributes above it) and outer the wrapper whose span it takes.
func (w *walker) node(c *ts.Node, prev []ts.Node, scope []string, parent *Symbol, outer *ts.Node) []*Symbol {
	kind := c.Kind()
	if d, ok := w.r.decls[kind]; ok {
		return w.declare(c, d, prev, scope, parent, outer)
	}
	if w.r.wrap[kind] {
		if outer == nil {
			outer = c
		}
		var out []*Symbol
		kids := c.NamedChildren(w.cur)
		for i := range kids {
			out = append(out, w.node(&kids[i], nil, scope, parent, outer)...)
		}
		if outer == c {
			// The wrapper's attributes are above it, not above what it wraps.
			for _, s := range out {
				w.attrsAbove(s, prev)
			}
		}
		return out
	}
	if w.r.hoisting[kind] && parent == nil && len(scope) == 0 {
		return w.hoist(c)
	}
	if w.r.through[kind] {
		sc := scope
		if w.r.scoped != nil {
			if extra := w.r.scoped(c, w.src); extra != nil {
				sc = append(append([]string(nil), scope...), extra...)
			}
		}
		return w.visit(c, sc, parent)
	}
	return nil
}

// hoist returns the symbols the var declarations inside the top-level
// statement n declare, looking through nested blocks, branches and loop
// bodies but not into functions, classes or expressions.
func (w *walker) hoist(n *ts.Node) []*Symbol {
	kids := n.NamedChildren(w.cur)
	if n.Kind() == "for_statement" {
		// The initializer's var (for (var i = 0; ...)) is the loop's
		// counter, on the loop's line: not a declaration to edit.
		kids = nil
		if b := n.ChildByFieldName("body"); b != nil {
			kids = []ts.Node{*b}
		}
	}
	var out []*Symbol
	for i := range kids {
		k := &kids[i]
		switch {
		case k.Kind() == w.r.hoisted:
			out = append(out, w.declare(k, w.r.decls[k.Kind()], kids[:i], nil, nil, nil)...)
		case w.r.hoisting[k.Kind()]:
			out = append(out, w.hoist(k)...)
		}
	}
	return out
}

func (w *walker) declare(c *ts.Node, d decl, prev []ts.Node, scope []string, parent *Symbol, outer *ts.Node) []*Symbol {
	var names [][]string
	if d.names != nil {
		names = d.names(c, w.src)
	} else if nn := c.ChildByFieldName("name"); nn != nil {
		names = [][]string{splitScopes(nn.Utf8Text(w.src))}
	}
	span := c
	if outer != nil {
		span = outer
	}
	k := d.kind
	if d.kindOf != nil {
		k = d.kindOf(c, w.src)
	}
	if d.inner != "" && len(scope) > 0 && (parent == nil || len(scope) > len(parent.Segs) || !namespaceKinds[parent.Kind]) {
		k = d.inner
	}
	var out []*Symbol
	for _, nm := range names {
		if len(nm) == 0 || nm[len(nm)-1] == "" {
			continue
		}
		segs := append(append([]string(nil), scope...), nm...)
		s := &Symbol{Segs: segs, Kind: k, Start: int(span.StartByte()), End: int(span.EndByte())}
		if outer == nil {
			w.attrsAbove(s, prev)
		}
		fillSpan(w.l, s, s.Start, s.End, w.comments)
		// The declaration proper starts where its name does, past
		// decorators, attributes and annotations.
		s.DeclLine = pastDecorators(w.l, s.Line, s.EndLine, w.comments)
		if nn := c.ChildByFieldName("name"); nn != nil {
			s.DeclLine = min(s.DeclLine, max(s.Line, w.l.LineAt(int(nn.StartByte()))))
		}
		out = append(out, s)
	}
	if d.body != "" && len(out) > 0 {
		if b := c.ChildByFieldName(d.body); b != nil {
			out[0].Children = w.visit(b, out[0].Segs, out[0])
		}
	}
	return out
}

// attrsAbove moves s's start up over the attribute siblings just above
// its node, prev being the node's earlier siblings (and over the comments
// among the attributes).
func (w *walker) attrsAbove(s *Symbol, prev []ts.Node) {
	if len(w.r.attrs) == 0 {
		return
	}
	for i := len(prev) - 1; i >= 0; i-- {
		p := &prev[i]
		if w.r.attrs[p.Kind()] {
			s.Start = int(p.StartByte())
			continue
		}
		if strings.Contains(p.Kind(), "comment") {
			// Comments between attributes stay in the span; those above
			// the first attribute are the comment block.
			hasAttr := false
			for j := i - 1; j >= 0 && (w.r.attrs[prev[j].Kind()] || strings.Contains(prev[j].Kind(), "comment")); j-- {
				if w.r.attrs[prev[j].Kind()] {
					hasAttr = true
					break
				}
			}
			if hasAttr {
				continue
			}
		}
		break
	}
}

// namespaceKinds are the scopes whose functions are not methods.
var namespaceKinds = map[string]bool{"mod": true, "namespace": true, "module": true}

// splitScopes splits a qualified name ("ns::K::f", "A::B") into scopes.
func splitScopes(name string) []string {
	name = strings.TrimSpace(name)
	if strings.Contains(name, "::") {
		return strings.Split(name, "::")
	}
	return []string{name}
}

func field(n *ts.Node, name string, src []byte) string {
	if c := n.ChildByFieldName(name); c != nil {
		return c.Utf8Text(src)
	}
	return ""
}

// typeName strips a type's parameters and references: "S<T>" → "S",
// "&'a mut Foo" → "Foo", "crate::a::B<C>" → "B".
func typeName(s string) string {
	if i := strings.IndexAny(s, "<[("); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimLeft(s, "&*' ")
	if i := strings.LastIndex(s, " "); i >= 0 {
		s = s[i+1:]
	}
	if i := strings.LastIndex(s, "::"); i >= 0 {
		s = s[i+2:]
	}
	return strings.TrimSpace(s)
}

// cDeclarator finds the name a C/C++ declarator declares, through
// pointers, references, arrays and function declarators.
func cDeclarator(n *ts.Node, src []byte) []string {
	for n != nil {
		switch n.Kind() {
		case "identifier", "field_identifier", "type_identifier", "operator_name", "destructor_name", "primitive_type":
			return []string{n.Utf8Text(src)}
		case "qualified_identifier":
			return splitScopes(stripTemplate(n.Utf8Text(src)))
		}
		d := n.ChildByFieldName("declarator")
		if d == nil {
			// reference_declarator holds its declarator unnamed.
			for i := uint(0); i < n.NamedChildCount(); i++ {
				if c := n.NamedChild(i); c != nil && strings.HasSuffix(c.Kind(), "declarator") || c != nil && strings.HasSuffix(c.Kind(), "identifier") {
					d = c
					break
				}
			}
		}
		n = d
	}
	return nil
}

// hasFunctionDeclarator reports whether a C declaration declares a
// function (a prototype) rather than a variable.
func hasFunctionDeclarator(n *ts.Node) bool {
	for d := n.ChildByFieldName("declarator"); d != nil; d = d.ChildByFieldName("declarator") {
		if d.Kind() == "function_declarator" {
			return true
		}
	}
	return false
}

func stripTemplate(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '<':
			depth++
		case r == '>':
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// declarators names every declarator of a declaration with several
// ("int x, y;", "let a = 1, b = 2").
func declarators(fieldName string, pick func(d *ts.Node, src []byte) string) func(n *ts.Node, src []byte) [][]string {
	return func(n *ts.Node, src []byte) [][]string {
		var out [][]string
		c := n.Walk()
		defer c.Close()
		for _, d := range n.ChildrenByFieldName(fieldName, c) {
			if name := pick(&d, src); name != "" {
				out = append(out, []string{name})
			}
		}
		return out
	}
}

var (
	cFunction = func(n *ts.Node, src []byte) [][]string {
		if nm := cDeclarator(n.ChildByFieldName("declarator"), src); nm != nil {
			return [][]string{nm}
		}
		return nil
	}
	cPrototype = func(n *ts.Node, src []byte) [][]string {
		if !hasFunctionDeclarator(n) {
			return nil
		}
		return cFunction(n, src)
	}
	cTagged = func(n *ts.Node, src []byte) [][]string {
		// Only a definition ("struct S { ... }"), not a use ("struct S x").
		if n.ChildByFieldName("body") == nil {
			return nil
		}
		if nm := field(n, "name", src); nm != "" {
			return [][]string{splitScopes(stripTemplate(nm))}
		}
		return nil
	}
	cTypedef = func(n *ts.Node, src []byte) [][]string {
		if nm := cDeclarator(n.ChildByFieldName("declarator"), src); nm != nil {
			return [][]string{nm}
		}
		return nil
	}
)

// jsVariables lists each declarator of a lexical or variable declaration
// (named children, not a field).
func jsVariables(n *ts.Node, src []byte) [][]string {
	var out [][]string
	c := n.Walk()
	defer c.Close()
	for _, d := range n.NamedChildren(c) {
		if d.Kind() != "variable_declarator" {
			continue
		}
		if nm := d.ChildByFieldName("name"); nm != nil && nm.Kind() == "identifier" {
			out = append(out, []string{nm.Utf8Text(src)})
		}
	}
	return out
}

// jsAssigned names an assignment of a function or class to a dotted
// name ("module.exports.f", "Foo.prototype.bar"); other assignments
// declare nothing.
func jsAssigned(n *ts.Node, src []byte) [][]string {
	var names [][]string
	// A chain ("res.set = res.header = function") names each.
	for n != nil && n.Kind() == "assignment_expression" {
		left := n.ChildByFieldName("left")
		if left == nil || left.Kind() != "member_expression" && left.Kind() != "identifier" || !dotted(left.Utf8Text(src)) {
			return nil
		}
		names = append(names, strings.Split(left.Utf8Text(src), "."))
		n = n.ChildByFieldName("right")
	}
	if n == nil || jsFunctionKind(n.Kind()) == "" {
		return nil
	}
	return names
}

// dotted reports whether name is identifiers joined by dots.
func dotted(name string) bool {
	for _, r := range name {
		if !(r == '.' || r == '_' || r == '$' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r > 127) {
			return false
		}
	}
	return name != ""
}

func jsAssignedKind(n *ts.Node, _ []byte) string {
	for n != nil && n.Kind() == "assignment_expression" {
		n = n.ChildByFieldName("right")
	}
	if n != nil && jsFunctionKind(n.Kind()) != "" {
		return jsFunctionKind(n.Kind())
	}
	return "func"
}

// jsFunctionKind is "func" or "class" for a value that defines one, else "".
func jsFunctionKind(kind string) string {
	switch kind {
	case "arrow_function", "function_expression", "function", "generator_function":
		return "func"
	case "class":
		return "class"
	}
	return ""
}

// jsVariableKind is "func" for "const f = () => ...", "class" for
// "const C = class ...", else the declaration's keyword.
func jsVariableKind(n *ts.Node, src []byte) string {
	if n.NamedChildCount() == 1 {
		if v := n.NamedChild(0).ChildByFieldName("value"); v != nil {
			switch v.Kind() {
			case "arrow_function", "function_expression", "function", "generator_function":
				return "func"
			case "class":
				return "class"
			}
		}
	}
	if kw := n.Child(0); kw != nil {
		return kw.Kind()
	}
	return "var"
}

func set(kinds ...string) map[string]bool {
	m := map[string]bool{}
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

func jsRules(typed bool) grammarRules {
	r := grammarRules{
		decls: map[string]decl{
			"function_declaration":           {kind: "func"},
			"generator_function_declaration": {kind: "func"},
			"class_declaration":              {kind: "class", body: "body"},
			"method_definition":              {kind: "method"},
			"field_definition":               {kind: "field", names: nameField("property")},
			"lexical_declaration":            {kind: "var", names: jsVariables, kindOf: jsVariableKind},
			"variable_declaration":           {kind: "var", names: jsVariables, kindOf: jsVariableKind},
		},
		through: set("program", "class_body", "statement_block"),
		wrap:    set("export_statement", "expression_statement"),
	}
	// CommonJS and prototype definitions at the top: "exports.f =
	// function", "Foo.prototype.bar = (…) =>".
	r.decls["assignment_expression"] = decl{kind: "func", names: jsAssigned, kindOf: jsAssignedKind}
	if typed {
		for k, d := range map[string]decl{
			"abstract_class_declaration":     {kind: "class", body: "body"},
			"interface_declaration":          {kind: "interface", body: "body"},
			"property_signature":             {kind: "field"},
			"type_alias_declaration":         {kind: "type"},
			"enum_declaration":               {kind: "enum"},
			"internal_module":                {kind: "namespace", body: "body"},
			"module":                         {kind: "namespace", body: "body"},
			"public_field_definition":        {kind: "field"},
			"abstract_method_signature":      {kind: "method"},
			"function_signature":             {kind: "func"},
			"ambient_declaration":            {kind: "declare", names: func(*ts.Node, []byte) [][]string { return nil }},
			"method_signature":               {kind: "method"},
			"generator_function_declaration": {kind: "func"},
		} {
			r.decls[k] = d
		}
		r.wrap["ambient_declaration"] = true
		delete(r.decls, "ambient_declaration")
	}
	// statement_block is looked through only as a namespace's body.
	delete(r.through, "statement_block")
	// A var inside a block at the top of a script (if (require.main ===
	// module) { var x = ... }) is the script's.
	r.hoisting = set("if_statement", "else_clause", "statement_block", "try_statement", "catch_clause", "finally_clause",
		"for_statement", "for_in_statement", "while_statement", "do_statement", "labeled_statement",
		"switch_statement", "switch_body", "switch_case", "switch_default")
	r.hoisted = "variable_declaration"
	return r
}

func nameField(name string) func(n *ts.Node, src []byte) [][]string {
	return func(n *ts.Node, src []byte) [][]string {
		if nm := field(n, name, src); nm != "" {
			return [][]string{{nm}}
		}
		return nil
	}
}

// rules are the grammars' declaration rules, built at their first use
// rather than at start-up (a process that outlines nothing never needs them).
var rules = sync.OnceValue(func() map[string]grammarRules {
	return map[string]grammarRules{
		"python": {
			decls: map[string]decl{
				"function_definition": {kind: "func", inner: "method"},
				"class_definition":    {kind: "class", body: "body"},
			},
			through: set("module", "block", "if_statement", "else_clause", "elif_clause", "try_statement", "except_clause", "finally_clause"),
			wrap:    set("decorated_definition"),
		},
		"javascript": jsRules(false),
		"typescript": jsRules(true),
		"tsx":        jsRules(true),
		"rust": {
			decls: map[string]decl{
				"function_item":           {kind: "fn", inner: "method"},
				"function_signature_item": {kind: "fn", inner: "method"},
				"struct_item":             {kind: "struct"},
				"enum_item":               {kind: "enum"},
				"union_item":              {kind: "union"},
				"trait_item":              {kind: "trait", body: "body"},
				"mod_item":                {kind: "mod", body: "body"},
				"const_item":              {kind: "const"},
				"static_item":             {kind: "static"},
				"type_item":               {kind: "type"},
				"macro_definition":        {kind: "macro"},
			},
			through: set("source_file", "declaration_list", "impl_item"),
			attrs:   set("attribute_item"),
			scoped: func(n *ts.Node, src []byte) []string {
				if n.Kind() != "impl_item" {
					return nil
				}
				return []string{typeName(field(n, "type", src))}
			},
		},
		"java": {
			decls: map[string]decl{
				"class_declaration":           {kind: "class", body: "body"},
				"interface_declaration":       {kind: "interface", body: "body"},
				"enum_declaration":            {kind: "enum", body: "body"},
				"record_declaration":          {kind: "record", body: "body"},
				"annotation_type_declaration": {kind: "annotation", body: "body"},
				"method_declaration":          {kind: "method"},
				"constructor_declaration":     {kind: "constructor"},
				"field_declaration": {kind: "field", names: declarators("declarator", func(d *ts.Node, src []byte) string {
					return field(d, "name", src)
				})},
				"constant_declaration": {kind: "const", names: declarators("declarator", func(d *ts.Node, src []byte) string {
					return field(d, "name", src)
				})},
			},
			through: set("program", "class_body", "interface_body", "enum_body", "enum_body_declarations", "annotation_type_body"),
		},
		"c":   cRules(false),
		"cpp": cRules(true),
		"ruby": {
			decls: map[string]decl{
				"method":           {kind: "def"},
				"singleton_method": {kind: "def"},
				"class":            {kind: "class", body: "body"},
				"module":           {kind: "module", body: "body"},
			},
			through: set("program", "body_statement"),
		},
		"bash": {
			decls:   map[string]decl{"function_definition": {kind: "function"}},
			through: set("program"),
		},
	}
})

func cRules(cpp bool) grammarRules {
	r := grammarRules{
		decls: map[string]decl{
			"function_definition": {kind: "func", names: cFunction},
			"declaration":         {kind: "proto", names: cPrototype},
			"struct_specifier":    {kind: "struct", names: cTagged},
			"union_specifier":     {kind: "union", names: cTagged},
			"enum_specifier":      {kind: "enum", names: cTagged},
			"type_definition":     {kind: "typedef", names: cTypedef},
		},
		through: set("translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "linkage_specification", "declaration_list"),
	}
	if cpp {
		r.decls["class_specifier"] = decl{kind: "class", names: cTagged, body: "body"}
		r.decls["struct_specifier"] = decl{kind: "struct", names: cTagged, body: "body"}
		r.decls["namespace_definition"] = decl{kind: "namespace", body: "body"}
		r.decls["field_declaration"] = decl{kind: "proto", names: cPrototype}
		r.decls["function_definition"] = decl{kind: "func", names: cFunction, inner: "method"}
		r.through["field_declaration_list"] = true
		r.wrap = set("template_declaration")
	}
	return r
}
