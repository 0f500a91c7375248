package apply

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/internal/textedit"
	"github.com/graftdev/graft/matcher"
)

// Code is a JSON-RPC style error code: internal/edit's, the one code of
// every format. The same codes reach `graft call` output, MCP tool errors
// and, through one mapping in the CLI, exit codes.
type Code = textedit.Code

// The error codes graft reports.
const (
	CodeFileNotFound = textedit.CodeFileNotFound // the file does not exist
	CodePermission   = textedit.CodePermission   // permission denied, or outside the worktree
	CodeBinary       = textedit.CodeBinary       // a binary file
	CodeTextNotFound = textedit.CodeTextNotFound // the old text is not in the file
	CodeAmbiguous    = textedit.CodeAmbiguous    // the old text is in the file several times
	CodeConflict     = textedit.CodeConflict     // changed since read, or a patch does not fit
	CodeSyntax       = textedit.CodeSyntax       // the edit adds a syntax error
	CodeTooLarge     = textedit.CodeTooLarge     // a file or a call over the size limits
	CodeIO           = textedit.CodeIO           // the disk failed a read or write (full, over quota): nothing changed
	CodeInvalid      = textedit.CodeInvalid      // an invalid request
	CodeInternal     = textedit.CodeInternal     // a bug or an I/O failure of graft itself
)

// Error is the one error value of the engine and of every format
// (internal/edit): a code, the file and the edit it concerns, a message,
// and for refused matches the nearest candidates.
type Error = textedit.Error

// changedError is the refusal of a call whose files changed on disk
// between its read and its write: the engine recomputes the call from
// reread, what the call had read of each file (nil for a file that did
// not exist), the base its line numbers are carried from.
type changedError struct {
	err    *Error
	reread map[string][]byte
}

func (c *changedError) Error() string { return c.err.Error() }
func (c *changedError) Unwrap() error { return c.err }

// changeShown says that e's message already shows what changed in its
// file while the call ran, so that it is not added twice.
func changeShown(e *Error) bool { return strings.Contains(e.Msg, whatChanged) }

// whatChanged introduces the diff of a file changed under a call.
const whatChanged = "What changed"

// CodeOf returns the code of err, the one mapping of every error graft
// meets to its code: an *Error's own code; else the shared sentinels
// (internal/edit; the matcher's refusals match them), the repository
// side's errors (gitstore) and the file system's, by errors.Is; else
// CodeInternal; an internal error whose cause is the disk (full, over
// quota, failing) is CodeIO. Exit codes and JSON-RPC codes follow from it.
func CodeOf(err error) Code {
	if c := codeOf(err); c != CodeInternal || !diskFailure(err) {
		return c
	}
	return CodeIO
}

func codeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) && e.Code != 0 {
		return e.Code
	}
	if err == nil {
		return 0
	}
	if c := textedit.KindCode(err); c != 0 {
		return c
	}
	switch {
	case errors.Is(err, gitstore.ErrConflict), errors.Is(err, gitstore.ErrLocked):
		return CodeConflict
	case errors.Is(err, gitstore.ErrNothingToUndo), errors.Is(err, gitstore.ErrNothingToRedo),
		errors.Is(err, gitstore.ErrNoJournal), errors.Is(err, gitstore.ErrUnknownEntry), errors.Is(err, gitstore.ErrNoBranch):
		return CodeInvalid
	case errors.Is(err, fs.ErrNotExist):
		return CodeFileNotFound
	case errors.Is(err, gitstore.ErrFiltered), errors.Is(err, gitstore.ErrUnsafeRepository), errors.Is(err, gitstore.ErrUnsupportedFormat),
		errors.Is(err, gitstore.ErrReadOnly), errors.Is(err, gitstore.ErrOtherRepository), errors.Is(err, fs.ErrPermission):
		return CodePermission
	}
	return CodeInternal
}

// classified is err as an *Error for path and edit: err itself when it is
// one (its path and edit filled in where it names none), else a new one
// with err's code (CodeOf) and err as its cause. msg, if not empty,
// replaces the cause's message.
func classified(err error, path, edit, msg string) *Error {
	var e *Error
	if errors.As(err, &e) {
		if e.Path == "" {
			e.Path = path
		}
		if e.Edit == "" {
			e.Edit = edit
		}
		return e
	}
	if msg == "" {
		// The cause names the path in its message; the Error names it
		// once. A package's prefix ("gitstore: ") is no one's business,
		// also inside a message that wraps another.
		msg = strings.ReplaceAll(err.Error(), "gitstore: ", "")
		if path != "" {
			msg = strings.TrimPrefix(msg, path+": ")
		}
	}
	return &Error{Code: CodeOf(err), Path: path, Edit: edit, Msg: msg, Err: err}
}

// errorf makes an *Error with a formatted message.
func errorf(code Code, path, edit, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Edit: edit, Msg: fmt.Sprintf(format, args...)}
}

// invalidf makes a CodeInvalid error.
func invalidf(path, edit, format string, args ...any) *Error {
	return errorf(CodeInvalid, path, edit, format, args...)
}

// matchError turns a matcher refusal into an *Error for path and edit,
// what naming the text that was looked for ("old text").
func matchError(err error, path, edit, what string) error {
	var r *matcher.Refusal
	if !errors.As(err, &r) {
		return classified(err, path, edit, "")
	}
	e := &Error{Code: CodeOf(err), Path: path, Edit: edit, Candidates: r.Candidates, Err: err}
	if e.Code == CodeAmbiguous {
		e.Count = r.Count
		e.Msg = fmt.Sprintf("%s appears %d times (must be unique)", what, r.Count)
		if r.Reason != "" {
			e.Msg += ": " + r.Reason
		}
	} else {
		e.Msg = fmt.Sprintf("%s not found in file", what)
		if r.Reason != "" {
			e.Msg += ": " + r.Reason
		}
	}
	return e
}

// storeError is an error of the repository side (gitstore) for path (""
// when it concerns the whole call), classified by CodeOf: a file changed
// underneath or another process holding the lock is a conflict; a path
// under a git filter or in another repository, a read-only file, or a
// repository owned by another user, is refused; an empty journal or
// unknown entry is an invalid request; the rest is internal.
func storeError(err error, path string) error {
	return classified(err, path, "", "")
}

// StoreError classifies an error of the repository side that reaches a
// caller without going through a tool (graft land, graft status) with the
// codes the tools give it: a held lock or a conflict is CodeConflict, an
// empty journal CodeInvalid, a filtered path CodePermission, and so on.
func StoreError(err error) error {
	if err == nil {
		return nil
	}
	return storeError(err, "")
}

// ErrorJSON is the JSON form of an error, as `graft call` prints it and as
// MCP tool errors carry it.
type ErrorJSON struct {
	Code       Code            `json:"code"`
	Message    string          `json:"message"`
	Path       string          `json:"path,omitempty"`
	Edit       string          `json:"edit,omitempty"`
	Count      int             `json:"count,omitempty"`
	Candidates []CandidateJSON `json:"candidates,omitempty"`
}

// CandidateJSON is a near miss listed with a refusal.
type CandidateJSON struct {
	Line       int     `json:"line"`
	EndLine    int     `json:"end_line"`
	Similarity float64 `json:"similarity"`
	Text       string  `json:"text"`
	Reason     string  `json:"reason,omitempty"`
}

// ToJSON converts any error into its JSON form.
func ToJSON(err error) ErrorJSON {
	j := ErrorJSON{Code: CodeOf(err), Message: err.Error()}
	var e *Error
	if errors.As(err, &e) {
		j.Path, j.Edit, j.Count = e.Path, e.Edit, e.Count
		for _, c := range e.Candidates {
			j.Candidates = append(j.Candidates, CandidateJSON{
				Line: c.Line, EndLine: c.EndLine, Similarity: c.Similarity, Text: c.Text, Reason: c.Reason,
			})
		}
	}
	return j
}
