package main

import (
	"fmt"
	"strings"

	"github.com/graftdev/graft/apply/syntax"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{Name: "languages", Args: "",
		Summary: "list the languages the syntax check knows, and which this build leaves unchecked",
		Run:     runLanguages})
}

func runLanguages(c *Context, _ *pflag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("languages takes no arguments")
	}
	var unchecked []string
	for _, l := range syntax.Languages() {
		checker := l.Checker
		if checker == "" {
			checker = "unchecked in this build (built without cgo)"
			unchecked = append(unchecked, l.Name)
		}
		fmt.Fprintf(c.Stdout, "%-11s %-45s %s\n", l.Name, checker, strings.Join(append(l.Extensions, l.Filenames...), " "))
	}
	if len(unchecked) > 0 {
		fmt.Fprintf(c.Stderr, "graft: not syntax-checked in this build: %s\n", strings.Join(unchecked, ", "))
	}
	return nil
}
