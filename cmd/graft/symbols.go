package main

import (
	"io"
	"os"

	"github.com/graftdev/graft/apply"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{Name: "outline", Args: "PATH [--depth N]",
		Summary: "list a file's declarations: lines, kind, name path",
		Flags: func(fs *pflag.FlagSet) {
			fs.Int("depth", 0, "levels to list (0: all; config files default 2)")
		},
		Run: runOutline})
	register(&command{Name: "symbol", Args: "PATH SYMBOL [--action A] [--content T | --content-file F] [--line N]",
		Summary: "replace, insert beside or delete a declaration named by its path",
		Flags: func(fs *pflag.FlagSet) {
			fs.String("action", "replace", "replace, insert_before, insert_after or delete")
			fs.String("content", "", "the new text (a config key: its new value)")
			fs.String("content-file", "", "read the new text from `FILE` (- for stdin)")
			fs.Int("line", 0, "a line of the symbol, to pick among several of one name")
			fs.Bool("dry-run", false, "show the diff without changing the file")
		},
		Run: runSymbol})
}

func runOutline(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) != 1 {
		return usagef("outline: want PATH")
	}
	depth, _ := fs.GetInt("depth")
	res, err := c.callTool("file_outline", apply.FileOutlineRequest{Path: args[0], Depth: depth})
	if err != nil {
		return err
	}
	_, err = io.WriteString(c.Stdout, res.(*apply.FileOutlineResult).Outline)
	return err
}

func runSymbol(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) != 2 {
		return usagef("symbol: want PATH SYMBOL")
	}
	req := apply.EditSymbolRequest{Path: args[0], Symbol: args[1]}
	req.Action, _ = fs.GetString("action")
	req.Line, _ = fs.GetInt("line")
	req.DryRun, _ = fs.GetBool("dry-run")
	switch {
	case fs.Changed("content") && fs.Changed("content-file"):
		return usagef("symbol: give --content or --content-file, not both")
	case fs.Changed("content-file"):
		name, _ := fs.GetString("content-file")
		var b []byte
		var err error
		if name == "-" {
			b, err = io.ReadAll(c.Stdin)
		} else {
			b, err = os.ReadFile(name)
		}
		if err != nil {
			return usagef("symbol: %v", err)
		}
		s := string(b)
		req.Content = &s
	case fs.Changed("content"):
		s, _ := fs.GetString("content")
		req.Content = &s
	case req.Action != "delete":
		return usagef("symbol: --content or --content-file is required for %s", req.Action)
	}
	res, err := c.callTool("edit_symbol", req)
	if err != nil {
		return err // printError shows the candidates
	}
	printLanding(c, res.(*apply.Landing))
	return nil
}
