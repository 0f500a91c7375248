package apply

import (
	"bufio"
	"context"
	"io"

	"github.com/graftdev/graft/gitstore/textdiff"
)

// lazyDiffsKey is the context key of WithLazyDiffs.
type lazyDiffsKey struct{}

// WithLazyDiffs returns ctx asking that a call run with it leave each diff
// estimated past n bytes unwritten in its result: FileResult.Diff stays ""
// and the result holds the file's old and new lines and the line edits
// between them instead, from which WriteDiff writes the diff, the same
// bytes, as the result goes out. A caller that streams a big result (the
// MCP server over HTTP) thus never holds a diff as big as the file. A
// caller that marshals the result itself must call MaterializeDiff first.
func WithLazyDiffs(ctx context.Context, n int) context.Context {
	return context.WithValue(ctx, lazyDiffsKey{}, n)
}

// lazyDiffBytes is the WithLazyDiffs bound of ctx; 0 when none.
func lazyDiffBytes(ctx context.Context) int {
	n, _ := ctx.Value(lazyDiffsKey{}).(int)
	return max(n, 0)
}

// LazyDiff reports whether the diff is held unwritten (WithLazyDiffs).
func (r *FileResult) LazyDiff() bool { return r.lazy != nil }

// DiffLen is the length of the diff in bytes, written or not (an
// unwritten one is measured by writing it to a counter once).
func (r *FileResult) DiffLen() int {
	if r.lazy == nil {
		return len(r.Diff)
	}
	r.lazy.measure(0)
	return r.lazy.size
}

// DiffHead is the diff's first n bytes (all of it when it is shorter),
// written or not.
func (r *FileResult) DiffHead(n int) string {
	if r.lazy == nil {
		return r.Diff[:min(n, len(r.Diff))]
	}
	r.lazy.measure(n)
	return r.lazy.head[:min(n, len(r.lazy.head))]
}

// WriteDiff writes the diff to w: Diff, or an unwritten diff as it is
// made, a line at a time.
func (r *FileResult) WriteDiff(w io.Writer) error {
	if r.lazy == nil {
		_, err := io.WriteString(w, r.Diff)
		return err
	}
	tw, ok := w.(textdiff.Writer)
	var bw *bufio.Writer
	if !ok {
		bw = bufio.NewWriterSize(w, 64<<10)
		tw = bw
	}
	ew := &firstError{w: tw}
	r.lazy.writeTo(ew)
	if bw != nil && ew.err == nil {
		ew.err = bw.Flush()
	}
	return ew.err
}

// MaterializeDiff makes an unwritten diff (WithLazyDiffs) the Diff string.
func (r *FileResult) MaterializeDiff() {
	if r.lazy != nil {
		r.Diff, r.lazy = r.lazy.String(), nil
	}
}

// MaterializeDiffs makes every unwritten diff of the landing its Diff.
func (l *Landing) MaterializeDiffs() {
	for i := range l.Files {
		l.Files[i].MaterializeDiff()
	}
}

// firstError is a textdiff.Writer that keeps the first error of w and
// writes nothing after it.
type firstError struct {
	w   textdiff.Writer
	err error
}

func (e *firstError) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	var n int
	n, e.err = e.w.Write(p)
	return n, e.err
}

func (e *firstError) WriteString(s string) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	var n int
	n, e.err = e.w.WriteString(s)
	return n, e.err
}

func (e *firstError) WriteByte(c byte) error {
	if e.err == nil {
		e.err = e.w.WriteByte(c)
	}
	return e.err
}
