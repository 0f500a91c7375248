package patch

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/graftdev/graft/matcher"
)

// Format names the notation a patch was written in. It is detected by Parse,
// never declared by the caller.
type Format string

// The formats Parse detects.
const (
	Unified       Format = "unified"        // git or plain unified diff
	Codex         Format = "codex"          // *** Begin Patch envelope
	SearchReplace Format = "search/replace" // Aider-style SEARCH/REPLACE blocks
)

// Patch is a parsed patch: changes to one or more files, in the order the
// patch gives them.
type Patch struct {
	Format Format
	Files  []*FilePatch
}

// FilePatch is the change a patch makes to one file.
type FilePatch struct {
	// OldPath and NewPath are slash-separated paths relative to the
	// directory the patch applies in, with a/ and b/ prefixes removed. One
	// of them is "" for a created or deleted file.
	OldPath, NewPath string
	// AltPaths are other spellings of OldPath worth trying when OldPath does
	// not exist (the path as written, with its prefix kept or removed); the
	// patch is applied to one only when exactly one of them exists.
	AltPaths []string
	IsNew    bool
	IsDelete bool
	IsRename bool
	IsCopy   bool
	// OldMode and NewMode are the git file modes (0o100644, 0o100755) the
	// patch states, or 0.
	OldMode, NewMode fs.FileMode
	// Hunks are the text changes. For SearchReplace patches they apply one
	// after the other, each to the result of the one before (Sequential);
	// otherwise they all refer to the file as it was before the patch.
	Hunks      []*Hunk
	Sequential bool
	// Binary is set for a binary change (git diff --binary); its fragments
	// are applied by go-gitdiff.
	Binary *gitdiff.File
	// Line is the 1-based line of the patch text where this file's section
	// starts, for messages.
	Line int
}

// Name returns the path the file patch is best known by.
func (f *FilePatch) Name() string {
	if f.NewPath != "" {
		return f.NewPath
	}
	return f.OldPath
}

// Op says what a hunk line does.
type Op byte

// Hunk line operations, spelled as in a unified diff.
const (
	Context Op = ' '
	Delete  Op = '-'
	Add     Op = '+'
)

// Line is one line of a hunk: its operation, its text without the line
// ending, and the line ending the patch gave it ("\n", "\r\n", or "" for a
// line marked "\ No newline at end of file").
type Line struct {
	Op   Op
	Text string
	EOL  string
}

// Hunk is one located change: the old lines it expects (context and
// deleted) and the new lines it leaves (context and added).
type Hunk struct {
	// OldStart and NewStart are the 1-based line numbers of the hunk
	// header, meaningful only when HasPos. For a hunk without old lines,
	// OldStart is the line after which the new lines go (0 = the top).
	OldStart, NewStart int
	HasPos             bool
	// HeaderOld and HeaderNew are the line counts the header stated (-1 when
	// absent); Recounted is true when they disagreed with the hunk's body,
	// which then decided.
	HeaderOld, HeaderNew int
	Recounted            bool
	// Anchors are Codex "@@ text" lines: the hunk lies after a line equal to
	// each anchor, in turn.
	Anchors []string
	// AtEOF is set for a Codex hunk marked "*** End of File", or one that
	// only adds lines with no context or anchor (Codex's format appends
	// those): its old lines end the file.
	AtEOF bool
	// Line is the 1-based line of the patch text where the hunk starts.
	Line  int
	Lines []Line
}

// OldLines returns the lines the hunk expects in the file.
func (h *Hunk) OldLines() []Line { return h.side(Add) }

// NewLines returns the lines the hunk leaves in the file.
func (h *Hunk) NewLines() []Line { return h.side(Delete) }

func (h *Hunk) side(skip Op) []Line {
	var out []Line
	for _, l := range h.Lines {
		if l.Op != skip {
			out = append(out, l)
		}
	}
	return out
}

// changes reports whether the hunk changes anything: an added or deleted
// line whose text or line ending is not simply kept.
func (h *Hunk) changes() bool {
	old, nw := h.OldLines(), h.NewLines()
	if len(old) != len(nw) {
		return true
	}
	for i := range old {
		if old[i].Text != nw[i].Text || old[i].EOL != nw[i].EOL {
			return true
		}
	}
	return false
}

// Sentinel errors; every *Error matches one of them with errors.Is.
var (
	// ErrMalformed: the patch text cannot be read as any format, or names
	// no change.
	ErrMalformed = errors.New("malformed patch")
	// ErrNoFile: a file the patch changes does not exist.
	ErrNoFile = errors.New("file not found")
	// ErrExists: a file the patch creates already exists.
	ErrExists = errors.New("file already exists")
	// ErrConflict: the patch does not fit the file (its context or removed
	// lines are not there).
	ErrConflict = errors.New("patch does not apply")
	// ErrAmbiguous: a hunk fits the file at several places and nothing
	// tells which one is meant.
	ErrAmbiguous = errors.New("hunk fits several places")
)

// Error is a failure to parse or apply a patch, naming the file and the
// hunk it concerns.
type Error struct {
	Kind error // one of the sentinels above
	// Path is the file ("" for an error of the whole patch); Hunk the
	// 1-based hunk number within the file (0 for the whole file).
	Path string
	Hunk int
	// PatchLine is the 1-based line of the patch text concerned, or 0.
	PatchLine int
	// Line is the 1-based line of the file where the hunk was expected, or 0.
	Line int
	// Count is the number of places for ErrAmbiguous.
	Count  int
	Reason string
	// Candidates are the nearest places in the file, so that a model can
	// retry with the file's actual text.
	Candidates []matcher.Candidate
	// Err is the underlying cause, such as a *matcher.Refusal.
	Err error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("patch: ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Hunk > 0 {
		fmt.Fprintf(&b, "hunk %d", e.Hunk)
		if e.PatchLine > 0 {
			fmt.Fprintf(&b, " (patch line %d)", e.PatchLine)
		}
		b.WriteString(": ")
	} else if e.PatchLine > 0 {
		fmt.Fprintf(&b, "patch line %d: ", e.PatchLine)
	}
	b.WriteString(e.Kind.Error())
	if e.Reason != "" {
		b.WriteString(": ")
		b.WriteString(e.Reason)
	}
	return b.String()
}

// Detail is the message without the path and hunk: the kind, the
// patch line, and the reason.
func (e *Error) Detail() string {
	s := e.Kind.Error()
	if e.PatchLine > 0 {
		s += fmt.Sprintf(" (patch line %d)", e.PatchLine)
	}
	if e.Reason != "" {
		s += ": " + e.Reason
	}
	return s
}

// Is reports whether target is the error's kind.
func (e *Error) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Failures is the error of a patch several of whose hunks failed: every
// failure is listed, so that one retry can fix them all. errors.As finds
// the first *Error.
type Failures []*Error

func (fs Failures) Error() string {
	if len(fs) == 1 {
		return fs[0].Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "patch: %d failures:", len(fs))
	for _, e := range fs {
		b.WriteString("\n  ")
		b.WriteString(strings.TrimPrefix(e.Error(), "patch: "))
	}
	return b.String()
}

// Unwrap returns the failures, for errors.Is and errors.As.
func (fs Failures) Unwrap() []error {
	out := make([]error, len(fs))
	for i, e := range fs {
		out[i] = e
	}
	return out
}

func malformed(line int, format string, args ...any) *Error {
	return &Error{Kind: ErrMalformed, PatchLine: line, Reason: fmt.Sprintf(format, args...)}
}
