package gitstore

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/graftdev/graft/internal/testhook"
)

// onLate makes another process's write happen at one moment of one file's
// replacement in the next transactions (testhook.LateWrite), once.
func onLate(t *testing.T, moment, path string, write func()) {
	t.Helper()
	done := false
	testhook.LateWrite = func(m, p string) {
		if !done && m == moment && p == path {
			done = true
			write()
		}
	}
	t.Cleanup(func() { testhook.LateWrite = nil })
}

// appendTo appends text to a file as `echo >>` does: open, write, close.
func appendTo(t *testing.T, dir, name, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// rewriteInPlace truncates a file and writes text into it, keeping its
// inode, as an editor saving in place does.
func rewriteInPlace(t *testing.T, dir, name, text string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// noTemps fails when a temporary file of a transaction is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".graft-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

// bothWays runs a test with files swapped in one step where the system
// can (Linux, macOS), and as where it cannot (held open, then renamed).
func bothWays(t *testing.T, test func(t *testing.T)) {
	t.Run("swap", test)
	t.Run("hold", func(t *testing.T) {
		swapOff = true
		defer func() { swapOff = false }()
		test(t)
	})
}

func landPairs(s *Store, changes ...Change) (Landed, error) {
	return s.Land(context.Background(), Call{Tool: "edit"}, changes)
}

// A line appended by another process between the transaction's last check
// and its rename is kept: it follows the call's change, the call lands,
// and the next call records it as a change made outside graft.
func TestLateAppendIsCarried(t *testing.T) { bothWays(t, testLateAppendIsCarried) }

func testLateAppendIsCarried(t *testing.T) {
	for _, moment := range []string{"check", "rename"} {
		t.Run(moment, func(t *testing.T) {
			dir := newRepo(t, map[string]string{"a.txt": "line1\nline2\n", "b.txt": "bee\n"})
			s := open(t, dir)
			onLate(t, moment, "a.txt", func() { appendTo(t, dir, "a.txt", "appended by another process\n") })
			l, err := landPairs(s,
				Change{Path: "a.txt", Old: b("line1\nline2\n"), New: b("LINE1\nline2\n")},
				Change{Path: "b.txt", Old: b("bee\n"), New: b("BEE\n")})
			if err != nil {
				t.Fatalf("Land: %v", err)
			}
			if got := readFile(t, dir, "a.txt"); got != "LINE1\nline2\nappended by another process\n" {
				t.Fatalf("a.txt = %q", got)
			}
			if got := readFile(t, dir, "b.txt"); got != "BEE\n" {
				t.Fatalf("b.txt = %q", got)
			}
			if got := git(t, dir, "show", l.Commit+":a.txt"); got != "LINE1\nline2" {
				t.Fatalf("journal a.txt = %q", got)
			}
			l2 := edit(t, s, "edit", "a.txt", "line2", "LINE2")
			if l2.Snapshot == "" || !strings.Contains(git(t, dir, "show", l2.Snapshot), "+appended by another process") {
				t.Fatal("the next call does not record the appended line as an outside change")
			}
			noTemps(t, dir)
			fsck(t, dir)
		})
	}
}

// A file that grew between the call's read and the transaction's check is
// taken too: the call lands and the appended bytes follow its change.
func TestAppendBeforeCheckIsCarried(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\n"})
	s := open(t, dir)
	appendTo(t, dir, "a.txt", "three\n")
	if _, err := landPairs(s, Change{Path: "a.txt", Old: b("one\ntwo\n"), New: b("ONE\ntwo\n")}); err != nil {
		t.Fatalf("Land: %v", err)
	}
	if got := readFile(t, dir, "a.txt"); got != "ONE\ntwo\nthree\n" {
		t.Fatalf("a.txt = %q", got)
	}
}

// Appends on both sides of the rename (to the replaced file and to the new
// one) are all kept.
func TestAppendsAcrossTheRenameAreKept(t *testing.T) { bothWays(t, testAppendsAcrossTheRenameAreKept) }

func testAppendsAcrossTheRenameAreKept(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "one\n"})
	s := open(t, dir)
	testhook.LateWrite = func(m, p string) {
		switch m {
		case "rename":
			appendTo(t, dir, "a.txt", "before the rename\n")
		case "renamed":
			appendTo(t, dir, "a.txt", "after the rename\n")
		}
	}
	t.Cleanup(func() { testhook.LateWrite = nil })
	if _, err := landPairs(s, Change{Path: "a.txt", Old: b("one\n"), New: b("ONE\n")}); err != nil {
		t.Fatalf("Land: %v", err)
	}
	got := readFile(t, dir, "a.txt")
	if !strings.HasPrefix(got, "ONE\n") || !strings.Contains(got, "before the rename\n") || !strings.Contains(got, "after the rename\n") || len(got) != len("ONE\nbefore the rename\nafter the rename\n") {
		t.Fatalf("a.txt = %q", got)
	}
}

// Any other late write abandons the call: every file goes back (the
// written one holding what the writer wrote, the others their old content,
// keeping what was appended to them since), the ref does not move, and the
// call fails with ErrConflict naming the file.
func TestLateRewriteAbandonsTheCall(t *testing.T) { bothWays(t, testLateRewriteAbandonsTheCall) }

func testLateRewriteAbandonsTheCall(t *testing.T) {
	cases := []struct {
		name, moment, path string
		write              func(t *testing.T, dir string)
		want               map[string]string
	}{
		{"rewritten in place", "rename", "b.txt",
			func(t *testing.T, dir string) { rewriteInPlace(t, dir, "b.txt", "written by an editor\n") },
			map[string]string{"a.txt": "alpha\n", "b.txt": "written by an editor\n"}},
		{"replaced by rename", "check", "b.txt",
			func(t *testing.T, dir string) {
				writeFile(t, dir, "b.tmp", "renamed over by a formatter\n")
				if err := os.Rename(filepath.Join(dir, "b.tmp"), filepath.Join(dir, "b.txt")); err != nil {
					t.Fatal(err)
				}
			},
			map[string]string{"a.txt": "alpha\n", "b.txt": "renamed over by a formatter\n"}},
		{"truncated", "rename", "b.txt",
			func(t *testing.T, dir string) { rewriteInPlace(t, dir, "b.txt", "") },
			map[string]string{"a.txt": "alpha\n", "b.txt": ""}},
		{"deleted", "rename", "b.txt",
			func(t *testing.T, dir string) { os.Remove(filepath.Join(dir, "b.txt")) },
			map[string]string{"a.txt": "alpha\n", "b.txt": "<absent>"}},
		{"appended to a line the call changes", "rename", "c.txt",
			func(t *testing.T, dir string) { appendTo(t, dir, "c.txt", " and more\n") },
			map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "no newline and more\n"}},
		{"created where the call creates", "rename", "new.txt",
			func(t *testing.T, dir string) { writeFile(t, dir, "new.txt", "created by someone else\n") },
			map[string]string{"a.txt": "alpha\n", "new.txt": "created by someone else\n"}},
		{"appended to a file the call deletes", "rename", "gone.txt",
			func(t *testing.T, dir string) { appendTo(t, dir, "gone.txt", "still needed\n") },
			map[string]string{"a.txt": "alpha\n", "gone.txt": "going\nstill needed\n"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := newRepo(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "no newline", "gone.txt": "going\n"})
			s := open(t, dir)
			tip := ""
			edit(t, s, "edit", "a.txt", "alpha", "alpha")
			tip = git(t, dir, "rev-parse", "refs/graft/main")
			// a.txt is replaced first, and takes an append after its
			// rename while the later file is written: it keeps it.
			testhook.LateWrite = func(m, p string) {
				if m == "renamed" && p == "a.txt" {
					appendTo(t, dir, "a.txt", "appended after the rename\n")
				}
				if m == tc.moment && p == tc.path {
					tc.write(t, dir)
				}
			}
			t.Cleanup(func() { testhook.LateWrite = nil })
			var changes []Change
			changes = append(changes, Change{Path: "a.txt", Old: b("alpha\n"), New: b("ALPHA\n")})
			switch tc.path {
			case "b.txt":
				changes = append(changes, Change{Path: "b.txt", Old: b("beta\n"), New: b("BETA\n")})
			case "c.txt":
				changes = append(changes, Change{Path: "c.txt", Old: b("no newline"), New: b("NO NEWLINE")})
			case "new.txt":
				changes = append(changes, Change{Path: "new.txt", New: b("made by the call\n")})
			case "gone.txt":
				changes = append(changes, Change{Path: "gone.txt", Old: b("going\n")})
			}
			_, err := landPairs(s, changes...)
			if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), tc.path) {
				t.Fatalf("Land: %v, want a conflict naming %s", err, tc.path)
			}
			tc.want["a.txt"] = "alpha\nappended after the rename\n"
			for name, want := range tc.want {
				got := "<absent>"
				if b, err := os.ReadFile(filepath.Join(dir, name)); err == nil {
					got = string(b)
				}
				if got != want {
					t.Errorf("%s = %q, want %q", name, got, want)
				}
			}
			if got := git(t, dir, "rev-parse", "refs/graft/main"); got != tip {
				t.Error("the journal ref moved")
			}
			if s.hasIntent() {
				t.Error("the intent record is still there")
			}
			noTemps(t, dir)
			fsck(t, dir)
		})
	}
}

// A writer that opened the file before the rename and writes after it (a
// logger between its open and its write) writes to the replaced file:
// what it wrote is carried all the same.
func TestWriteThroughOpenFileAfterRenameIsCarried(t *testing.T) {
	bothWays(t, func(t *testing.T) {
		dir := newRepo(t, map[string]string{"a.txt": "one\n"})
		s := open(t, dir)
		var f *os.File
		testhook.LateWrite = func(m, p string) {
			var err error
			switch m {
			case "check":
				f, err = os.OpenFile(filepath.Join(dir, "a.txt"), os.O_WRONLY|os.O_APPEND, 0)
			case "renamed":
				if _, err = f.WriteString("written after the rename\n"); err == nil {
					err = f.Close()
				}
			}
			if err != nil {
				t.Error(err)
			}
		}
		t.Cleanup(func() { testhook.LateWrite = nil })
		if _, err := landPairs(s, Change{Path: "a.txt", Old: b("one\n"), New: b("ONE\n")}); err != nil {
			t.Fatalf("Land: %v", err)
		}
		if got := readFile(t, dir, "a.txt"); got != "ONE\nwritten after the rename\n" {
			t.Fatalf("a.txt = %q", got)
		}
	})
}

// openForWriting tells a file some process has open for writing from one
// nobody has (where the system can tell).
func TestOpenForWriting(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(name, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, known := openForWriting(r); !known {
		t.Skip("this system cannot tell")
	}
	w, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if writing, _ := openForWriting(r); !writing {
		t.Fatal("a file open for writing is not seen as such")
	}
	w.Close()
	if writing, _ := openForWriting(r); writing {
		t.Fatal("a file nobody writes is seen as open for writing")
	}
}

// A rewrite that keeps the size of a file last modified long ago is seen
// by its modification time, and one of a file modified just before the
// call by its bytes.
func TestSameSizeRewriteIsSeen(t *testing.T) {
	for _, age := range []time.Duration{time.Hour, 0} {
		t.Run(age.String(), func(t *testing.T) {
			dir := newRepo(t, map[string]string{"a.txt": "alpha\n"})
			if age > 0 {
				old := time.Now().Add(-age)
				if err := os.Chtimes(filepath.Join(dir, "a.txt"), old, old); err != nil {
					t.Fatal(err)
				}
			}
			s := open(t, dir)
			onLate(t, "rename", "a.txt", func() { rewriteInPlace(t, dir, "a.txt", "ALPHA\n") })
			_, err := landPairs(s, Change{Path: "a.txt", Old: b("alpha\n"), New: b("al-ha\n")})
			if !errors.Is(err, ErrConflict) {
				t.Fatalf("Land: %v, want a conflict", err)
			}
			if got := readFile(t, dir, "a.txt"); got != "ALPHA\n" {
				t.Fatalf("a.txt = %q", got)
			}
		})
	}
}

// Links in a call take part in the check and the put-back: a link the call
// makes, a file it turns into a link and a link it turns back into a file
// (undo) land untouched by it, and are put back when another file of the
// call is abandoned.
func TestLateWritesWithLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("graft makes no symbolic links on Windows")
	}
	bothWays(t, func(t *testing.T) {
		link := fs.ModeSymlink | 0o777
		dir := newRepo(t, map[string]string{"a.txt": "alpha\n", "b.txt": "beta\n", "c.txt": "gamma\n"})
		s := open(t, dir)
		if _, err := landPairs(s,
			Change{Path: "a.txt", Old: b("alpha\n"), New: b("b.txt"), Mode: link},
			Change{Path: "ln", New: b("c.txt"), Mode: link}); err != nil {
			t.Fatal(err)
		}
		// The link back into a file, beside a file rewritten late: all
		// put back.
		onLate(t, "rename", "c.txt", func() { rewriteInPlace(t, dir, "c.txt", "by an editor\n") })
		_, err := landPairs(s,
			Change{Path: "a.txt", Old: b("b.txt"), New: b("alpha again\n"), Mode: 0o644},
			Change{Path: "ln", Old: b("c.txt"), New: b("b.txt"), Mode: link},
			Change{Path: "c.txt", Old: b("gamma\n"), New: b("GAMMA\n")})
		if !errors.Is(err, ErrConflict) {
			t.Fatalf("Land: %v, want a conflict", err)
		}
		for name, want := range map[string]string{"a.txt": "b.txt", "ln": "c.txt"} {
			if got, err := os.Readlink(filepath.Join(dir, name)); err != nil || got != want {
				t.Fatalf("%s: link to %q (%v), want %q", name, got, err, want)
			}
		}
		if got := readFile(t, dir, "c.txt"); got != "by an editor\n" {
			t.Fatalf("c.txt = %q", got)
		}
		// Without the late write the same call lands.
		if _, err := landPairs(s,
			Change{Path: "a.txt", Old: b("b.txt"), New: b("alpha again\n"), Mode: 0o644},
			Change{Path: "ln", Old: b("c.txt"), New: b("b.txt"), Mode: link}); err != nil {
			t.Fatal(err)
		}
		if got := readFile(t, dir, "a.txt"); got != "alpha again\n" {
			t.Fatalf("a.txt = %q", got)
		}
		if got, _ := os.Readlink(filepath.Join(dir, "ln")); got != "b.txt" {
			t.Fatalf("ln -> %q", got)
		}
		noTemps(t, dir)
		fsck(t, dir)
	})
}

// Comparing a file with the bytes a call holds reads it a chunk at a time:
// the comparison holds no second copy of the file (a server editing files
// of hundreds of kilobytes kept two more copies a call, and its memory
// grew with its files: the soak), and tells a same file, a grown one and
// a changed one apart at every chunk boundary.
func TestCompareContentInChunks(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "f")
	want := bytes.Repeat([]byte("0123456789abcdef\n"), 1<<20/17)
	for _, tc := range []struct {
		name        string
		file        []byte
		same, grown bool
	}{
		{"same", want, true, false},
		{"grown", append(slices.Clone(want), "appended\n"...), false, true},
		{"changed at a chunk's end", func() []byte { b := slices.Clone(want); b[64<<10-1] ^= 1; return b }(), false, false},
		{"changed in the last byte", func() []byte { b := slices.Clone(want); b[len(b)-1] ^= 1; return b }(), false, false},
		{"short by a byte", want[:len(want)-1], false, false},
	} {
		if err := os.WriteFile(name, tc.file, 0o644); err != nil {
			t.Fatal(err)
		}
		compareContent(name, want) // the chunk pool's first buffer
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		same, grown, _, err := compareContent(name, want)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		if same != tc.same || grown != tc.grown {
			t.Errorf("%s: same %v grown %v, want %v %v", tc.name, same, grown, tc.same, tc.grown)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 128<<10 {
			t.Errorf("%s: comparing a %d-byte file allocated %d bytes", tc.name, len(want), a)
		}
		ok, err := hasPrefixParts(bytes.NewReader(tc.file), [][]byte{want[:100], want[100:]})
		if err != nil {
			t.Fatal(err)
		}
		if ok != (tc.same || tc.grown) {
			t.Errorf("%s: hasPrefixParts %v", tc.name, ok)
		}
	}
}
