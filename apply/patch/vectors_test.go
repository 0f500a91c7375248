package patch

import (
	"bufio"
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/graftdev/graft/internal/lineindex"
	"github.com/graftdev/graft/internal/textedit"
)

// memSource is a Source over a map of paths to contents.
type memSource map[string][]byte

func (m memSource) ReadFile(path string) ([]byte, error) {
	if b, ok := m[path]; ok {
		return b, nil
	}
	return nil, fs.ErrNotExist
}

// TestGitdiffVectors runs go-gitdiff's own apply vectors (copied into
// fixtures/patch/gitdiff with their license) through Parse and Apply: the
// source file sits at the path the patch names, and the result must be the
// vector's output byte for byte, or the error of the stated kind.
func TestGitdiffVectors(t *testing.T) {
	dir := filepath.Join("..", "..", "fixtures", "patch", "gitdiff")
	f, err := os.Open(filepath.Join(dir, "vectors.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		n++
		name, srcName, patchName, want := fields[0], fields[1], fields[2], fields[3]
		var opt Options
		fragment := false
		for _, o := range fields[4:] {
			if v, ok := strings.CutPrefix(o, "limit="); ok {
				opt.MaxBinaryBytes, _ = strconv.ParseInt(v, 10, 64)
			}
			fragment = fragment || o == "fragment"
		}
		t.Run(name, func(t *testing.T) {
			src := readFixture(t, dir, srcName)
			text := readFixture(t, dir, patchName)
			p, err := Parse(string(text))
			if err == nil {
				fp := p.Files[0]
				res, aerr := Apply(p, memSource{fp.Name(): src, fp.OldPath: src}, opt)
				err = aerr
				if err == nil {
					if len(res.Changes) != 1 {
						t.Fatalf("want one change, got %d", len(res.Changes))
					}
					got := res.Changes[0].New
					if strings.HasPrefix(want, "!") {
						t.Fatalf("applied, want error %s; got %q", want, got)
					}
					out := readFixture(t, dir, want)
					if fragment {
						h := fp.Hunks[0]
						out = append(out, src[lineindex.Skip(src, 0, h.OldStart-1+len(h.OldLines())):]...)
					}
					if !bytes.Equal(got, out) {
						t.Fatalf("wrong result:\n got %q\nwant %q", got, out)
					}
					if fp.IsDelete != (res.Changes[0].New == nil) {
						t.Fatalf("deleted = %v, want %v", res.Changes[0].New == nil, fp.IsDelete)
					}
					if fp.NewMode != fp.OldMode && res.Changes[0].Mode != fp.NewMode {
						t.Fatalf("mode %o, want %o", res.Changes[0].Mode, fp.NewMode)
					}
					return
				}
			}
			kinds := map[string]error{"!conflict": ErrConflict, "!malformed": ErrMalformed}
			switch {
			case !strings.HasPrefix(want, "!"):
				t.Fatalf("error: %v", err)
			case !errors.Is(err, kinds[want]):
				t.Fatalf("error %v, want kind %s", err, want)
			}
			var pe *textedit.Error
			if !errors.As(err, &pe) || pe.Path == "" && !strings.Contains(pe.Msg, "patch line") {
				t.Fatalf("error %v names neither a file nor a patch line", err)
			}
			t.Logf("refused as expected: %v", err)
		})
	}
	if n < 30 {
		t.Fatalf("only %d vectors read", n)
	}
}

func readFixture(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}
