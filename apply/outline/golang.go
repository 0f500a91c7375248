package outline

import (
	"go/ast"
	"go/parser"
	"go/token"

	"github.com/graftdev/graft/internal/lineindex"
)

// parseGo outlines Go with go/parser, in every build: functions "F",
// methods "T.M" (the receiver's type without * or type parameters), and
// each name of a type, var or const declaration. A grouped declaration
// lists each spec with the spec's own lines; a single one spans the
// whole declaration, keyword included.
func parseGo(src []byte) (*Outline, error) {
	fset := token.NewFileSet()
	// A file with errors still yields what the parser recovered.
	f, _ := parser.ParseFile(fset, "", src, parser.ParseComments|parser.SkipObjectResolution)
	if f == nil {
		return &Outline{}, nil
	}
	l := lineindex.New(src)
	tf := fset.File(f.Pos())
	off := func(p token.Pos) int { return tf.Offset(p) }
	o := &Outline{}
	add := func(segs []string, kind string, from, to token.Pos) {
		if len(segs) == 0 || segs[len(segs)-1] == "_" || segs[len(segs)-1] == "" {
			return
		}
		s := &Symbol{Segs: segs, Kind: kind, Start: off(from), End: off(to)}
		fillSpan(l, s, s.Start, s.End, slashComments)
		o.Symbols = append(o.Symbols, s)
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Name == nil || !d.End().IsValid() {
				continue
			}
			if d.Recv != nil && len(d.Recv.List) > 0 {
				if recv := receiverName(d.Recv.List[0].Type); recv != "" {
					add([]string{recv, d.Name.Name}, "method", d.Pos(), d.End())
				}
				continue
			}
			add([]string{d.Name.Name}, "func", d.Pos(), d.End())
		case *ast.GenDecl:
			kind := map[token.Token]string{token.TYPE: "type", token.VAR: "var", token.CONST: "const"}[d.Tok]
			if kind == "" {
				continue
			}
			grouped := d.Lparen.IsValid()
			for _, spec := range d.Specs {
				from, to := d.Pos(), d.End()
				if grouped {
					from, to = spec.Pos(), spec.End()
				}
				switch sp := spec.(type) {
				case *ast.TypeSpec:
					k := kind
					switch sp.Type.(type) {
					case *ast.StructType:
						k = "struct"
					case *ast.InterfaceType:
						k = "interface"
					}
					add([]string{sp.Name.Name}, k, from, to)
				case *ast.ValueSpec:
					for _, n := range sp.Names {
						add([]string{n.Name}, kind, from, to)
					}
				}
			}
		}
	}
	return o, nil
}

// receiverName is the type name of a method's receiver: T for T, *T,
// T[K], *T[K, V].
func receiverName(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.ParenExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}
