package patch

import (
	"errors"
	"fmt"
	"io/fs"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
	"github.com/graftdev/graft/internal/textedit"
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
	// Unchanged marks a SEARCH/REPLACE block whose two sides are
	// identical: it is located as the others are (its text must stand in
	// the file) and reported as unchanged, never applied. A patch of
	// nothing but such blocks changes nothing and is refused.
	Unchanged bool
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

// Kinds of failure. Malformed, no file, conflict and ambiguous are
// graft's shared sentinels (internal/textedit); ErrExists is the patch's
// own kind of conflict. The *textedit.Error a patch is refused with
// matches its kind with errors.Is.
var (
	// ErrMalformed: the patch text cannot be read as any format, or names
	// no change.
	ErrMalformed = textedit.ErrMalformed
	// ErrNoFile: a file the patch changes does not exist.
	ErrNoFile = textedit.ErrNoFile
	// ErrExists: a file the patch creates already exists.
	ErrExists = textedit.Kind("file already exists", textedit.ErrConflict)
	// ErrConflict: the patch does not fit the file (its context or removed
	// lines are not there).
	ErrConflict = textedit.ErrConflict
	// ErrAmbiguous: a hunk fits the file at several places and nothing
	// tells which one is meant.
	ErrAmbiguous = textedit.ErrAmbiguous
)

// kindText is how a message names a kind of failure.
func kindText(kind error) string {
	switch kind {
	case ErrMalformed:
		return "malformed patch"
	case ErrNoFile:
		return "file not found"
	case ErrExists:
		return "file already exists"
	case ErrConflict:
		return "patch does not apply"
	case ErrAmbiguous:
		return "hunk fits several places"
	}
	return kind.Error()
}

// failure is a failure to parse or apply a patch as the package finds it,
// naming the file and the hunk it concerns. It leaves the package as the
// one error value of graft (err).
type failure struct {
	Kind error // one of the kinds above
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

func (e *failure) Error() string { return e.err().Error() }

// Is reports whether target is the failure's kind.
func (e *failure) Is(target error) bool { return target == e.Kind }

// Unwrap returns the underlying cause.
func (e *failure) Unwrap() error { return e.Err }

// err is the failure as graft's one error value (textedit.Error): its
// code follows its kind, its edit is the hunk, and its message the kind,
// the patch line and the reason.
func (e *failure) err() *textedit.Error {
	out := &textedit.Error{Code: textedit.KindCode(e.Kind), Path: e.Path, Line: e.Line, Count: e.Count, Candidates: e.Candidates, Err: e.Err}
	if e.Kind == ErrExists {
		out.Err = ErrExists // the finer kind, for errors.Is
	}
	if e.Hunk > 0 {
		out.Edit = fmt.Sprintf("hunk %d", e.Hunk)
	}
	out.Msg = kindText(e.Kind)
	if e.PatchLine > 0 {
		out.Msg += fmt.Sprintf(" (patch line %d)", e.PatchLine)
	}
	if e.Reason != "" {
		out.Msg += ": " + e.Reason
	}
	return out
}

// exported is err as it leaves the package: a failure as the one error
// value, anything else as it is.
func exported(err error) error {
	var f *failure
	if errors.As(err, &f) {
		return f.err()
	}
	return err
}

// errOf is the error of failures: the first, listing the others.
func errOf(fs []*failure) error {
	if len(fs) == 0 {
		return nil
	}
	out := fs[0].err()
	for _, f := range fs[1:] {
		out.More = append(out.More, f.err())
	}
	return out
}

func malformed(line int, format string, args ...any) *failure {
	return &failure{Kind: ErrMalformed, PatchLine: line, Reason: fmt.Sprintf(format, args...)}
}
