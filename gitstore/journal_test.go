package gitstore

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestJournalCommitPerCall(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\n", "sub/b.txt": "bee\n", "other/c.txt": "sea\n"})
	head := git(t, dir, "rev-parse", "HEAD")
	indexBefore := git(t, dir, "ls-files", "-s", "--debug")
	s := open(t, dir)

	l1 := edit(t, s, "edit", "a.txt", "two", "TWO")
	l2 := edit(t, s, "multi_edit", "a.txt", "one", "ONE", "sub/b.txt", "bee", "BEE")
	if l1.Snapshot != "" || l2.Snapshot != "" {
		t.Fatalf("unexpected snapshot: %+v %+v", l1, l2)
	}
	if got := git(t, dir, "rev-parse", "refs/graft/main"); got != l2.Commit {
		t.Fatalf("journal tip %s, want %s", got, l2.Commit)
	}
	if got := git(t, dir, "rev-parse", l2.Commit+"^"); got != l1.Commit {
		t.Fatalf("parent of second %s, want %s", got, l1.Commit)
	}
	if got := git(t, dir, "rev-parse", l1.Commit+"^"); got != head {
		t.Fatalf("journal does not start at HEAD: %s", got)
	}
	// Only the touched paths differ; HEAD, branch and index untouched.
	if got := git(t, dir, "diff", "--name-only", "main", "refs/graft/main"); got != "a.txt\nsub/b.txt" {
		t.Fatalf("diff main..journal: %q", got)
	}
	if got := git(t, dir, "rev-parse", "HEAD"); got != head {
		t.Fatal("HEAD moved")
	}
	if got := git(t, dir, "ls-files", "-s", "--debug"); got != indexBefore {
		t.Fatal("index changed")
	}
	if got := git(t, dir, "diff", "refs/graft/main"); got != "" {
		t.Fatalf("worktree differs from journal:\n%s", got)
	}
	msg := git(t, dir, "log", "-1", "--format=%B", l2.Commit)
	if !strings.Contains(msg, "Graft-Tool: multi_edit") || !strings.HasPrefix(msg, "multi_edit: a.txt, b.txt") {
		t.Fatalf("message:\n%s", msg)
	}
	if got := git(t, dir, "log", "-1", "--format=%an <%ae>", l2.Commit); got != "Test User <test@example.com>" {
		t.Fatalf("author %q", got)
	}
	fsck(t, dir)
}

func TestJournalSnapshotOutsideChange(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "one\ntwo\n"})
	s := open(t, dir)
	edit(t, s, "edit", "a.txt", "one", "ONE")
	writeFile(t, dir, "a.txt", "ONE\ntwo\nthree by hand\n")
	l := edit(t, s, "edit", "a.txt", "two", "TWO")
	if l.Snapshot == "" {
		t.Fatal("no snapshot for an outside change")
	}
	if got := git(t, dir, "rev-parse", l.Commit+"^"); got != l.Snapshot {
		t.Fatal("edit commit is not on the snapshot")
	}
	d := git(t, dir, "diff", l.Snapshot, l.Commit)
	if !strings.Contains(d, "-two\n+TWO") || strings.Contains(d, "+three") {
		t.Fatalf("edit diff is not exactly the edit:\n%s", d)
	}
	if !strings.Contains(git(t, dir, "show", l.Snapshot), "+three by hand") {
		t.Fatal("snapshot does not record the outside change")
	}
	fsck(t, dir)
}

func TestJournalCreateDeleteModeAndDirs(t *testing.T) {
	dir := newRepo(t, map[string]string{"keep.txt": "k\n", "gone/only.txt": "x\n", "run.sh": "echo\n"})
	s := open(t, dir)
	_, err := s.Land(context.Background(), Call{Tool: "apply_patch", Message: "restructure\n\nlonger body"}, []Change{
		{Path: "new/deep/file.txt", New: b("fresh\n")},
		{Path: "gone/only.txt", Old: b("x\n")},
		{Path: "run.sh", Old: b("echo\n"), New: b("echo hi\n"), Mode: 0o755},
	})
	if err != nil {
		t.Fatal(err)
	}
	if readFile(t, dir, "new/deep/file.txt") != "fresh\n" {
		t.Fatal("not created")
	}
	if _, err := os.Stat(filepath.Join(dir, "gone/only.txt")); !os.IsNotExist(err) {
		t.Fatal("not deleted")
	}
	if fi, _ := os.Stat(filepath.Join(dir, "run.sh")); fi.Mode().Perm()&0o111 == 0 {
		t.Fatal("mode not set")
	}
	if got := git(t, dir, "ls-tree", "-r", "--name-only", "refs/graft/main"); got != "keep.txt\nnew/deep/file.txt\nrun.sh" {
		t.Fatalf("tree: %q", got)
	}
	if got := git(t, dir, "ls-tree", "refs/graft/main", "run.sh"); !strings.HasPrefix(got, "100755") {
		t.Fatalf("mode in tree: %q", got)
	}
	if got := git(t, dir, "log", "-1", "--format=%s%n%b", "refs/graft/main"); !strings.HasPrefix(got, "restructure\nlonger body") {
		t.Fatalf("message: %q", got)
	}
	if got := git(t, dir, "status", "--porcelain"); got != " D gone/only.txt\n M run.sh\n?? new/" {
		t.Fatalf("status: %q", got)
	}
	fsck(t, dir)
}

func TestLandConflict(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	s := open(t, dir)
	_, err := s.Land(context.Background(), Call{Tool: "edit"}, []Change{
		{Path: "a.txt", Old: b("a\n"), New: b("A\n")},
		{Path: "b.txt", Old: b("stale\n"), New: b("B\n")},
	})
	if !errors.Is(err, ErrConflict) || !strings.Contains(err.Error(), "b.txt") {
		t.Fatalf("err = %v", err)
	}
	if readFile(t, dir, "a.txt") != "a\n" {
		t.Fatal("a.txt written despite the conflict")
	}
	if _, err := s.Land(context.Background(), Call{}, []Change{{Path: "a.txt", New: b("x")}}); !errors.Is(err, ErrConflict) {
		t.Fatalf("create over existing: %v", err)
	}
	if _, err := s.Land(context.Background(), Call{}, []Change{{Path: "../x", New: b("x")}}); err == nil {
		t.Fatal("path outside accepted")
	}
	if _, err := s.Land(context.Background(), Call{}, []Change{{Path: ".git/config", New: b("x")}}); err == nil {
		t.Fatal("path in .git accepted")
	}
	if s.hasIntent() {
		t.Fatal("intent left behind")
	}
}

// The user's commit of the agent's edit (commit -a) carries the journal
// onto the new HEAD: the next entry sits on a carry commit whose second
// parent is the user's commit, and the journal differs from the branch by
// the new edit only.
func TestJournalCarriedWhenHeadMoves(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	s := open(t, dir)
	first := edit(t, s, "edit", "a.txt", "a", "A")
	git(t, dir, "commit", "-q", "-am", "user commits")
	head := git(t, dir, "rev-parse", "HEAD")
	l := edit(t, s, "edit", "b.txt", "b", "B")
	carry := git(t, dir, "rev-parse", l.Commit+"^")
	if got := git(t, dir, "rev-parse", carry+"^1", carry+"^2"); got != first.Commit+"\n"+head {
		t.Fatalf("carry commit's parents: %s", got)
	}
	if got := git(t, dir, "diff", "--name-only", "main", "refs/graft/main"); got != "b.txt" {
		t.Fatalf("diff: %q", got)
	}
	fsck(t, dir)
}

func TestIdentityFallbacks(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	git(t, dir, "config", "--unset", "user.name")
	git(t, dir, "config", "--unset", "user.email")
	s := open(t, dir)
	l := edit(t, s, "edit", "a.txt", "a", "A")
	if got := git(t, dir, "log", "-1", "--format=%an <%ae>|%cn <%ce>", l.Commit); got != "graft <graft@localhost>|graft <graft@localhost>" {
		t.Fatalf("default identity: %q", got)
	}
	t.Setenv("GIT_AUTHOR_NAME", "Env Author")
	t.Setenv("GIT_COMMITTER_EMAIL", "c@env")
	t.Setenv("GIT_AUTHOR_DATE", "@1700000000 +0200")
	l = edit(t, s, "edit", "a.txt", "A", "a")
	// git has no author (no email), so graft's fallback fills it; git
	// has a committer (its name from the account), which graft takes.
	committer := gitVarIdent(t, dir, "GIT_COMMITTER_IDENT")
	if committer == "" {
		committer = "graft <c@env>"
	}
	if got := git(t, dir, "log", "-1", "--format=%an <%ae> %ad|%cn <%ce>", "--date=raw", l.Commit); got != "Env Author <graft@localhost> 1700000000 +0200|"+committer {
		t.Fatalf("env identity: %q", got)
	}
	fsck(t, dir)
}

func TestDetachedAndUnborn(t *testing.T) {
	testEnv(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	git(t, dir, "init", "-q", "-b", "trunk")
	writeFile(t, dir, "a.txt", "a\n")
	s := open(t, dir)
	l := edit(t, s, "edit", "a.txt", "a", "A")
	if got := git(t, dir, "rev-list", "--count", "refs/graft/trunk"); got != "2" {
		t.Fatalf("unborn journal: %s commits", got) // snapshot of the untracked file + edit
	}
	_ = l
	fsck(t, dir)

	dir2 := newRepo(t, map[string]string{"a.txt": "a\n"})
	git(t, dir2, "checkout", "-q", "--detach")
	s2 := open(t, dir2)
	edit(t, s2, "edit", "a.txt", "a", "A")
	if got := git(t, dir2, "rev-parse", "refs/graft/detached^"); got != git(t, dir2, "rev-parse", "HEAD") {
		t.Fatal("detached journal not on HEAD")
	}
	fsck(t, dir2)
}

func TestLinkedWorktree(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	wt := filepath.Join(t.TempDir(), "wt")
	git(t, dir, "worktree", "add", "-q", "-b", "feature", wt)
	wt, _ = filepath.EvalSymlinks(wt)
	s := open(t, filepath.Join(wt))
	if s.Root() != wt {
		t.Fatalf("root %s", s.Root())
	}
	edit(t, s, "edit", "a.txt", "a", "A")
	if got := git(t, dir, "diff", "--name-only", "feature", "refs/graft-worktrees/wt/heads/feature"); got != "a.txt" {
		t.Fatalf("worktree journal: %q", got)
	}
	if readFile(t, dir, "a.txt") != "a\n" {
		t.Fatal("main worktree touched")
	}
	fsck(t, dir)
}

func TestOutsideRepository(t *testing.T) {
	testEnv(t)
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	writeFile(t, dir, "notes.txt", "hello\n")
	s := open(t, dir)
	if !s.Private() || s.Root() != dir {
		t.Fatalf("private=%v root=%s", s.Private(), s.Root())
	}
	l := edit(t, s, "edit", "notes.txt", "hello", "HELLO")
	if readFile(t, dir, "notes.txt") != "HELLO\n" {
		t.Fatal("not written")
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
		t.Fatal("created .git in the edited directory")
	}
	if !strings.HasPrefix(s.GitDir(), os.Getenv("XDG_STATE_HOME")) {
		t.Fatalf("private repository at %s", s.GitDir())
	}
	cmdDir := s.GitDir()
	if got := git(t, cmdDir, "--git-dir", cmdDir, "show", "--format=%s", "--stat", l.Commit); !strings.Contains(got, "notes.txt") {
		t.Fatalf("private journal: %s", got)
	}
	s2 := open(t, dir)
	if s2.GitDir() != s.GitDir() {
		t.Fatal("private repository not found again")
	}
	git(t, cmdDir, "--git-dir", cmdDir, "fsck", "--strict")
}

func TestSafeDirectory(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to make a repository owned by another user")
	}
	dir := newRepo(t, map[string]string{"a.txt": "a\n"})
	t.Setenv("SUDO_UID", "")
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Skip(err)
	}
	if _, err := Open(dir); !errors.Is(err, ErrUnsafeRepository) {
		t.Fatalf("other user's repository: %v", err)
	}
	gcfg := filepath.Join(os.Getenv("HOME"), ".gitconfig")
	os.WriteFile(gcfg, []byte("[safe]\n\tdirectory = /elsewhere\n\tdirectory = "+dir+"\n"), 0o644)
	if _, err := Open(dir); err != nil {
		t.Fatalf("listed in safe.directory: %v", err)
	}
	os.WriteFile(gcfg, []byte("[safe]\n\tdirectory = *\n\tdirectory =\n"), 0o644)
	if _, err := Open(dir); !errors.Is(err, ErrUnsafeRepository) {
		t.Fatalf("reset list: %v", err)
	}
	os.WriteFile(gcfg, []byte("[safe]\n\tdirectory = *\n"), 0o644)
	if _, err := Open(dir); err != nil {
		t.Fatalf("safe.directory=*: %v", err)
	}
	// git agrees with the decision.
	os.WriteFile(gcfg, nil, 0o644)
	if err := runGitErr(dir, "status"); err == nil {
		t.Fatal("git accepted the repository, graft refused it")
	}
}

func runGitErr(dir string, args ...string) error {
	cmd := execCommand("git", args...)
	cmd.Dir = dir
	return cmd.Run()
}

func TestCoreFileModeFalse(t *testing.T) {
	dir := newRepo(t, map[string]string{"run.sh": "echo\n"})
	git(t, dir, "update-index", "--chmod=+x", "run.sh")
	git(t, dir, "commit", "-q", "-m", "executable")
	git(t, dir, "config", "core.fileMode", "false")
	os.Chmod(filepath.Join(dir, "run.sh"), 0o644) // a file system without exec bits
	s := open(t, dir)
	l, err := s.Land(context.Background(), Call{Tool: "edit"}, []Change{{Path: "run.sh", Old: b("echo\n"), New: b("echo hi\n"), Mode: 0o644}})
	if err != nil {
		t.Fatal(err)
	}
	if l.Snapshot != "" {
		t.Fatal("snapshot for a mode git is told to ignore")
	}
	if got := git(t, dir, "ls-tree", "refs/graft/main", "run.sh"); !strings.HasPrefix(got, "100755") {
		t.Fatalf("mode lost: %q", got)
	}
	fsck(t, dir)
}

// A long-lived Store (an MCP session) keeps pack indexes and trees from
// call to call; git repacking and pruning in between (every loose object
// moved into a new pack, the old pack deleted) must not make the next
// call miss an object.
func TestSessionSurvivesRepack(t *testing.T) {
	dir := newRepo(t, map[string]string{"d/a.txt": "a0\n", "d/e/b.txt": "b0\n", "c.txt": "c0\n"})
	git(t, dir, "repack", "-a", "-d", "-q")
	s := open(t, dir)
	edit(t, s, "edit", "d/a.txt", "a0", "a1")
	for round := 1; round <= 3; round++ {
		// Everything into one new pack, the old packs and loose objects gone.
		git(t, dir, "update-ref", "refs/keep", "refs/graft/main")
		git(t, dir, "repack", "-a", "-d", "-q")
		git(t, dir, "prune-packed")
		edit(t, s, "edit", "d/e/b.txt", fmt.Sprintf("b%d", round-1), fmt.Sprintf("b%d", round))
		edit(t, s, "edit", "d/a.txt", fmt.Sprintf("a%d", round), fmt.Sprintf("a%d", round+1))
	}
	if got := git(t, dir, "show", "refs/graft/main:d/e/b.txt"); got != "b3" {
		t.Fatalf("journal holds %q", got)
	}
	if got := git(t, dir, "rev-list", "--count", "refs/graft/main", "^HEAD"); got != "7" {
		t.Fatalf("%s journal commits, want 7", got)
	}
	fsck(t, dir)
}

// A hash started ahead is used only for the very bytes it was started for:
// a Change whose New is another slice (even of the same length) is hashed
// anew, so a stale pending hash can never name the wrong blob.
func TestPendingHashOnlyForItsBytes(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "aaaa\n"})
	s := open(t, dir)
	other := s.HashAsync([]byte("bbbb\n"))
	newContent := []byte("cccc\n")
	if _, err := s.Land(context.Background(), Call{Tool: "edit"}, []Change{
		{Path: "a.txt", Old: b("aaaa\n"), New: newContent, OldHash: other, NewHash: other},
	}); err != nil {
		t.Fatal(err)
	}
	if got := git(t, dir, "rev-parse", "refs/graft/main:a.txt"); got != s.BlobID(newContent) {
		t.Fatalf("journal blob %s, want %s", got, s.BlobID(newContent))
	}
	same := s.HashAsync(newContent)
	if got := s.hashOf(same, newContent).String(); got != s.BlobID(newContent) {
		t.Fatalf("pending hash %s, want %s", got, s.BlobID(newContent))
	}
	fsck(t, dir)
}

// file_read's SaveBlob writes nothing for a content the repository holds
// already, packed or loose, also after git repacked under a long-lived
// Store; a new content is stored loose and can be read back.
func TestSaveBlobWritesOnlyNewContent(t *testing.T) {
	dir := newRepo(t, map[string]string{"a.txt": "alpha\n", "d/b.txt": "beta\n"})
	git(t, dir, "repack", "-a", "-d", "-q")
	git(t, dir, "prune-packed")
	loose := func() int {
		n := 0
		filepath.Walk(filepath.Join(dir, ".git", "objects"), func(p string, fi os.FileInfo, err error) error {
			if err == nil && !fi.IsDir() && len(filepath.Base(filepath.Dir(p))) == 2 {
				n++
			}
			return nil
		})
		return n
	}
	s := open(t, dir)
	before := loose()
	for _, content := range []string{"alpha\n", "beta\n"} {
		id, err := s.SaveBlob(b(content))
		if err != nil {
			t.Fatal(err)
		}
		if want := hashOf(t, dir, content); id != want {
			t.Fatalf("SaveBlob(%q) = %s, want %s", content, id, want)
		}
	}
	if got := loose(); got != before {
		t.Fatalf("%d loose objects after saving packed contents, want %d", got, before)
	}
	id, err := s.SaveBlob(b("gamma\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := loose(); got != before+1 {
		t.Fatalf("%d loose objects after saving a new content, want %d", got, before+1)
	}
	if got, err := s.Blob(id); err != nil || string(got) != "gamma\n" {
		t.Fatalf("Blob(%s) = %q, %v", id, got, err)
	}
	// git packs everything again (the new blob too, kept by a ref) under
	// the same Store: still nothing written for any of the three.
	git(t, dir, "update-ref", "refs/keep", git(t, dir, "commit-tree", "-m", "k", writeTreeWith(t, dir, "g.txt", id)))
	git(t, dir, "repack", "-a", "-d", "-q")
	git(t, dir, "prune-packed")
	before = loose()
	for _, content := range []string{"alpha\n", "beta\n", "gamma\n"} {
		if _, err := s.SaveBlob(b(content)); err != nil {
			t.Fatal(err)
		}
	}
	if got := loose(); got != before {
		t.Fatalf("%d loose objects after a repack and saving packed contents, want %d", got, before)
	}
	fsck(t, dir)
}

// writeTreeWith writes a tree holding blob id as name and returns its id.
func writeTreeWith(t *testing.T, dir, name, id string) string {
	t.Helper()
	cmd := exec.Command("git", "-C", dir, "mktree")
	cmd.Stdin = strings.NewReader("100644 blob " + id + "\t" + name + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// With DeferFrees, the versions a transaction replaces stay open until
// ReleaseReplaced: the file's old content and, with files refs, the journal
// ref's old file (a ref is moved as git moves it, its lock file renamed
// over it); without
// it nothing is kept. On Linux the kept descriptors are checked in /proc.
func TestDeferFreesKeepsReplacedUntilReleased(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("DeferFrees does nothing on Windows")
	}
	dir := newRepo(t, map[string]string{"a.txt": "a0\n"})
	fds := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			return -1
		}
		return len(entries)
	}
	s, err := OpenWith(dir, OpenOptions{DeferFrees: true})
	if err != nil {
		t.Fatal(err)
	}
	edit(t, s, "edit", "a.txt", "a0", "a1")
	before := fds()
	edit(t, s, "edit", "a.txt", "a1", "a2")
	kept := 2 // a.txt's old file and the journal ref's
	if _, ok := s.refs.refStore.(*gitRefs); ok {
		kept = 1 // reftable: git moves the ref, no ref file is replaced
	}
	if runtime.GOOS == "linux" && fds() != before+kept {
		t.Fatalf("%d descriptors after the second call, want %d (a.txt's old file, and the ref's old file with files refs)", fds(), before+kept)
	}
	release := s.ReleaseReplaced()
	if release == nil {
		t.Fatal("nothing kept")
	}
	release()
	if runtime.GOOS == "linux" && fds() >= before {
		t.Fatalf("%d descriptors after release, want fewer than %d", fds(), before)
	}
	if s.ReleaseReplaced() != nil {
		t.Fatal("kept files handed over twice")
	}
	if got := readFile(t, dir, "a.txt"); got != "a2\n" {
		t.Fatalf("a.txt = %q", got)
	}
	fsck(t, dir)

	plain := open(t, dir)
	edit(t, plain, "edit", "a.txt", "a2", "a3")
	if plain.ReleaseReplaced() != nil {
		t.Fatal("files kept without DeferFrees")
	}
}

// A change whose new content comes in parts (Change.NewParts) lands as the
// same content would whole: the same bytes on disk, the same blobs, also
// for a big file (temporary files started early, stored zlib blocks) and a
// path whose end-of-line conversion needs the whole content (a CRLF split
// across two parts).
func TestLandNewParts(t *testing.T) {
	big := strings.Repeat("line of a big file\n", (2<<20)/19)
	dir := newRepo(t, map[string]string{
		".gitattributes": "crlf.txt text eol=lf\n",
		"big.txt":        big,
		"small.txt":      "alpha\nbeta\ngamma\n",
		"crlf.txt":       "one\r\ntwo\r\n",
	})
	s := open(t, dir)
	bigOld := []byte(big)
	at := len(bigOld) / 2
	bigParts := [][]byte{bigOld[:at], []byte("inserted\n"), nil, bigOld[at:]}
	smallOld := []byte("alpha\nbeta\ngamma\n")
	crlfOld := []byte("one\r\ntwo\r\n")
	changes := []Change{
		{Path: "big.txt", Old: bigOld, NewParts: bigParts, NewHash: s.HashPartsAsync(bigParts)},
		{Path: "small.txt", Old: smallOld, NewParts: [][]byte{smallOld[:6], []byte("BETA"), smallOld[10:]}},
		{Path: "crlf.txt", Old: crlfOld, NewParts: [][]byte{crlfOld[:5], []byte("ONE\r"), []byte("\ntwo"), crlfOld[8:]}},
	}
	if _, err := s.Land(context.Background(), Call{Tool: "edit"}, changes); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"big.txt":   big[:at] + "inserted\n" + big[at:],
		"small.txt": "alpha\nBETA\ngamma\n",
		"crlf.txt":  "one\r\nONE\r\ntwo\r\n",
	}
	for name, content := range want {
		if got := readFile(t, dir, name); got != content {
			t.Errorf("%s on disk differs from the concatenated parts", name)
		}
	}
	if got := git(t, dir, "rev-parse", "refs/graft/main:big.txt"); got != s.BlobID([]byte(want["big.txt"])) {
		t.Errorf("big.txt's journal blob %s, want %s", got, s.BlobID([]byte(want["big.txt"])))
	}
	if got := git(t, dir, "cat-file", "blob", "refs/graft/main:crlf.txt"); got != "one\nONE\ntwo" {
		t.Errorf("crlf.txt's journal blob is not the clean form: %q", got)
	}
	if got := git(t, dir, "-c", "core.safecrlf=false", "diff", "refs/graft/main"); got != "" {
		t.Errorf("worktree differs from the journal:\n%s", got)
	}
	// Undo restores the contents the parts were cut from.
	if _, err := s.Undo(context.Background(), 1); err != nil {
		t.Fatal(err)
	}
	if readFile(t, dir, "big.txt") != big || readFile(t, dir, "crlf.txt") != "one\r\ntwo\r\n" {
		t.Error("undo did not restore the old contents")
	}
	fsck(t, dir)
}
