package outline

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// realSource concatenates real files of one language into about size
// bytes (whole files only): Go from the toolchain's net/http, Python from
// CPython 3.11.7's standard library, TypeScript from rxjs (fixtures/mcp).
// Go files after the first lose their package and import clauses.
func realSource(tb testing.TB, lang string, size int) []byte {
	var dir, ext string
	switch lang {
	case "go":
		dir, ext = filepath.Join(goroot(), "src", "net", "http"), ".go"
	case "python":
		dir, ext = "/root/.pyenv/versions/3.11.7/lib/python3.11", ".py"
	case "typescript":
		dir, ext = "../../fixtures/mcp/node_modules/rxjs/src/internal", ".ts"
	}
	var files []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ext) && !strings.HasSuffix(p, "_test.go") && !strings.Contains(p, "/test") &&
			!strings.Contains(p, "site-packages") {
			files = append(files, p)
		}
		return nil
	})
	sort.Strings(files)
	var b bytes.Buffer
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil || b.Len()+len(src) > size && b.Len() > size*9/10 {
			continue
		}
		if b.Len()+len(src) > size*11/10 {
			continue
		}
		if lang == "go" && b.Len() > 0 {
			src = stripGoHeader(src)
		}
		b.Write(src)
		b.WriteByte('\n')
		if b.Len() >= size*9/10 {
			break
		}
	}
	if b.Len() < size/2 {
		tb.Skipf("not enough %s source under %s", lang, dir)
	}
	return b.Bytes()
}

// stripGoHeader drops a Go file's package clause and imports.
func stripGoHeader(src []byte) []byte {
	s := string(src)
	if i := strings.Index(s, "\nimport ("); i >= 0 {
		if j := strings.Index(s[i:], "\n)\n"); j >= 0 {
			return []byte(s[i+j+3:])
		}
	}
	if i := strings.Index(s, "\npackage "); i >= 0 {
		if j := strings.IndexByte(s[i+1:], '\n'); j >= 0 {
			return []byte(s[i+1+j+1:])
		}
	}
	return src
}

// BenchmarkOutline parses and formats the outline of real source files of
// about 100 KB and 1 MB, reporting the outline's size against the file's.
func BenchmarkOutline(b *testing.B) {
	for _, lang := range []string{"go", "python", "typescript"} {
		if lang != "go" && !Supported(lang) {
			continue
		}
		for _, size := range []int{100 << 10, 1 << 20} {
			src := realSource(b, lang, size)
			name := lang + "/" + map[int]string{100 << 10: "100KB", 1 << 20: "1MB"}[size]
			b.Run(name, func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				var out string
				for b.Loop() {
					o, err := ParseLanguage(lang, src)
					if err != nil {
						b.Fatal(err)
					}
					out = o.Format(0)
				}
				b.ReportMetric(100*float64(len(out))/float64(len(src)), "outline%")
			})
		}
	}
}

// goroot is the GOROOT of the go command on the PATH.
func goroot() string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
