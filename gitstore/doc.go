// Package gitstore is the repository side of graft: it finds the worktree
// (as git does, linked worktrees included, refusing a repository owned by
// another user unless safe.directory allows it), lands a call's file
// changes all-or-nothing, and records every landed call as a git commit.
//
// # The journal
//
// By default each landed call is one commit on refs/graft/<branch>
// (refs/graft/detached while HEAD is detached; a linked worktree has its
// own journals below refs/graft-worktrees/<id>/, see worktree.go, so that
// worktrees never share one), a chain whose first parent
// leads back to the branch's HEAD commit when the journal started. A commit's
// tree is the previous journal tree with only the touched paths replaced,
// written straight into the object store (blobs, the trees on the changed
// paths, the commit), and the ref is moved with compare-and-swap. When a
// touched file no longer holds what the journal last recorded (it was
// changed outside graft), a snapshot commit records that first, so each
// edit commit's diff is exactly the edit. Messages end with trailers:
// Graft-Tool names the tool, Graft-Base the branch commit the journal
// started from. When the branch moves (the user commits, amends, rebases),
// the journal is carried onto its new commit by a carry commit whose second
// parent is that commit, so earlier entries stay (carry.go); a journal whose
// work the move threw away (reset --hard) and a detached HEAD's journal
// start again on the new HEAD. HEAD, the index and the branches are never
// touched in journal mode. Outside any repository the journal lives in a
// private repository under $XDG_STATE_HOME/graft (or ~/.local/state/graft)
// whose worktree is the edited directory.
//
// In branch mode (OpenOptions.Mode = ModeCommit, or git config graft.mode
// commit) each call is a commit on the current branch instead, and the index
// entries of the touched paths are updated (with git update-index); paths
// that git would convert on commit (filters such as LFS, end-of-line
// conversion) are refused with ErrFiltered.
//
// # Identity
//
// Every commit graft writes (journal entries, snapshots, branch-mode
// commits, graft land) is authored and committed by who git would commit
// as: graft runs `git var GIT_AUTHOR_IDENT` and `git var GIT_COMMITTER_IDENT`
// in the worktree, with its own environment, once per call, so include,
// includeIf, worktree config and the GIT_CONFIG_* variables count as they
// do for git. Where git has no identity (it would refuse to commit) or is
// not installed, graft reads the environment and the repository's config
// itself and fills what is missing with DefaultName and DefaultEmail.
// The answer is kept per worktree with what it depends on (the GIT_*
// environment, the stat of every config file git read and of every place
// one may appear, and HEAD's branch when an includeIf onbranch: exists;
// see ident.go), so a long-running graft mcp
// asks again only after a checkout (includeIf onbranch:), a config edit or
// a new include, and otherwise pays a few stat calls (BenchmarkIdentity:
// 2.7 ms asking git, BenchmarkIdentityCached: 0.01 ms). Cost: the two
// processes run side by side while the call is checked and written, about
// 1.2 ms of CPU each (hyperfine: 1.2 ± 0.2 ms per git var, git 2.39). On a
// shared, loaded 2-core machine a one-line `graft edit` costs 1.7 ms more
// in its best runs (two edits: 8.7 → 12.1 ms) and about 3 ms more on
// average, 2.5 ms more CPU (hyperfine, 200 runs, against the same binary
// with git off the PATH).
//
// # Submodules and nested repositories
//
// A path belongs to the repository git would give it: a file below a
// submodule (initialised or not) or below a directory holding its own .git
// is refused with ErrOtherRepository, naming the inner repository to run
// graft in (graft -C lib ...), and a gitlink is never replaced by a tree
// or a blob. The check costs one lstat and one tree level per directory of
// the path (owner.go).
//
// # Transactions
//
// Land is all-or-nothing and crash-safe: under a lock in the git dir it
// re-checks every file, writes the objects, writes an intent record, writes
// each file through a temporary file, fsync and rename, moves the ref, and
// removes the intent. What another process wrote to a file in the instant
// before its rename is read from the replaced file afterwards: appended
// bytes are carried onto the new content, any other write abandons the call
// with every file put back, for the engine to compute it again (late.go). Open finishes or rolls back whatever an earlier
// process left behind (see txn.go for the protocol and CrashEnv for the test
// hook that kills the process at each step).
//
// # Journal operations
//
// History, Diff, Undo, Redo, Squash (graft land) and Status read and extend
// the journal. Undo reverse-applies the last edit to the current files with
// a line-level three-way merge, so later outside changes survive; a file the
// reverse no longer fits is ErrConflict and nothing is touched.
//
// # go-git, and what is graft's own
//
// The repository's storage is go-git's (github.com/go-git/go-git/v6, pinned
// to v6.0.0-beta.1 in go.mod), behind the small adapter package
// internal/gitrepo: objects, loose and packed, are read (deltas,
// alternates) and written through go-git's filesystem storage; trees and
// commits are encoded and decoded by go-git's object package; refs of the
// files backend are read and moved by its reference storage
// (CheckAndSetReference) and their reflogs written by it; config files are
// decoded by its config decoder and attribute lines parsed by its
// gitattributes parser. Version 6 rather than 5: v5 cannot open a SHA-256
// repository (unknown extension objectformat; its sha256 build tag makes
// every id 32 bytes), v6 opens both kinds in one binary. Measured here
// (fixtures/bench/journal.sh, 100,000 files, 2 cores), one `graft edit`
// process takes 11.6 ms where `git add` + `git commit` of the same change
// take 342 ms (0.034; graft's earlier hand-written object code: 12.0 ms)
// when the pack has a reverse index (.rev, written by default by git 2.41
// and later). Without one go-git rebuilds it in every process (about 76 ms
// at 100,000 files), and the edit takes 96.6 ms against git's 448.5 ms
// (0.215; the hand-written code, which read no reverse index: 10.7 ms). A
// long-lived process (graft mcp) builds it once. Its median edit at
// 100,000 files, alternating with the hand-written code in one run on a
// quiet machine: 2.27 ms against 1.73 ms without a reverse index, 3.00 ms
// against 2.42 ms with one (fixtures/bench/mcp -compare; docs/BENCHMARKS.md
// says what the remaining 1.2 to 1.3 times is made of).
//
// What go-git does not do stays as thin code of ours:
//
//   - reftable ref storage (extensions.refStorage = reftable): go-git v6
//     refuses the extension, so such refs are read with git symbolic-ref,
//     for-each-ref and moved with git update-ref --create-reflog NEW OLD
//     (refs.go);
//   - git's lock-file protocol around a ref move: go-git rewrites a ref file
//     in place under an flock that git does not take, so graft holds
//     REF.lock (created exclusively, as git does) while go-git compares and
//     sets; a move torn by a crash is redone by the intent record's recovery
//     (txn.go);
//   - config include/includeIf (go-git's reader does not follow them, go-git
//     issue 388): identity comes from git var; the other keys graft reads are
//     taken from the files themselves. Where go-git's decoder refuses a text
//     git reads (old "[section.sub]" headers, keys before any section, a key
//     on its header's line), git config --list reads that file;
//   - attribute pattern matching: go-git's matcher disagrees with git's own
//     wildmatch test cases (t3070, wildmatch_test.go), so graft's wildmatch
//     matches the patterns go-git parsed, and the C escapes of a quoted
//     pattern, which go-git leaves as written, are decoded;
//   - the zlib level of a loose object: go-git's object writer compresses
//     with the zlib plugin it is given; graft's picks stored blocks for
//     small and big objects and the fastest level in between
//     (internal/gitrepo/zlib.go), and registers crypto/sha1 as go-git's
//     SHA-1, since its collision-detecting default is several times slower;
//   - the file system go-git works through (internal/gitrepo/plainfs.go):
//     billy v6's osfs binds every file system to an os.Root and resolves
//     each path a component at a time, which gave an MCP edit 2.4 times the
//     system calls of graft's earlier writer and twice its median; plainFS
//     uses plain paths under the git directory, and makes go-git's
//     temporary loose objects in the fan-out directories in turn (as git
//     does) rather than all in objects/pack, where creating and renaming
//     away four files a call made every create slow;
//   - the session's tree cache (treeCache in objects.go): two generations
//     bounded by entries, so that a long graft mcp session keeps a flat
//     memory while it writes new versions of the trees it edits;
//   - clean/smudge filters and end-of-line conversion (clean.go), the
//     repository format check (format.go) and safe.directory (safe.go),
//     which go-git does not apply.
//
// What it does not do: it never runs a full worktree status, never rewrites
// the whole index on the edit path, never uses go-git's Worktree.Status,
// Add, Commit or Reset; it does not apply clean/smudge filters (branch mode
// refuses such paths instead), and it does not read or write files other
// than those a call touches.
package gitstore
