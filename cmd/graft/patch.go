package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/graftdev/graft/apply"
	"github.com/spf13/pflag"
)

// graft patch: apply_patch for people, like git apply.

func init() {
	register(&command{Name: "patch", Args: "[FILE|-] [--check] [--reverse]",
		Summary: "apply a unified diff, Codex patch or SEARCH/REPLACE blocks (from FILE or stdin)",
		Paths:   1,
		Flags: func(fs *pflag.FlagSet) {
			fs.Bool("check", false, "only check that the patch applies; change nothing")
			fs.BoolP("reverse", "R", false, "apply the patch in reverse")
		},
		Run: runPatchCmd})
}

func runPatchCmd(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) > 1 {
		return usagef("patch: want at most one FILE (or - for stdin)")
	}
	var (
		text []byte
		err  error
	)
	if len(args) == 0 || args[0] == "-" {
		text, err = io.ReadAll(c.Stdin)
	} else {
		text, err = os.ReadFile(args[0])
	}
	if err != nil {
		return usagef("patch: %v", err)
	}
	check, _ := fs.GetBool("check")
	reverse, _ := fs.GetBool("reverse")
	req := apply.ApplyPatchRequest{Patch: string(text), Reverse: reverse}
	req.DryRun = check
	res, err := c.callTool("apply_patch", req)
	if err != nil {
		return err
	}
	printPatchResult(c, res.(*apply.ApplyPatchResult), check)
	return nil
}

// printPatchResult prints, like git apply, nothing on stdout for --check
// and the diff otherwise; on stderr one line per file saying how each
// hunk was located.
func printPatchResult(c *Context, r *apply.ApplyPatchResult, check bool) {
	for _, f := range r.Files {
		if !check {
			io.WriteString(c.Stdout, f.Diff)
		}
	}
	verb := "patched"
	if check {
		verb = "would patch"
	}
	for _, f := range r.Files {
		var hunks []string
		for _, h := range f.Hunks {
			how := h.Method
			if how != "exact" {
				how += fmt.Sprintf(" (similarity %.2f)", h.Similarity)
			}
			hunks = append(hunks, fmt.Sprintf("%s at line %d: %s", h.Edit, h.Line, how))
		}
		what := ""
		switch {
		case f.Created:
			what = " (created)"
		case f.Deleted:
			what = " (deleted)"
		}
		line := fmt.Sprintf("%s %s%s: +%d -%d", verb, f.Path, what, f.Additions, f.Deletions)
		if len(hunks) > 0 {
			line += " [" + strings.Join(hunks, ", ") + "]"
		}
		fmt.Fprintln(c.Stderr, line)
	}
	printUnchanged(c, r.Unchanged)
	if r.Commit != "" {
		fmt.Fprintf(c.Stderr, "%s %s\n", c.commitLabel(), r.Commit[:min(12, len(r.Commit))])
	}
}
