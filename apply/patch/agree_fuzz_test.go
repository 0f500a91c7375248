package patch_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/apply/patch"
	"github.com/graftdev/graft/matcher"
)

type memSource map[string][]byte

func (m memSource) ReadFile(path string) ([]byte, error) {
	if b, ok := m[path]; ok {
		return b, nil
	}
	return nil, os.ErrNotExist
}

// FuzzPatchAgreesWithEditAndGit: a one-hunk unified diff (a line changed
// or added, with up to three lines of context each side), written as
// models slip (context retyped with spaces where the file has tabs while
// the changed line keeps its tabs, a trailing space on the context, stale
// line numbers, "@@ @@"), lands wherever the same change sent as a string
// edit (old side to new side) lands, with the same content; it lands
// where git apply lands it when its old side stands once (git apply run
// on the same input, when git is installed); and when its old side
// stands at several places and its stated line names none of them exactly,
// it is refused, as the edit is.
func FuzzPatchAgreesWithEditAndGit(f *testing.F) {
	f.Add("package p\n\nfunc f() {\n\tx := 1\n\tif x > 0 {\n\t\tx++\n\t}\n\treturn\n}\n", uint8(5), uint8(2), uint8(1), uint8(1), int8(0))
	f.Add("a\nb\nc\nd\ne\nf\ng\n", uint8(3), uint8(3), uint8(0), uint8(3), int8(9))
	f.Add("\tif x {\n\t\ty()\n\t}\n\tz()\n\tif x {\n\t\ty()\n\t}\n", uint8(1), uint8(1), uint8(0), uint8(4), int8(0))
	f.Add("def f(x):\n    if x:\n        return 1\n    return 2\n", uint8(2), uint8(3), uint8(1), uint8(2), int8(-3))
	git, _ := exec.LookPath("git")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, content string, at, ctx, add, kind uint8, off int8) {
		if len(content) > 2000 || strings.ContainsAny(content, "\r\x00") || !strings.HasSuffix(content, "\n") {
			return
		}
		lines := strings.SplitAfter(content, "\n")
		lines = lines[:len(lines)-1]
		for _, l := range lines {
			if l == "\n" || strings.TrimSpace(l) == "" && l != "\n" || strings.HasPrefix(l, "\\") || strings.TrimRight(l, " \t\n") != strings.TrimSuffix(l, "\n") {
				return // blank lines only empty, no trailing blanks
			}
			for _, c := range []byte(l) {
				if c >= 0x80 || c < 0x20 && c != '\t' && c != '\n' {
					return
				}
			}
		}
		if len(lines) < 2 {
			return
		}
		k := int(at) % len(lines)
		c := int(ctx)%3 + 1
		from, to := max(0, k-c), min(len(lines), k+1+c)
		changed := strings.TrimSuffix(lines[k], "\n") + "X\n"
		var newK []string
		if add%2 == 0 {
			newK = []string{changed}
		} else {
			newK = []string{lines[k], indentOf(lines[k]) + "added()\n"}
		}
		want := strings.Join(lines[:k], "") + strings.Join(newK, "") + strings.Join(lines[k+1:], "")
		// The slip: 0 none, 1 context retyped with spaces (mixed tabs),
		// 2 a trailing space on the context, 3 stale numbers, 4 "@@ @@".
		kind %= 5
		ctxLine := func(l string) string {
			switch kind {
			case 1:
				ind := indentOf(l)
				return strings.ReplaceAll(ind, "\t", "    ") + l[len(ind):]
			case 2:
				return strings.TrimSuffix(l, "\n") + " \n"
			}
			return l
		}
		var hl, oldSide, newSide []string
		for i := from; i < to; i++ {
			if i == k {
				hl = append(hl, "-"+lines[k])
				oldSide = append(oldSide, lines[k])
				for _, n := range newK {
					hl = append(hl, "+"+n)
					newSide = append(newSide, n)
				}
				continue
			}
			cl := ctxLine(lines[i])
			hl = append(hl, " "+cl)
			oldSide = append(oldSide, cl)
			newSide = append(newSide, cl)
		}
		stated := from + 1
		if kind == 3 {
			stated = max(1, stated+int(off))
		}
		header := fmt.Sprintf("@@ -%d,%d +%d,%d @@\n", stated, to-from, stated, to-from-1+len(newK))
		if kind == 4 {
			header = "@@ @@\n"
		}
		diff := "--- a/f\n+++ b/f\n" + header + strings.Join(hl, "")
		p, err := patch.Parse(diff)
		if err != nil {
			return // lines that read as patch syntax
		}
		var got []byte
		res, perr := patch.Apply(p, memSource{"f": []byte(content)}, patch.Options{})
		if perr == nil {
			got = res.Changes[0].New
		}
		oldText, newText := strings.Join(oldSide, ""), strings.Join(newSide, "")
		edited, ms, eerr := apply.EditContent([]byte(content), oldText, newText, false, matcher.Options{})
		whole := eerr == nil && (ms[0].Start == 0 || content[ms[0].Start-1] == '\n')
		if whole {
			if perr != nil {
				t.Fatalf("the edit lands, the patch is refused: %v\n%s", perr, diff)
			}
			if !bytes.Equal(got, edited) {
				t.Fatalf("the edit and the patch land differently:\nedit  %q\npatch %q\n%s", edited, got, diff)
			}
		}
		exact := strings.Join(lines[from:to], "")
		places := 0
		for i := 0; i+to-from <= len(lines); i++ {
			if strings.Join(lines[i:i+to-from], "") == exact {
				places++
			}
		}
		if kind == 0 || kind == 3 {
			statedExact := stated-1+to-from <= len(lines) && strings.Join(lines[stated-1:stated-1+to-from], "") == exact
			if places > 1 && !statedExact && perr == nil {
				t.Fatalf("the old side stands %d times, none at the stated line, and the patch landed:\n%s", places, diff)
			}
			if places == 1 && (perr != nil || string(got) != want) {
				t.Fatalf("an exact hunk standing once did not land as the change: %v\n%s", perr, diff)
			}
			if git != "" && places == 1 {
				if g, ok := gitApply(t, git, dir, content, diff); ok && g != string(got) {
					t.Fatalf("git apply lands it otherwise:\ngit   %q\ngraft %q\n%s", g, got, diff)
				}
			}
		}
		if perr == nil && kind != 0 && kind != 3 && places == 1 && string(got) != want {
			t.Fatalf("landed, but not as the change:\n got %q\nwant %q\n%s", got, want, diff)
		}
	})
}

// gitApply runs git apply on diff in a scratch directory holding f.
func gitApply(t *testing.T, git, dir, content, diff string) (string, bool) {
	work, err := os.MkdirTemp(dir, "git")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(work)
	if err := os.WriteFile(filepath.Join(work, "f"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	pf := filepath.Join(work, "p.diff")
	if err := os.WriteFile(pf, []byte(diff), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(git, "apply", "p.diff")
	cmd.Dir = work
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+work)
	if cmd.Run() != nil {
		return "", false
	}
	b, err := os.ReadFile(filepath.Join(work, "f"))
	return string(b), err == nil
}

func indentOf(s string) string {
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}
