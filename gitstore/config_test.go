package gitstore

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/graftdev/graft/gitstore/internal/gitrepo"
)

// gitrepo.ParseConfig (go-git's decoder) reads every config text as git does:
// each variable with the same values in the same order (git config --list
// -z is the judge; a key without "=" reads as "", which go-git does not
// tell from an empty value), and a text neither reads is refused. go-git
// keeps runs of white space inside a value and the newline of a
// backslash-continued line, where git makes them single spaces: values
// are compared with white space runs made one space. go-git accepts a few
// texts git refuses (a comment after a bare key, a blank before a
// header's "]"), which do no harm: git refuses to run in such a
// repository.
func TestParseConfigAgreesWithGit(t *testing.T) {
	texts := []string{
		"[core]\n\tfilemode = false\n\tautocrlf = input\n",
		"[Core]\n\tFileMode = FALSE\n",
		"[core] bare = false\n[user]name=A B\n",
		"[user]\n\tname = \"  Quoted  Name  \"  # comment\n\temail = a@b ; other comment\n",
		"[user]\n\tname =   spaced   inner\t\truns  \n",
		"[user]\n\tname = a\\\n b\n",
		"[user]\n\tname = tab\\there\\nnewline \\\"q\\\" back\\\\slash \\bbs\n",
		"[user]\n\tname = half\" quoted ; kept \"end ; dropped\n",
		"[user]\r\n\tname = crlf\r\n\temail = x@y\r\n",
		"[remote \"origin\"]\n\turl = https://example.com/r.git\n[core]\n\teol = crlf\n",
		"[remote \"Or\\\"ig\\\\in\"]\n\turl = u\n",
		"[branch.Main]\n\tremote = origin\n",
		"; top comment\n# another\n\n[extensions]\n\tobjectFormat = sha256\n\trefStorage = files\n\tnoop\n",
		"[core]\n\tbare\n\tfilemode = no\n",
		"[a]\n\tk = 1\n[b]\n\tk = 2\n[a]\n\tk = 3\n",
		"[safe]\n\tdirectory = /x\n\tdirectory = *\n",
		"[user]\n\tname = \"unterminated\n",
		"[user]\n\tname = bad \\q escape\n",
		"name = outside\n[core]\n\tk = v\n",
		"[core]\n\tkey ; comment\n",
		"[core]\n\tkey = v ; c\n\tother\n",
		"[bad section\n",
		"[core]\n\t1key = x\n",
		"[core]\n\tkey value\n",
		"[sec \"sub\" ]\n\tk = v\n",
		"[user]\n\tname =\n\temail = \"\"\n",
		"[user]\n\tname = trailing\\\n",
		"[x-y.z]\n\tk-1 = v\n",
	}
	// And random texts from the pieces git's syntax is made of.
	pieces := []string{"[core]", "[Sec \"Sub\"]", "[a.B]", "[x", "\tk = v", "key=\"q ; #\"", " name = a  b\t c ",
		"v = a\\", "w = \\t\\n\\\\", "bare", "; c", "# c", "", "k = \"open", "k = x # y", "K-2 = \"\" \"\"",
		"k = \\x", "\r", "= v", "k = a\\\n b", "[s \"a\\\"b\"]"}
	rng := rand.New(rand.NewSource(11))
	for range 150 {
		var b strings.Builder
		for range 1 + rng.Intn(6) {
			b.WriteString(pieces[rng.Intn(len(pieces))])
			if rng.Intn(4) > 0 {
				b.WriteString("\n")
			} else {
				b.WriteString(" ")
			}
		}
		texts = append(texts, b.String())
	}
	for _, text := range texts {
		name := filepath.Join(t.TempDir(), "config")
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		out, gitErr := exec.Command("git", "config", "--file", name, "--no-includes", "--list", "-z").Output()
		cfg, err := gitrepo.ParseConfig([]byte(text), name)
		if gitErr == nil && err != nil {
			t.Errorf("%q: git error %v, ours %v", text, gitErr, err)
			continue
		}
		if err != nil || gitErr != nil {
			continue
		}
		want := map[string][]string{}
		for _, rec := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if rec != "" {
				k, v, _ := strings.Cut(rec, "\n")
				if strings.Contains(k, ".") { // graft reads no key outside a section
					want[k] = append(want[k], spaces(v))
				}
			}
		}
		got := map[string][]string{}
		cfg.Each(func(k, v string) { got[k] = append(got[k], spaces(v)) })
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q:\n ours %q\n git  %q", text, got, want)
		}
	}
}

// spaces makes every run of white space in v one space, and drops it at
// the ends.
func spaces(v string) string { return strings.Join(strings.Fields(v), " ") }
