package matcher

import (
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"
)

// applyEdit does what the engine does with a match: Adapt the new text,
// give its line breaks the line ending of the block's first line, and
// splice it in.
func applyEdit(content []byte, m Match, newText string) []byte {
	text := m.Adapt(newText)
	eol := "\n"
	if i := strings.IndexByte(string(content[m.Start:]), '\n'); i > 0 && content[m.Start+i-1] == '\r' {
		eol = "\r\n"
	} else if i < 0 && strings.Contains(string(content), "\r\n") {
		eol = "\r\n"
	}
	text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", eol)
	out := append([]byte{}, content[:m.Start]...)
	out = append(out, text...)
	return append(out, content[m.End:]...)
}

// caseOf reads one txtar table case. The comment holds "key: value"
// options:
//
//	tier: the tier the match must report (a success case)
//	refuse: not-found | ambiguous (a refusal case)
//	reason: a substring the refusal's reason must contain
//	not-reason: a substring the refusal's reason must not contain
//	hint: Options.Hint
//	exact-only: true for Options.ExactOnly
//	no-newtext: true to leave Options.NewText empty
//	nonl: sections whose final line break is dropped (e.g. "old new want")
//	crlf: sections whose line breaks become "\r\n"
//	line: the 1-based first line the match must report
type tcase struct {
	opts                   map[string]string
	content, old, nw, want string
}

func readCase(t *testing.T, path string) tcase {
	t.Helper()
	ar, err := txtar.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	c := tcase{opts: map[string]string{}}
	for _, l := range strings.Split(string(ar.Comment), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok {
			c.opts[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	has := func(opt, name string) bool {
		return strings.Contains(" "+c.opts[opt]+" ", " "+name+" ")
	}
	for _, f := range ar.Files {
		d := string(f.Data)
		if has("nonl", f.Name) {
			d = strings.TrimSuffix(d, "\n")
		}
		if has("crlf", f.Name) {
			d = strings.ReplaceAll(d, "\n", "\r\n")
		}
		switch f.Name {
		case "content":
			c.content = d
		case "old":
			c.old = d
		case "new":
			c.nw = d
		case "want":
			c.want = d
		default:
			t.Fatalf("%s: unknown section %q", path, f.Name)
		}
	}
	return c
}

func TestTable(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no testdata")
	}
	for _, path := range files {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			c := readCase(t, path)
			opt := Options{ExactOnly: c.opts["exact-only"] == "true"}
			if h := c.opts["hint"]; h != "" {
				opt.Hint, _ = strconv.Atoi(h)
			}
			if c.opts["no-newtext"] != "true" {
				opt.NewText = c.nw
			}
			m, err := Find([]byte(c.content), c.old, opt)
			if want := c.opts["refuse"]; want != "" {
				if err == nil {
					t.Fatalf("found %+v (tier %s), want refusal %s; result:\n%s", m, m.Tier, want, applyEdit([]byte(c.content), m, c.nw))
				}
				kind := map[string]error{"not-found": ErrNotFound, "ambiguous": ErrAmbiguous}[want]
				if !errors.Is(err, kind) {
					t.Fatalf("err = %v, want %s", err, want)
				}
				if r := c.opts["reason"]; r != "" && !strings.Contains(err.Error(), r) {
					t.Errorf("err = %q, want it to contain %q", err, r)
				}
				if r := c.opts["not-reason"]; r != "" && strings.Contains(err.Error(), r) {
					t.Errorf("err = %q, want it not to say %q", err, r)
				}
				t.Logf("refusal: %v", err)
				var rf *Refusal
				errors.As(err, &rf)
				for _, cd := range rf.Candidates {
					t.Logf("  candidate %d-%d %.3f %q: %s", cd.Line, cd.EndLine, cd.Similarity, cd.Text, cd.Reason)
				}
				if n := c.opts["candidates"]; n != "" && strconv.Itoa(len(rf.Candidates)) != n {
					t.Errorf("%d candidates, want %s", len(rf.Candidates), n)
				}
				if l := c.opts["line"]; l != "" && (len(rf.Candidates) == 0 || strconv.Itoa(rf.Candidates[0].Line) != l) {
					t.Errorf("first candidate %+v, want line %s", rf.Candidates, l)
				}
				return
			}
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			if tier := c.opts["tier"]; tier != "" && string(m.Tier) != tier {
				t.Errorf("tier = %s, want %s", m.Tier, tier)
			}
			if l := c.opts["line"]; l != "" && strconv.Itoa(m.Line) != l {
				t.Errorf("line = %d, want %s", m.Line, l)
			}
			if m.Tier != Exact && (m.Similarity <= 0 || m.Similarity > 1) {
				t.Errorf("similarity %v out of (0,1]", m.Similarity)
			}
			got := string(applyEdit([]byte(c.content), m, c.nw))
			if got != c.want {
				t.Errorf("result differs (tier %s)\ngot:\n%q\nwant:\n%q", m.Tier, got, c.want)
			}
			// Replacing the old text by itself changes nothing: Adapt
			// maps the old text back onto the file's own bytes.
			if same := string(applyEdit([]byte(c.content), m, c.old)); same != c.content {
				t.Errorf("Adapt(old) is not the located text:\ngot:\n%q\nwant:\n%q", same, c.content)
			}
		})
	}
}
