package syntax

import (
	"testing"
)

// FuzzCheck feeds arbitrary before/after pairs to every language: Check
// must not fail or panic, must report positions inside after, and must find
// nothing added when nothing changed.
func FuzzCheck(f *testing.F) {
	f.Add(uint8(0), []byte("package p\n\nfunc f() {}\n"), []byte("package p\n\nfunc f() {\n"))
	f.Add(uint8(1), []byte("def f():\n    return 1\n"), []byte("def f(:\n    return 1\n"))
	f.Add(uint8(5), []byte("{\"a\": [1, 2]}"), []byte("{\"a\": [1, 2}"))
	f.Add(uint8(9), []byte("a:\n  - b\n"), []byte("a:\n - b\n  c: [\n"))
	f.Add(uint8(8), []byte("int t[] = {\n\t1,\n};\n"), []byte("int t[] = {\n\t1,\n#ifdef X\n\t2,\n#else\n\t3\n#endif\n};\n"))
	exts := []string{".go", ".py", ".js", ".ts", ".tsx", ".json", ".rs", ".java", ".c", ".yaml", ".toml", ".sh", ".rb", ".cpp", ".zsh"}
	f.Fuzz(func(t *testing.T, lang uint8, before, after []byte) {
		path := "f" + exts[int(lang)%len(exts)]
		r, err := Check(path, before, after)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		for _, d := range r.Added {
			if d.Line < 1 || d.Column < 1 || d.Line > len(after)+1 || d.Snippet == "" {
				t.Fatalf("%s: bad diagnostic %+v", path, d)
			}
		}
		if r2, _ := Check(path, after, after); !r2.OK() {
			t.Fatalf("%s: identical contents report %d added", path, r2.AddedCount)
		}
	})
}
