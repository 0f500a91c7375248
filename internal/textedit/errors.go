package textedit

import (
	"errors"
	"fmt"
	"strings"
)

// Code is a JSON-RPC style error code. The same codes reach `graft call`
// output, MCP tool errors and, through one mapping in the CLI, exit codes.
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

// The shared sentinels. An *Error matches the one of its code with
// errors.Is; the matcher's refusals match ErrNotFound and ErrAmbiguous.
var (
	// ErrNotFound: the text, hunk or region is not in the file.
	ErrNotFound = errors.New("not found")
	// ErrAmbiguous: it stands in several places and nothing tells which.
	ErrAmbiguous = errors.New("found more than once")
	// ErrConflict: it does not fit the file (a patch's lines, a snippet
	// that would delete lines it does not show, a file changed since read).
	ErrConflict = errors.New("does not apply")
	// ErrMalformed: the request cannot be read (a patch in no format, an
	// invalid field).
	ErrMalformed = errors.New("malformed")
	// ErrNoFile: a file the request changes does not exist.
	ErrNoFile = errors.New("file not found")
)

// sentinels maps the codes that have one to their sentinel.
var sentinels = map[Code]error{
	CodeTextNotFound: ErrNotFound,
	CodeAmbiguous:    ErrAmbiguous,
	CodeConflict:     ErrConflict,
	CodeInvalid:      ErrMalformed,
	CodeFileNotFound: ErrNoFile,
}

// kindCodes lists the sentinels in the order KindCode tries them.
var kindCodes = []Code{CodeTextNotFound, CodeAmbiguous, CodeConflict, CodeInvalid, CodeFileNotFound}

// Kind makes a finer kind of one of the shared sentinels (a patch's "file
// already exists" is a conflict): it matches its own name and parent
// with errors.Is, and KindCode gives it the parent's code.
func Kind(name string, parent error) error { return &kind{name, parent} }

type kind struct {
	name   string
	parent error
}

func (k *kind) Error() string { return k.name }
func (k *kind) Unwrap() error { return k.parent }

// KindCode is the code of a kind of error: of the shared sentinel it is
// or wraps (errors.Is), else 0. It is how every format's refusal gets its
// code, and the first question apply.CodeOf asks of an error that is not
// an *Error.
func KindCode(kind error) Code {
	for _, c := range kindCodes {
		if errors.Is(kind, sentinels[c]) {
			return c
		}
	}
	return 0
}

// Candidate is a near miss listed with a refusal: a place in the file
// that almost fits, with its actual text, so that a model can retry with
// it.
type Candidate struct {
	Line, EndLine int     // 1-based lines of the candidate in the content
	Similarity    float64 // in [0, 1]
	Text          string  // the file's actual text of those lines
	Reason        string  // why it was not taken, e.g. "line 3 differs"
}

// Error is the one error value of every format and of the engine: a code,
// the file and the operation it concerns, a message, and for a refused
// match the nearest candidates.
type Error struct {
	Code Code
	// Path is the file, relative to the worktree root where possible.
	Path string
	// Edit names the operation inside the call, such as "replacements[2]",
	// "hunk 3" or "region 1"; empty when the error concerns the whole call.
	Edit string
	// Line is the file line where the operation was expected, or 0.
	Line int
	// Msg says what went wrong, in lower case, without the path or edit.
	Msg string
	// Count is the number of places for CodeAmbiguous.
	Count int
	// Candidates are near misses for a text that was not found or stood in
	// several places.
	Candidates []Candidate
	// More are further failures of the same call (a patch lists every hunk
	// that failed, so that one retry can fix them all).
	More []*Error
	// Err is the underlying cause, if any (a matcher refusal, a finer
	// sentinel such as a patch's "file already exists").
	Err error
}

func (e *Error) Error() string {
	msg := e.Msg
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if len(e.More) > 0 {
		var more []string
		for _, o := range e.More {
			more = append(more, o.Error())
		}
		msg += fmt.Sprintf(" (and %d more: %s)", len(more), strings.Join(more, "; "))
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

// Is reports whether target is the sentinel of the error's code.
func (e *Error) Is(target error) bool {
	s, ok := sentinels[e.Code]
	return ok && s == target
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Errorf makes an *Error with a formatted message.
func Errorf(code Code, path, edit, format string, args ...any) *Error {
	return &Error{Code: code, Path: path, Edit: edit, Msg: fmt.Sprintf(format, args...)}
}

// WithPath sets the path of err, when it is an *Error that names none,
// and returns err.
func WithPath(err error, path string) error {
	var e *Error
	if errors.As(err, &e) && e.Path == "" {
		e.Path = path
		for _, o := range e.More {
			if o.Path == "" {
				o.Path = path
			}
		}
	}
	return err
}
