package apply

import (
	"context"
	"strings"

	"github.com/graftdev/graft/gitstore"
)

// The journal tools: undo, redo, history and diff. They are thin over
// gitstore, which owns the journal (see gitstore's package doc).

func init() {
	Register(NewTool("undo", undoDescription, func(ctx context.Context, e *Engine, req *UndoRequest) (*UndoResult, error) {
		return e.revert(ctx, req, true)
	}))
	Register(NewTool("redo", redoDescription, func(ctx context.Context, e *Engine, req *UndoRequest) (*UndoResult, error) {
		return e.revert(ctx, req, false)
	}))
	h := NewTool("history", historyDescription, runHistory)
	h.ReadOnly = true
	Register(h)
	d := NewTool("diff", diffDescription, runJournalDiff)
	d.ReadOnly = true
	Register(d)
}

const undoDescription = `Undo your last graft call (or last steps calls) on the files as they are now, keeping later changes,
other agents' too. Lines changed since are a conflict, and nothing is touched. agent "*": anyone's last call.`

const redoDescription = `Redo your last undone graft call (or the last steps undone calls); agent and session as for undo.
A new edit of yours after an undo clears what you can redo.`

const historyDescription = `List graft's journal, newest first: each call's id, time, message, tool, agent, session, and files
with line counts; agent or session show one agent's calls. Snapshot entries record changes made outside graft.`

const diffDescription = `Show the diff of one journal entry (id, or a prefix of 4+ hex digits), or without id everything
graft changed since the branch's last commit, or with agent one agent's work not yet landed.`

// UndoRequest is the input of undo and redo.
type UndoRequest struct {
	Steps int `json:"steps,omitempty" jsonschema:"how many edits to undo or redo; default 1"`
	// Agent and Session choose whose edits (gitstore.Scope); an empty
	// Agent is the calling agent's name, or everyone's when the call
	// names no agent.
	Agent   string `json:"agent,omitempty" jsonschema:"whose edits: default yours; an agent's name; \"*\" anyone's"`
	Session string `json:"session,omitempty" jsonschema:"only this session's edits"`
}

// UndoResult is the output of undo and redo.
type UndoResult struct {
	Success bool `json:"success"`
	// Commit is the journal commit that records the undo or redo;
	// Snapshot the commit recording outside changes first, if any.
	Commit   string `json:"commit"`
	Snapshot string `json:"snapshot,omitempty"`
	// Entries are the journal edits undone or redone.
	Entries []string `json:"entries"`
	// Scope names whose edits were taken ("agent NAME, session ID");
	// absent for everyone's.
	Scope string `json:"scope,omitempty"`
	// Files are the paths written; Diff what was done to them.
	Files []string `json:"files"`
	Diff  string   `json:"diff"`
}

// callerScope is the scope an undo or redo takes: agent and session as
// asked; an empty agent means the calling agent's name (at any version, so
// that a reconnect keeps its history), for a caller that gives no name its
// session, and for a call that names neither, everyone's.
func callerScope(ctx context.Context, agent, session string) gitstore.Scope {
	agent, session = strings.TrimSpace(agent), strings.TrimSpace(session)
	if agent == "" {
		who := gitstore.AttributionFrom(ctx)
		agent = who.AgentScope()
		if agent == "" && session == "" {
			session = who.Session
		}
	}
	return gitstore.Scope{Agent: agent, Session: session}
}

func (e *Engine) revert(ctx context.Context, req *UndoRequest, undo bool) (*UndoResult, error) {
	if req.Steps < 0 {
		return nil, invalidf("", "", "steps must be 1 or more")
	}
	sc := callerScope(ctx, req.Agent, req.Session)
	var r gitstore.Reverted
	var err error
	if undo {
		r, err = e.store.UndoIn(ctx, sc, req.Steps)
	} else {
		r, err = e.store.RedoIn(ctx, sc, req.Steps)
	}
	if err != nil {
		return nil, storeError(err, "")
	}
	return e.reverted(r, sc, undo)
}

// reverted is the result of an undo or redo that landed.
func (e *Engine) reverted(r gitstore.Reverted, sc gitstore.Scope, undo bool) (*UndoResult, error) {
	var err error
	res := &UndoResult{Success: true, Commit: r.Commit, Snapshot: r.Snapshot, Entries: r.Entries, Files: r.Files, Scope: sc.String()}
	if res.Files == nil {
		res.Files = []string{}
	}
	if r.Commit != "" {
		if res.Diff, err = e.store.Diff(r.Commit); err != nil {
			return nil, storeError(err, "")
		}
	}
	e.log.Debug("revert", "undo", undo, "entries", len(r.Entries), "commit", r.Commit)
	return res, nil
}

// HistoryRequest is the input of history.
type HistoryRequest struct {
	Limit int `json:"limit,omitempty" jsonschema:"at most this many entries, newest first; default 20"`
	// Agent and Session filter the entries (gitstore.Scope); empty: all.
	Agent   string `json:"agent,omitempty" jsonschema:"only this agent's entries: its name (any version) or NAME/VERSION"`
	Session string `json:"session,omitempty" jsonschema:"only this session's entries"`
}

// HistoryResult is the output of history.
type HistoryResult struct {
	// Journal is the journal ref (refs/graft/<branch>).
	Journal string           `json:"journal"`
	Entries []gitstore.Entry `json:"entries"`
}

func runHistory(ctx context.Context, e *Engine, req *HistoryRequest) (*HistoryResult, error) {
	if req.Limit < 0 {
		return nil, invalidf("", "", "limit must be 1 or more")
	}
	entries, err := e.store.HistoryIn(gitstore.Scope{Agent: strings.TrimSpace(req.Agent), Session: strings.TrimSpace(req.Session)}, req.Limit)
	if err != nil {
		return nil, storeError(err, "")
	}
	ref, err := e.store.JournalRef()
	if err != nil {
		return nil, storeError(err, "")
	}
	return &HistoryResult{Journal: ref, Entries: entries}, nil
}

// DiffRequest is the input of diff.
type DiffRequest struct {
	ID string `json:"id,omitempty" jsonschema:"a journal entry's commit id (or a prefix of 4+ hex digits); default everything since the branch's last commit"`
	// Agent and Session show one agent's (or session's) work not yet
	// landed as one diff (gitstore.Store.DiffIn).
	Agent   string `json:"agent,omitempty" jsonschema:"one agent's work not yet landed, as one diff: its name (any version)"`
	Session string `json:"session,omitempty" jsonschema:"one session's work not yet landed, as one diff"`
}

// DiffResult is the output of diff.
type DiffResult struct {
	ID   string `json:"id,omitempty"`
	Diff string `json:"diff"`
}

func runJournalDiff(ctx context.Context, e *Engine, req *DiffRequest) (*DiffResult, error) {
	sc := gitstore.Scope{Agent: strings.TrimSpace(req.Agent), Session: strings.TrimSpace(req.Session)}
	if req.ID != "" && sc != (gitstore.Scope{}) {
		return nil, invalidf("", "", "give id or agent/session, not both: an entry's diff is the same whoever made it")
	}
	var d string
	var err error
	if req.ID != "" {
		d, err = e.store.Diff(req.ID)
	} else {
		d, err = e.store.DiffIn(sc)
	}
	if err != nil {
		return nil, storeError(err, "")
	}
	return &DiffResult{ID: req.ID, Diff: d}, nil
}
