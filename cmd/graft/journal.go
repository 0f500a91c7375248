package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore"
	"github.com/spf13/pflag"
)

// The journal's commands: undo, redo, log, diff, land, status, and the
// global --commit flag (branch mode). undo, redo, log and diff run the
// tools of the same names, so they behave exactly as over MCP.

func init() {
	register(&command{Name: "undo", Args: "[N] [--agent NAME] [--session ID]",
		Summary: "undo the last N graft edits (default 1; of one agent with --agent), keeping later changes",
		Flags:   scopeFlags("undo the edits of agent `NAME` only (any version), leaving others' later edits in place", "undo the edits of session `ID` only"),
		Run:     func(c *Context, fs *pflag.FlagSet, args []string) error { return runRevert(c, fs, "undo", args) }})
	register(&command{Name: "redo", Args: "[N] [--agent NAME] [--session ID]",
		Summary: "redo the last N undone edits (default 1; of one agent with --agent)",
		Flags:   scopeFlags("redo the edits of agent `NAME` only (any version)", "redo the edits of session `ID` only"),
		Run:     func(c *Context, fs *pflag.FlagSet, args []string) error { return runRevert(c, fs, "redo", args) }})
	register(&command{Name: "log", Args: "[-n N] [--agent NAME] [--session ID] [--json]",
		Summary: "list the journal's edits, newest first",
		Flags: func(fs *pflag.FlagSet) {
			fs.IntP("max-count", "n", 20, "show at most `N` entries")
			fs.Bool("json", false, "print the history tool's JSON result")
			scopeFlags("only the entries of agent `NAME` (any version, or NAME/VERSION)", "only the entries of session `ID`")(fs)
		},
		Run: runLog})
	register(&command{Name: "diff", Args: "[ID | --agent NAME [--session ID]]",
		Summary: "show one journal entry's diff, one agent's work, or everything since the branch's last commit",
		Flags:   scopeFlags("show the work of agent `NAME` not yet landed, as one diff", "show the work of session `ID` not yet landed, as one diff"),
		Run:     runJournalDiff})
	register(&command{Name: "land", Args: "-m MSG [--trailer 'KEY: VALUE']...",
		Summary: "squash the journal into one commit on the current branch",
		Flags: func(fs *pflag.FlagSet) {
			fs.StringP("message", "m", "", "the commit `MSG`")
			fs.StringArray("trailer", nil, "add trailer `'KEY: VALUE'` to the commit, {agent} standing for each agent whose edits it lands (repeatable; also git config graft.trailer)")
		},
		Run: runLand})
	register(&command{Name: "status", Args: "[--json]",
		Summary: "show the journal, the lock and any interrupted call",
		Flags: func(fs *pflag.FlagSet) {
			fs.Bool("json", false, "print JSON")
		},
		Run: runStatus})

	globalFlags = append(globalFlags, func(fs *pflag.FlagSet, c *Context) {
		commit := new(bool)
		fs.BoolVar(commit, "commit", false, "branch mode: record each call as a commit on the current branch")
		c.Extra["commit"] = commit
	})
	engineOptions = append(engineOptions, func(c *Context, o *apply.Options) error {
		if p, ok := c.Extra["commit"].(*bool); ok && *p {
			o.Store.Mode = gitstore.ModeCommit
		}
		return nil
	})
}

// scopeFlags declares --agent and --session with these usages.
func scopeFlags(agent, session string) func(fs *pflag.FlagSet) {
	return func(fs *pflag.FlagSet) {
		fs.String("agent", "", agent)
		fs.String("session", "", session)
	}
}

func scopeOf(fs *pflag.FlagSet) (agent, session string) {
	agent, _ = fs.GetString("agent")
	session, _ = fs.GetString("session")
	return agent, session
}

func runRevert(c *Context, fs *pflag.FlagSet, tool string, args []string) error {
	steps := 1
	switch len(args) {
	case 0:
	case 1:
		n, err := strconv.Atoi(args[0])
		if err != nil || n < 1 {
			return usagef("%s: N must be a positive number, not %q", tool, args[0])
		}
		steps = n
	default:
		return usagef("%s: want [N]", tool)
	}
	agent, session := scopeOf(fs)
	if agent == "" {
		// Without --agent, the last edits of anyone, as before agents
		// were named (the tool's own default is the calling agent's).
		agent = gitstore.AllAgents
	}
	res, err := c.callTool(tool, apply.UndoRequest{Steps: steps, Agent: agent, Session: session})
	if err != nil {
		return err
	}
	r := res.(*apply.UndoResult)
	fmt.Fprint(c.Stdout, r.Diff)
	verb := map[string]string{"undo": "undid", "redo": "redid"}[tool]
	for _, id := range r.Entries {
		fmt.Fprintf(c.Stderr, "%s %s\n", verb, short(id))
	}
	if r.Snapshot != "" {
		fmt.Fprintf(c.Stderr, "snapshot of outside changes %s\n", short(r.Snapshot))
	}
	fmt.Fprintf(c.Stderr, "%s %s\n", c.commitLabel(), short(r.Commit))
	return nil
}

func runLog(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("log takes no arguments")
	}
	n, _ := fs.GetInt("max-count")
	if n < 0 {
		return usagef("log: -n must be 0 or more, not %d", n)
	}
	asJSON, _ := fs.GetBool("json")
	// The history tool reads limit 0 as its default; -n 0 shows nothing,
	// as git log -n 0 does.
	agent, session := scopeOf(fs)
	res, err := c.callTool("history", apply.HistoryRequest{Limit: max(n, 1), Agent: agent, Session: session})
	if err != nil {
		return err
	}
	h := res.(*apply.HistoryResult)
	if n == 0 {
		h.Entries = h.Entries[:0]
	}
	if asJSON {
		return writeJSON(c.Stdout, h)
	}
	if len(h.Entries) == 0 {
		if n > 0 {
			fmt.Fprintf(c.Stderr, "the journal (%s) is empty\n", h.Journal)
		}
		return nil
	}
	for _, en := range h.Entries {
		var files []string
		for _, f := range en.Files {
			files = append(files, f.Path)
		}
		by := ""
		if en.Agent != "" {
			by = " by " + en.Agent
		}
		fmt.Fprintf(c.Stdout, "%s %s %-8s +%-3d -%-3d %s [%s]%s\n", short(en.ID), en.Time.Local().Format("2006-01-02 15:04"),
			en.Tool, en.Additions, en.Deletions, en.Message, strings.Join(files, " "), by)
	}
	return nil
}

func runJournalDiff(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) > 1 {
		return usagef("diff: want [ID]")
	}
	req := apply.DiffRequest{}
	req.Agent, req.Session = scopeOf(fs)
	if len(args) == 1 && (req.Agent != "" || req.Session != "") {
		return usagef("diff: give ID or --agent/--session, not both")
	}
	if len(args) == 1 {
		req.ID = args[0]
	}
	res, err := c.callTool("diff", req)
	if err != nil {
		return err
	}
	_, err = fmt.Fprint(c.Stdout, res.(*apply.DiffResult).Diff)
	return err
}

func runLand(c *Context, fs *pflag.FlagSet, args []string) error {
	msg, _ := fs.GetString("message")
	if len(args) != 0 {
		return usagef("land: want -m MSG")
	}
	if strings.TrimSpace(msg) == "" {
		return usagef("land: -m MSG is required")
	}
	trailers, _ := fs.GetStringArray("trailer")
	for _, t := range trailers {
		if !gitstore.ValidTrailer(t) {
			return usagef("land: --trailer %q: want 'KEY: VALUE' (e.g. 'Assisted-by: {agent}')", t)
		}
	}
	if p, ok := c.Extra["trailers"].(*[]string); ok {
		*p = append(*p, trailers...) // read when the engine opens
	}
	e, err := c.Engine()
	if err != nil {
		return err
	}
	sq, err := e.Store().Squash(c.context(), msg)
	if err != nil {
		return apply.StoreError(err)
	}
	fmt.Fprintf(c.Stdout, "%s %s\n", short(sq.Commit), strings.TrimPrefix(sq.Branch, "refs/heads/"))
	fmt.Fprintf(c.Stderr, "landed %d journal entries as %s on %s: %s\n", sq.Entries, short(sq.Commit),
		strings.TrimPrefix(sq.Branch, "refs/heads/"), strings.Join(sq.Files, " "))
	return nil
}

func runStatus(c *Context, fs *pflag.FlagSet, args []string) error {
	if len(args) != 0 {
		return usagef("status takes no arguments")
	}
	asJSON, _ := fs.GetBool("json")
	e, err := c.Engine()
	if err != nil {
		return err
	}
	st, err := e.Store().Status()
	if err != nil {
		return apply.StoreError(err)
	}
	if asJSON {
		return writeJSON(c.Stdout, st)
	}
	w := c.Stdout
	fmt.Fprintf(w, "worktree  %s\n", st.Root)
	if st.Private {
		fmt.Fprintf(w, "journal   kept in %s (outside any repository)\n", st.GitDir)
	}
	branch := strings.TrimPrefix(st.Branch, "refs/heads/")
	if branch == "" {
		branch = "(detached HEAD)"
	}
	fmt.Fprintf(w, "mode      %s\n", map[string]string{"journal": "journal (HEAD, index and branches untouched)", "commit": "commit (each call a commit on the branch)"}[st.Mode])
	fmt.Fprintf(w, "branch    %s\n", branch)
	fmt.Fprintf(w, "journal   %s: %d entries, %d to undo, %d to redo", st.Journal, st.Entries, st.Undoable, st.Redoable)
	if st.Base != "" {
		fmt.Fprintf(w, ", based on %s", short(st.Base))
	}
	fmt.Fprintln(w)
	if st.Stale {
		fmt.Fprintln(w, "          (HEAD moved since the journal started: the next call starts a new one)")
	}
	if st.Carried {
		fmt.Fprintln(w, "          (the branch moved since the journal started: it is carried onto the branch's commit)")
	}
	if st.Lock != nil {
		fmt.Fprintf(w, "lock      held by pid %d on %s\n", st.Lock.PID, st.Lock.Host)
	} else {
		fmt.Fprintln(w, "lock      free")
	}
	if st.InProgress {
		fmt.Fprintln(w, "call      a call is landing right now")
	}
	if r := st.Recovered; r != nil {
		how := "rolled back"
		if r.Forward {
			how = "finished"
		}
		fmt.Fprintf(w, "recovered an interrupted call (%s, %s): %s\n", how, short(r.Commit), strings.Join(r.Files, " "))
	}
	return nil
}

func short(id string) string { return id[:min(12, len(id))] }

// commitLabel names the commit a call made: a journal commit, or in
// branch mode (--commit, or git config graft.mode commit) a commit on the
// current branch.
func (c *Context) commitLabel() string {
	if e, err := c.Engine(); err == nil && e.Store().Mode() == gitstore.ModeCommit {
		return "commit on the branch"
	}
	return "journal commit"
}
