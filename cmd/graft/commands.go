package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/apply/lineedit"
	"github.com/spf13/pflag"
)

func init() {
	register(&command{Name: "call", Args: "TOOL [ARGS|-|@FILE]",
		Summary: "run a tool with JSON arguments; print its JSON result", More: listTools, Run: runCall})
	register(&command{Name: "tools", Args: "",
		Summary: "list the tools with their JSON input schemas", Run: runTools})
	register(&command{Name: "read", Args: "PATH[:START-END]",
		Summary: "print a file with line numbers", Paths: 1, Run: runRead})
	register(&command{Name: "edit", Args: "PATH --old TEXT --new TEXT [--all]",
		Summary: "replace text in a file",
		Paths:   1,
		Flags: func(fs *pflag.FlagSet) {
			fs.String("old", "", "the text to replace")
			fs.String("new", "", "the replacement text")
			fs.String("old-file", "", "read the text to replace from `FILE`")
			fs.String("new-file", "", "read the replacement text from `FILE`")
			fs.Bool("all", false, "replace every occurrence")
			fs.Bool("dry-run", false, "show the diff without changing the file")
		},
		Run: runEditCmd})
}

// runCall is the machine interface: the same tools, arguments and results
// as MCP.
func runCall(c *Context, _ *pflag.FlagSet, args []string) error {
	if len(args) < 1 || len(args) > 2 {
		return usagef("call: want TOOL [ARGS|-|@FILE]")
	}
	c.jsonErrors = true
	raw := "{}"
	if len(args) == 2 {
		var err error
		if raw, err = readArg(c, args[1]); err != nil {
			return err
		}
	}
	e, err := c.Engine()
	if err != nil {
		return printJSONError(c, err)
	}
	res, err := c.call(e, args[0], json.RawMessage(raw))
	if err != nil {
		return printJSONError(c, err)
	}
	if err := writeJSON(c.Stdout, res); err != nil {
		return err
	}
	if s, ok := res.(interface{ Succeeded() bool }); ok && !s.Succeeded() {
		fmt.Fprintln(c.Stderr, "graft: partly applied: not every edit succeeded; results lists each edit, files what landed")
		return errPartial
	}
	return nil
}

// listTools writes, for graft call --help, each tool's name and the first
// sentence of its description.
func listTools(w io.Writer) {
	tools := apply.Tools()
	width := 0
	for _, t := range tools {
		width = max(width, len(t.Name))
	}
	fmt.Fprintln(w, "Tools (graft tools prints their descriptions and JSON schemas):")
	for _, t := range tools {
		fmt.Fprintf(w, "  %-*s %s\n", width, t.Name, firstSentence(t.Description))
	}
}

// firstSentence is the first sentence of a description's first
// paragraph, on one line. A full stop inside parentheses or quotes (an
// example such as ("// ... existing code ...")) ends no sentence.
func firstSentence(desc string) string {
	para, _, _ := strings.Cut(strings.TrimSpace(desc), "\n\n")
	para = strings.Join(strings.Fields(para), " ")
	depth, quoted := 0, false
	for i := 0; i < len(para); i++ {
		switch para[i] {
		case '(':
			depth++
		case ')':
			depth = max(depth-1, 0)
		case '"':
			quoted = !quoted
		case '.':
			if depth == 0 && !quoted && (i+1 == len(para) || para[i+1] == ' ') && !abbreviationAt(para, i) {
				return para[:i+1]
			}
		}
	}
	return para
}

// abbreviationAt reports whether the full stop at s[i] ends an
// abbreviation such as "e.g." or "i.e." rather than a sentence.
func abbreviationAt(s string, i int) bool {
	for _, a := range []string{"e.g", "i.e", "etc", "vs"} {
		if strings.HasSuffix(s[:i], a) {
			return true
		}
	}
	return false
}

// readArg reads a JSON argument given inline, as "-" (stdin) or "@FILE".
func readArg(c *Context, arg string) (string, error) {
	switch {
	case arg == "-":
		b, err := io.ReadAll(c.Stdin)
		return string(b), err
	case strings.HasPrefix(arg, "@"):
		b, err := os.ReadFile(arg[1:])
		if err != nil {
			return "", usagef("%v", err)
		}
		return string(b), nil
	}
	return arg, nil
}

func printJSONError(c *Context, err error) error {
	_ = writeJSON(c.Stdout, map[string]any{"error": apply.ToJSON(err)})
	return err
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

func runTools(c *Context, _ *pflag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("tools takes no arguments")
	}
	type entry struct {
		Name         string `json:"name"`
		Description  string `json:"description"`
		ReadOnly     bool   `json:"read_only,omitempty"`
		InputSchema  any    `json:"input_schema"`
		OutputSchema any    `json:"output_schema"`
	}
	var out []entry
	for _, t := range apply.Tools() {
		out = append(out, entry{t.Name, t.Description, t.ReadOnly, t.InputSchema(), t.OutputSchema()})
	}
	return writeJSON(c.Stdout, out)
}

var rangeSuffix = lazyRegexp(`:(\d+)(?:-(\d*))?$`)

func runRead(c *Context, _ *pflag.FlagSet, args []string) error {
	if len(args) != 1 {
		return usagef("read: want PATH[:START-END]")
	}
	req := apply.FileReadRequest{Path: args[0]}
	if m := rangeSuffix().FindStringSubmatch(args[0]); m != nil {
		if _, err := os.Stat(args[0]); err != nil { // a file really named "x:3" wins
			req.Path = strings.TrimSuffix(args[0], m[0])
			req.StartLine, _ = strconv.Atoi(m[1])
			req.EndLine = req.StartLine
			if strings.Contains(m[0], "-") {
				req.EndLine, _ = strconv.Atoi(m[2]) // "10-" reads to the end
			}
		}
	}
	res, err := c.callTool("file_read", req)
	if err != nil {
		return err
	}
	_, err = io.WriteString(c.Stdout, res.(*apply.FileReadResult).Content)
	return err
}

func runEditCmd(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) != 1 {
		return usagef("edit: want PATH --old TEXT --new TEXT")
	}
	text := func(flag, fileFlag string) (string, error) {
		v, _ := fs.GetString(flag)
		file, _ := fs.GetString(fileFlag)
		switch {
		case fs.Changed(flag) && fs.Changed(fileFlag):
			return "", usagef("edit: give --%s or --%s, not both", flag, fileFlag)
		case fs.Changed(fileFlag):
			b, err := os.ReadFile(file)
			if err != nil {
				return "", usagef("edit: %v", err)
			}
			return string(b), nil
		case !fs.Changed(flag):
			return "", usagef("edit: --%s or --%s is required", flag, fileFlag)
		}
		return v, nil
	}
	oldText, err := text("old", "old-file")
	if err != nil {
		return err
	}
	newText, err := text("new", "new-file")
	if err != nil {
		return err
	}
	all, _ := fs.GetBool("all")
	dry, _ := fs.GetBool("dry-run")
	req := apply.EditRequest{FilePath: args[0], OldString: oldText, NewString: newText, ReplaceAll: all}
	req.DryRun = dry
	res, err := c.callTool("edit", req)
	if err != nil {
		return err
	}
	printLanding(c, res.(*apply.Landing))
	return nil
}

// printLanding shows people what a call did: the diff on stdout, a summary
// line on stderr.
func printLanding(c *Context, l *apply.Landing) {
	for _, f := range l.Files {
		io.WriteString(c.Stdout, f.Diff)
	}
	for _, f := range l.Files {
		how := ""
		for _, h := range f.Hunks {
			if h.Method != "exact" && h.Method != "lines" && h.Method != "symbol" {
				how = fmt.Sprintf(" [located: %s, similarity %.2f]", h.Method, h.Similarity)
			}
			if h.Symbol != "" {
				how += " [symbol: " + h.Symbol + "]"
			}
		}
		verb := "edited"
		if l.DryRun {
			verb = "would edit"
		}
		fmt.Fprintf(c.Stderr, "%s %s: +%d -%d%s\n", verb, f.Path, f.Additions, f.Deletions, how)
	}
	printUnchanged(c, l.Unchanged)
	if l.Commit != "" {
		fmt.Fprintf(c.Stderr, "%s %s\n", c.commitLabel(), l.Commit[:min(12, len(l.Commit))])
	}
}

// printUnchanged names the operations of a batch that changed nothing
// (old and new text the same), which the call reports and does not apply.
func printUnchanged(c *Context, us []apply.Unchanged) {
	for _, u := range us {
		name := u.Edit
		if name != "" {
			name += " "
		}
		fmt.Fprintf(c.Stderr, "%s%s (%s): %s\n", name, u.Path, lineedit.Desc(u.Line, u.EndLine), u.Note)
	}
}

// printCandidates lists a refusal's near misses for people, after its
// summary line: where each is and its text, then how many more places
// there are when the refusal counts more than it lists.
func printCandidates(w io.Writer, err error) {
	j := apply.ToJSON(err)
	for _, cand := range j.Candidates {
		where := fmt.Sprintf("line %d", cand.Line)
		if cand.EndLine > cand.Line {
			where = fmt.Sprintf("lines %d-%d", cand.Line, cand.EndLine)
		}
		fmt.Fprintf(w, "candidate at %s (similarity %.2f)%s:\n", where, cand.Similarity, reasonSuffix(cand.Reason))
		for _, l := range strings.SplitAfter(strings.TrimSuffix(cand.Text, "\n"), "\n") {
			fmt.Fprintf(w, "  | %s", strings.TrimSuffix(l, "\n")+"\n")
		}
	}
	if more := j.Count - len(j.Candidates); len(j.Candidates) > 0 && more > 0 {
		fmt.Fprintf(w, "and %d more\n", more)
	}
}

func reasonSuffix(r string) string {
	if r == "" {
		return ""
	}
	return " — " + r
}
