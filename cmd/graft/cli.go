package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"sort"
	"strings"

	"github.com/graftdev/graft/apply"
	"github.com/spf13/pflag"
)

// Exit codes, in one place.
const (
	exitApplied = 0 // the call landed, or a read-only command succeeded
	exitRefused = 1 // no match, ambiguous, conflict, invalid request, check failed, disk full: nothing changed
	exitError   = 2 // usage or internal error
	exitPartial = 3 // partly applied: a non-atomic batch landed some edits, the result says which
)

// exitCode maps an error to the process's exit code.
func exitCode(err error) int {
	var u *usageError
	switch {
	case err == nil:
		return exitApplied
	case errors.As(err, &u):
		return exitError
	case errors.Is(err, errPartial):
		return exitPartial
	case apply.CodeOf(err) == apply.CodeInternal:
		return exitError
	}
	return exitRefused
}

// errPartial reports, once the result is printed, a result that says not
// every part of the call succeeded: a non-atomic multi_edit that landed
// some edits and not others.
var errPartial = errors.New("partly applied")

// usageError is a mistake in the command line. cmd is the command whose
// usage it concerns ("" for the global options), for the pointer to its
// help.
type usageError struct{ msg, cmd string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// command is one `graft COMMAND`. Each file registers its commands from
// init, so that features plug in without touching this file.
type command struct {
	Name    string
	Args    string // synopsis of the arguments, for help
	Summary string
	// Flags, if set, declares the command's flags on fs before parsing.
	Flags func(fs *pflag.FlagSet)
	// Paths is how many arguments after "--" are paths taken as they are
	// (a file named -x.txt); flags may follow them. 0: every argument
	// after "--" is an argument, as pflag does.
	Paths int
	// More, if set, writes more help after the flags (graft call lists
	// the tools).
	More func(w io.Writer)
	Run  func(c *Context, fs *pflag.FlagSet, args []string) error
}

var commands = map[string]*command{}

func register(c *command) {
	if _, dup := commands[c.Name]; dup {
		panic("graft: command registered twice: " + c.Name)
	}
	commands[c.Name] = c
}

// Context is what a command runs with: standard streams, global options,
// and the engine opened on first use.
type Context struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer

	Dir     string // -C
	Verbose bool   // -v
	Match   string // --match exact|fuzzy
	Check   string // --check reject|warn|off
	// Extra holds global flags added by other files (see globalFlags).
	Extra map[string]any

	logger *slog.Logger
	engine *apply.Engine
	bar    *progressBar // on a terminal only
	// jsonErrors is set by a command that prints its errors as JSON on
	// stdout, candidates included (graft call): stderr gets the summary.
	jsonErrors bool
}

// globalFlags lets feature files add global options; each function is run
// on the global flag set before parsing.
var globalFlags []func(fs *pflag.FlagSet, c *Context)

// engineOptions lets feature files adjust the engine's options from the
// parsed global flags before the engine opens.
var engineOptions []func(c *Context, o *apply.Options) error

// Engine opens the engine on the worktree of -C (or the working directory).
func (c *Context) Engine() (*apply.Engine, error) {
	if c.engine != nil {
		return c.engine, nil
	}
	opts := apply.Options{Dir: c.Dir, Logger: c.logger, ExactMatch: c.Match == "exact", Check: apply.CheckMode(c.Check)}
	// The file versions a call replaces (each file's old content, the
	// ref's old file) are freed once the call has released the
	// repository's lock (Main, or the MCP server after each answer), not
	// inside it: freeing can wait for the disk (discarded blocks), and
	// writers queued on the lock need not.
	opts.Store.DeferFrees = true
	if isTerminal(c.Stderr) {
		c.bar = newProgressBar(c.Stderr)
		opts.Progress = c.bar.update
	}
	for _, f := range engineOptions {
		if err := f(c, &opts); err != nil {
			return nil, err
		}
	}
	e, err := apply.Open(opts)
	if err != nil {
		return nil, err
	}
	c.engine = e
	return e, nil
}

// releaseReplaced frees the file versions the engine's calls replaced
// (OpenOptions.DeferFrees), now that no lock is held.
func (c *Context) releaseReplaced() {
	if c.engine == nil {
		return
	}
	if release := c.engine.Store().ReleaseReplaced(); release != nil {
		release()
	}
}

// callTool runs a tool for a people-facing command: req is the tool's
// request value, encoded as `graft call` would receive it.
func (c *Context) callTool(tool string, req any) (any, error) {
	e, err := c.Engine()
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, err
	}
	return c.call(e, tool, b)
}

// Main runs graft with args (without the program name) and returns the
// exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &Context{Stdin: stdin, Stdout: stdout, Stderr: stderr, Extra: map[string]any{}}
	err := run(c, args)
	c.releaseReplaced()
	if err != nil && !errors.Is(err, errPartial) {
		printError(c, err)
	}
	return exitCode(err)
}

// printError tells people why a command failed, on stderr: one summary
// line, then what the error shows on lines of its own (a code excerpt, the
// diff of a change underneath), then the candidates of a refused match,
// then for a usage error where to find the usage.
func printError(c *Context, err error) {
	w := c.Stderr
	fmt.Fprintf(w, "graft: %s\n", strings.TrimSpace(err.Error()))
	if !c.jsonErrors {
		printCandidates(w, err)
	}
	var u *usageError
	if errors.As(err, &u) {
		if u.cmd != "" {
			fmt.Fprintf(w, "run 'graft %s --help' for usage\n", u.cmd)
		} else {
			fmt.Fprintln(w, "run 'graft help' for usage")
		}
	}
}

func run(c *Context, args []string) error {
	fs := pflag.NewFlagSet("graft", pflag.ContinueOnError)
	fs.SetInterspersed(false)
	fs.SetOutput(io.Discard)
	fs.StringVarP(&c.Dir, "directory", "C", "", "run as if graft was started in `DIR`")
	fs.BoolVarP(&c.Verbose, "verbose", "v", false, "debug logs on stderr")
	fs.StringVar(&c.Match, "match", "fuzzy", "`exact` or fuzzy matching of old text")
	fs.StringVar(&c.Check, "check", "reject", "syntax check: `reject` edits that add a syntax error, warn, or off")
	help := fs.BoolP("help", "h", false, "show help")
	version := fs.Bool("version", false, "print graft's version")
	for _, f := range globalFlags {
		f(fs, c)
	}
	if err := fs.Parse(args); err != nil {
		return usagef("%v", err)
	}
	if *version {
		fmt.Fprintf(c.Stdout, "graft %s\n", versionString())
		return nil
	}
	if c.Match != "exact" && c.Match != "fuzzy" {
		return usagef("--match must be exact or fuzzy, not %q", c.Match)
	}
	switch apply.CheckMode(c.Check) {
	case apply.CheckReject, apply.CheckWarn, apply.CheckOff:
	default:
		return usagef("--check must be reject, warn or off, not %q", c.Check)
	}
	level := slog.LevelWarn
	if c.Verbose {
		level = slog.LevelDebug
	}
	c.logger = slog.New(slog.NewTextHandler(c.Stderr, &slog.HandlerOptions{Level: level}))
	rest := fs.Args()
	switch {
	case *help:
		printHelp(c.Stdout, fs)
		return nil
	case len(rest) == 0:
		printHelp(c.Stdout, fs)
		return usagef("no command given")
	case rest[0] == "help":
		return runHelp(c, fs, rest[1:])
	}
	cmd, ok := commands[rest[0]]
	if !ok {
		return usagef("unknown command %q", rest[0])
	}
	err := runCommand(c, cmd, rest[1:])
	var u *usageError
	if errors.As(err, &u) && u.cmd == "" {
		u.cmd = cmd.Name
	}
	return err
}

// runHelp is `graft help [COMMAND]`.
func runHelp(c *Context, fs *pflag.FlagSet, args []string) error {
	switch len(args) {
	case 0:
		printHelp(c.Stdout, fs)
		return nil
	case 1:
		cmd, ok := commands[args[0]]
		if !ok {
			return usagef("help: unknown command %q", args[0])
		}
		printCommandHelp(c.Stdout, cmd, commandFlags(cmd))
		return nil
	}
	return usagef("help: want at most one COMMAND")
}

// commandFlags is the flag set of cmd, with its flags declared.
func commandFlags(cmd *command) *pflag.FlagSet {
	cfs := pflag.NewFlagSet("graft "+cmd.Name, pflag.ContinueOnError)
	cfs.SetOutput(io.Discard)
	if cmd.Flags != nil {
		cmd.Flags(cfs)
	}
	cfs.BoolP("help", "h", false, "show help")
	return cfs
}

// runCommand parses cmd's flags from args and runs it.
func runCommand(c *Context, cmd *command, args []string) error {
	cfs := commandFlags(cmd)
	if err := cfs.Parse(args); err != nil {
		return usagef("%s: %v", cmd.Name, err)
	}
	positional := cfs.Args()
	if dash := cfs.ArgsLenAtDash(); cmd.Paths > 0 && dash >= 0 {
		// As git reads "--": what follows is paths, taken as they are.
		// Flags may follow the paths (graft edit -- -x.txt --old a).
		before, after := positional[:dash], positional[dash:]
		paths := after[:min(cmd.Paths, len(after))]
		if extra := after[len(paths):]; len(extra) > 0 {
			if err := cfs.Parse(extra); err != nil {
				return usagef("%s: %v", cmd.Name, err)
			}
			before = append(slices.Clip(before), cfs.Args()...)
		}
		positional = append(slices.Clip(before), paths...)
	}
	if h, _ := cfs.GetBool("help"); h {
		printCommandHelp(c.Stdout, cmd, cfs)
		return nil
	}
	if processMain {
		if cmd.Name == "mcp" {
			hugeHeapOff() // a process that lives long: hugeheap_linux.go
		} else {
			oneShotGC()
		}
	}
	return cmd.Run(c, cfs, positional)
}

// printCommandHelp writes cmd's usage: synopsis, summary, flags and any
// more help it has.
func printCommandHelp(w io.Writer, cmd *command, cfs *pflag.FlagSet) {
	fmt.Fprintf(w, "usage: graft %s %s\n\n%s\n\n%s", cmd.Name, cmd.Args, cmd.Summary, cfs.FlagUsages())
	if cmd.More != nil {
		fmt.Fprintln(w)
		cmd.More(w)
	}
}

func printHelp(w io.Writer, fs *pflag.FlagSet) {
	fmt.Fprint(w, "usage: graft [-C DIR] [-v] COMMAND [ARGS]\n\nCommands:\n")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s %s\n", width, n, commands[n].Summary)
	}
	fmt.Fprintf(w, "\nGlobal flags:\n%s\nRun 'graft help COMMAND' for a command's usage.\nExit codes: 0 applied, 1 refused (nothing changed), 2 usage or internal error, 3 partly applied.\n", fs.FlagUsages())
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
