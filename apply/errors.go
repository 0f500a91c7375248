package apply

import (
	"errors"
	"fmt"
	"strings"

	"github.com/graftdev/graft/gitstore"
	"github.com/graftdev/graft/matcher"
)

// Code is a JSON-RPC style error code. The same codes reach
// `graft call` output, MCP tool errors and, through one mapping in the CLI,
// exit codes.
type Code int

// The error codes graft reports.
const (
	CodeFileNotFound Code = -32001 // the file does not exist
	CodePermission   Code = -32002 // permission denied, or outside the worktree
	CodeBinary       Code = -32004 // a binary file
	CodeTextNotFound Code = -32010 // the old text is not in the file
	CodeAmbiguous    Code = -32011 // the old text is in the file several times
	CodeConflict     Code = -32012 // changed since read, or a patch does not fit
	CodeSyntax       Code = -32013 // the edit adds a syntax error
	CodeTooLarge     Code = -32014 // a file or a call over the size limits
	CodeIO           Code = -32015 // the disk failed a read or write (full, over quota): nothing changed
	CodeInvalid      Code = -32600 // an invalid request
	CodeInternal     Code = -32603 // a bug or an I/O failure of graft itself
)

// codeUnclassified is the zero Code: an *Error without a code is internal.
const codeUnclassified Code = 0

// Error is the one error type of the engine: a code, the file and the edit
// it concerns, a message, and for refused matches the nearest candidates.
type Error struct {
	Code Code
	// Path is the file, relative to the worktree root where possible.
	Path string
	// Edit names the operation inside the call, such as "replacements[2]"
	// or "edits[0]"; empty when the error concerns the whole call.
	Edit string
	// Msg says what went wrong, in lower case, without the path.
	Msg string
	// Count is the number of matches for CodeAmbiguous.
	Count int
	// Candidates are near misses for CodeTextNotFound and CodeAmbiguous.
	Candidates []matcher.Candidate
	// Err is the underlying cause, if any.
	Err error

	// reread holds, for a call refused because a file changed between
	// the call's read and its write, what the call had read of each file
	// (nil for a file that did not exist): the base that a recomputation
	// carries the call's line numbers from.
	reread map[string][]byte
	// changeShown says that Msg already shows what changed in the file
	// while the call ran, so that it is not added twice (explainChange).
	changeShown bool
}

func (e *Error) Error() string {
	msg := e.Msg
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	switch {
	case e.Path != "" && e.Edit != "":
		return fmt.Sprintf("%s: %s: %s", e.Path, e.Edit, msg)
	case e.Path != "":
		return fmt.Sprintf("%s: %s", e.Path, msg)
	case e.Edit != "":
		return fmt.Sprintf("%s: %s", e.Edit, msg)
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

// CodeOf returns the code of err: the code of the first *Error in its chain,
// else CodeInternal; an internal error whose cause is the disk (full, over
// quota, failing) is CodeIO.
func CodeOf(err error) Code {
	var e *Error
	code := CodeInternal
	if errors.As(err, &e) && e.Code != codeUnclassified {
		code = e.Code
	}
	if code == CodeInternal && diskFailure(err) {
		return CodeIO
	}
	return code
}

// errorf makes an *Error with a formatted message.
func errorf(code Code, path, edit, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Edit: edit, Msg: fmt.Sprintf(format, args...)}
}

// invalidf makes a CodeInvalid error.
func invalidf(path, edit, format string, args ...any) *Error {
	return errorf(CodeInvalid, path, edit, format, args...)
}

// matchError turns a matcher refusal into an *Error for path and edit.
func matchError(err error, path, edit, what string) error {
	var r *matcher.Refusal
	if !errors.As(err, &r) {
		return &Error{Code: CodeInternal, Path: path, Edit: edit, Err: err}
	}
	e := &Error{Path: path, Edit: edit, Candidates: r.Candidates, Err: err}
	if errors.Is(err, matcher.ErrAmbiguous) {
		e.Code, e.Count = CodeAmbiguous, r.Count
		e.Msg = fmt.Sprintf("%s appears %d times (must be unique): %s", what, r.Count, r.Reason)
		if r.Reason == "" {
			e.Msg = fmt.Sprintf("%s appears %d times (must be unique)", what, r.Count)
		}
	} else {
		e.Code = CodeTextNotFound
		e.Msg = fmt.Sprintf("%s not found in file", what)
		if r.Reason != "" {
			e.Msg += ": " + r.Reason
		}
	}
	return e
}

// storeError classifies an error of the repository side (gitstore) for
// path ("" when it concerns the whole call): a file changed underneath or
// another process holding the lock is a conflict; a path under a git
// filter or in another repository, a read-only file, or a repository
// owned by another user, is refused; an empty
// journal or unknown entry is an invalid request; the rest is internal.
func storeError(err error, path string) error {
	code := CodeInternal
	switch {
	case errors.Is(err, gitstore.ErrConflict), errors.Is(err, gitstore.ErrLocked):
		code = CodeConflict
	case errors.Is(err, gitstore.ErrFiltered), errors.Is(err, gitstore.ErrUnsafeRepository), errors.Is(err, gitstore.ErrUnsupportedFormat),
		errors.Is(err, gitstore.ErrReadOnly), errors.Is(err, gitstore.ErrOtherRepository):
		code = CodePermission
	case errors.Is(err, gitstore.ErrNothingToUndo), errors.Is(err, gitstore.ErrNothingToRedo),
		errors.Is(err, gitstore.ErrNoJournal), errors.Is(err, gitstore.ErrUnknownEntry), errors.Is(err, gitstore.ErrNoBranch):
		code = CodeInvalid
	}
	// gitstore names the path in its message; the Error names it once.
	msg := strings.TrimPrefix(err.Error(), path+": ")
	if path == "" {
		msg = err.Error()
	}
	return &Error{Code: code, Path: path, Msg: msg, Err: err}
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
