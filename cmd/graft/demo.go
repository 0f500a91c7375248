package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
)

func init() {
	register(&command{Name: "demo", Args: "[DIR]",
		Summary: "walk through edits, a diff and an undo in a scratch repository",
		Paths:   1,
		Run:     runDemo})
}

const demoFile = `package shop

import "fmt"

// Total sums the prices of the items.
func Total(prices []float64) float64 {
	var sum float64
	for _, p := range prices {
		sum += p
	}
	return sum
}

func Describe(prices []float64) string {
	return fmt.Sprintf("%d items, total %.2f", len(prices), Total(prices))
}
`

// demoStep is one graft command the demo runs, with a line saying why.
type demoStep struct {
	why  string
	args []string
}

func runDemo(c *Context, _ *pflag.FlagSet, args []string) error {
	if len(args) > 1 {
		return usagef("demo: want at most one DIR")
	}
	// A scratch repository of our own is removed afterwards, whatever
	// happens; a DIR given is the user's to keep and look around.
	dir, scratch := "", len(args) == 0
	if scratch {
		var err error
		if dir, err = os.MkdirTemp("", "graft-demo-"); err != nil {
			return err
		}
		defer os.RemoveAll(dir)
	} else {
		dir = args[0]
		if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
			return usagef("demo: %s is not empty: give a new or empty DIR", dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	dir, _ = filepath.Abs(dir)
	if err := os.WriteFile(filepath.Join(dir, "shop.go"), []byte(demoFile), 0o644); err != nil {
		return err
	}
	for _, g := range [][]string{
		{"init", "-q"},
		{"symbolic-ref", "HEAD", "refs/heads/main"},
		{"add", "shop.go"},
		{"-c", "user.name=graft demo", "-c", "user.email=demo@graft.invalid", "commit", "-q", "-m", "shop: first version"},
	} {
		cmd := exec.Command("git", g...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("demo needs git: git %s: %v: %s", strings.Join(g, " "), err, out)
		}
	}
	fmt.Fprintf(c.Stdout, "graft demo in %s (a scratch git repository with shop.go)\n", dir)
	steps := []demoStep{
		{"Read the file with line numbers.", []string{"read", "shop.go:5-12"}},
		{"Replace a string; the diff is printed.", []string{"edit", "shop.go", "--old", "var sum float64", "--new", "sum := 0.0"}},
		{"Several changes in one call, line numbers all from before the call.", []string{"call", "replace_in_file",
			`{"filePath":"shop.go","replacements":[` +
				`{"type":"insert_before","lineNumber":14,"insertText":"// Describe summarises a basket."},` +
				`{"type":"string","searchFor":"items, total","replaceWith":"items, total:"}]}`}},
		{"An old text that is not in the file is refused, and nothing changes.", []string{"edit", "shop.go", "--old", "return total", "--new", "return sum"}},
	}
	if _, ok := commands["log"]; ok {
		steps = append(steps, demoStep{"Every call is a commit on the journal ref.", []string{"log"}})
	}
	if _, ok := commands["undo"]; ok {
		steps = append(steps, demoStep{"Undo the last call, git-style.", []string{"undo"}})
	}
	if _, ok := commands["diff"]; ok {
		steps = append(steps, demoStep{"Everything graft did since the branch's HEAD.", []string{"diff"}})
	}
	for _, s := range steps {
		fmt.Fprintf(c.Stdout, "\n# %s\n$ graft %s\n", s.why, quoteArgs(s.args))
		code := Main(append([]string{"-C", dir}, s.args...), c.Stdin, c.Stdout, c.Stdout)
		fmt.Fprintf(c.Stdout, "(exit %d)\n", code)
	}
	if scratch {
		fmt.Fprintf(c.Stdout, "\nThe scratch repository is removed now; run graft demo DIR to keep one and look around.\n")
		return nil
	}
	fmt.Fprintf(c.Stdout, "\nLook around: cd %s && git log -p refs/graft/main\n", dir)
	return nil
}

func quoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if strings.ContainsAny(a, " \"{}$'") {
			a = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		out[i] = a
	}
	return strings.Join(out, " ")
}
