package gitstore

import (
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The attributes graft reads for a path are the ones git check-attr
// reports, for every pattern form, macro, scope and precedence rule here,
// with and without core.ignoreCase.
func TestAttributesAgreeWithGit(t *testing.T) {
	dir := newRepo(t, nil)
	files := map[string]string{
		".gitattributes": strings.Join([]string{
			"# comment",
			"*.txt text",
			"*.bin binary",
			"/top.c eol=crlf",
			"docs/** text=auto",
			"a/**/b.md -text",
			`"quoted name.txt" eol=lf`,
			`"tab\there.txt" eol=crlf`,
			"[attr]mymacro text eol=crlf",
			"*.mac mymacro",
			"*.x !text",
			"**/gen/*.go -diff",
			"*.[ch] ident",
			`\#hash filter=x`,
			"dir/ text",
			"!neg text",
			"*.bad bad@name",
			"*.Upper text",
			"?.one eol=lf",
			"[[:digit:]]*.num text",
			"mid/*/end.txt -text",
			"   *.indented   text   eol=lf  ",
			"*.two text -text",
			"*.three -text text",
			"*.mac2 text mymacro -eol",
		}, "\n") + "\n",
		"sub/.gitattributes": strings.Join([]string{
			"*.txt -text",
			"[attr]notallowed text",
			"/anch.txt eol=crlf",
			"deep/*.js text",
			"*.mac mymacro",
		}, "\n") + "\n",
	}
	for name, content := range files {
		writeFile(t, dir, name, content)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git", "info"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "info", "attributes"), []byte("*.log text\nsub/*.txt eol=crlf\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := []string{
		"a.txt", "sub/a.txt", "sub/x/a.txt", "top.c", "sub/top.c", "docs/x/y.md", "docs.md", "a/b.md", "a/x/y/b.md",
		"quoted name.txt", "tab\there.txt", "m.mac", "sub/m.mac", "q.x", "p/gen/z.go", "gen/z.go", "f.h", "f.cc", "#hash",
		"dir", "dir/file", "neg", "z.bad", "z.Upper", "z.upper", "Z.TXT", "a.one", "ab.one", "1abc.num", "abc.num",
		"mid/k/end.txt", "mid/k/l/end.txt", "x.indented", "x.two", "x.three", "x.mac2", "sub/anch.txt", "sub/q/anch.txt",
		"anch.txt", "sub/deep/a.js", "sub/q/deep/a.js", "deep/a.js", "x.log", "sub/y.log", "x.bin",
	}
	for _, ignoreCase := range []string{"false", "true"} {
		git(t, dir, "config", "core.ignorecase", ignoreCase)
		s := open(t, dir)
		cmd := exec.Command("git", "check-attr", "-a", "-z", "--stdin")
		cmd.Dir = dir
		cmd.Stdin = strings.NewReader(strings.Join(paths, "\x00") + "\x00")
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		want := map[string][]string{}
		fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
		for i := 0; i+2 < len(fields)+1; i += 3 {
			want[fields[i]] = append(want[fields[i]], fields[i+1]+"="+fields[i+2])
		}
		if len(want) < 25 {
			t.Fatalf("git reported attributes for only %d paths: %q", len(want), out)
		}
		for _, p := range paths {
			var got []string
			for name, v := range s.attributes(p, attrCache{}) {
				switch v.state {
				case '+':
					got = append(got, name+"=set")
				case '-':
					got = append(got, name+"=unset")
				case '=':
					got = append(got, name+"="+v.value)
				}
			}
			sort.Strings(got)
			w := want[p]
			sort.Strings(w)
			if strings.Join(got, " ") != strings.Join(w, " ") {
				t.Errorf("ignorecase=%s %q: graft %v, git %v", ignoreCase, p, got, w)
			}
		}
	}
}
