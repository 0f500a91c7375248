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
// as: `git var GIT_AUTHOR_IDENT` and `git var GIT_COMMITTER_IDENT`, run in
// the worktree with graft's own environment, so include, includeIf,
// worktree config and the GIT_CONFIG_* variables count as they do for git.
// Where git has no identity (it would refuse to commit) or is not
// installed, graft reads the environment and the repository's config
// itself and fills what is missing with DefaultName and DefaultEmail.
//
// git's answer is kept with what it depends on (the GIT_* environment, the
// host's name, the stat of every config file git read, of every place one
// may appear and of every file an include names whether it exists yet or
// not, and HEAD's branch when an includeIf onbranch: exists; ident.go), in
// the process and in graft-ident in the worktree's git dir. A call whose
// key still holds, in a long-running graft mcp or in a new CLI process,
// starts no process: it reads that small file and stats about ten files.
// A config edit, a new include, a new environment or (with onbranch:) a
// checkout changes the key, and that call asks git again.
//
// Why ask git and keep its answer, rather than read the config in
// process (go-git's decoder, with graft's own include and includeIf on
// top)? Both cost a warm call about the same: reading and decoding the
// config files is a few tens of microseconds, as is reading graft-ident
// and its stat calls (BenchmarkIdentityWarmProcess,
// BenchmarkIdentityConfigParse). What differs is what each has to get
// right. The cache is git's own answer for every configuration git knows,
// today's and tomorrow's: the includeIf conditions (gitdir: with its
// symlink and ~ rules, gitdir/i:, onbranch:, hasconfig:remote.*.url:, and
// the conditions of later gits), GIT_CONFIG_PARAMETERS' quoting, the
// passwd name and host domain git falls back to, user.useConfigOnly, the
// sanitising of names; a reader of ours would have to copy each rule, and
// still ask git when nothing configures an identity. The cache has one
// rule to get right, what the answer depends on, and a miss costs only the
// processes every call paid before.
//
// Nothing else on a common call starts a process either. A branch's first
// call starts a new journal, which is when the journals of removed linked
// worktrees are dropped (worktree.go); git is asked for them (any ref
// storage) only where one may exist: a loose directory of their
// namespace, packed-refs naming it, or reftable (TestNewJournalStartsNoProcess
// and TestWarmEditStartsNoProcess in cmd/graft count the processes).
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
// # Agents
//
// Each commit a call writes names the agent and session that asked for it
// (Graft-Agent, Graft-Session; WithAttribution, attribution.go), and
// HistoryIn, UndoIn, RedoIn, LastOf, UndoEntry and DiffIn work on the edits
// of one Scope (an agent, a session), whose undo and redo stacks are
// replayed from those trailers (stacksIn): one agent's undo leaves the
// others' later edits in place. Squash and branch mode write on the branch
// only the trailers the user asked for (OpenOptions.Trailers, git config
// graft.trailer).
//
// # go-git, and what is graft's own
//
// The repository's storage is go-git's (github.com/go-git/go-git/v6, pinned
// to v6.0.0-beta.1 in go.mod), behind the small adapter package
// internal/gitrepo: commits are encoded and trees and commits decoded by
// go-git's object package; refs of the files backend are read by its reference
// storage (loose and packed) and their reflogs written by it; config files
// are decoded by its config decoder and attribute lines parsed by its
// gitattributes parser; delta chains are applied by its packfile package;
// an object the reader below does not find where it looks (an .idx of
// another version, a C-quoted alternate) is asked of go-git's object
// storage. Version 6 rather than 5: v5 cannot open a SHA-256 repository
// (unknown extension objectformat; its sha256 build tag makes every id 32
// bytes), v6 opens both kinds in one binary. docs/BENCHMARKS.md has what
// the move to go-git cost and what the thin pieces below won back.
//
// What go-git does not do, or does at a cost graft's calls cannot pay,
// stays as thin code of ours:
//
//   - reading objects (gitrepo/pack.go): go-git reads a packed object
//     through the pack's reverse index, and where a pack has no .rev file
//     (git before 2.41 writes none) it builds one in every process, from an
//     .idx it reads four bytes a system call; graft maps each .idx and
//     .pack, finds an object's offset in the .idx and resolves an offset
//     delta by offset, as git does, so no reverse index is needed, and
//     reads loose objects itself (alternates included);
//   - writing loose objects (gitrepo/objects.go): zlib of the header and
//     content, one write into a new read-only temporary file in the
//     object's fan-out directory, renamed into place, as git does (go-git
//     wrote each in seven writes, stat'ed it twice and left it writable);
//     graft writes no packs, so none pile up in the user's repository;
//   - encoding a tree (gitrepo/tree.go): "MODE NAME\0" and the raw id per
//     entry, in git's order; go-git's encoder formats each entry through
//     fmt and copies the tree twice, which cost an MCP edit in a directory
//     of a hundred files a third of a millisecond;
//   - reftable ref storage (extensions.refStorage = reftable): go-git v6
//     refuses the extension, so such refs are read with git symbolic-ref,
//     for-each-ref and moved with git update-ref --create-reflog NEW OLD
//     (refs.go);
//   - moving a ref of the files backend: git's lock-file protocol, REF.lock
//     created exclusively, the ref read and compared under it, the new
//     value written into the lock file (synced for branches) and renamed
//     over the ref; go-git rewrote the ref file in place under an flock git
//     does not take. A journal ref's lock file is taken, and the ref
//     compared, while the call's data is synced, so that only the write and
//     the rename are left once its files are in place (txn.go). While
//     graft's lock is held, HEAD and each ref are read once (refs.go);
//   - config include/includeIf (go-git's reader does not follow them, go-git
//     issue 388): identity comes from git var (above); the other keys graft
//     reads are taken from the files themselves. Where go-git's decoder
//     refuses a text git reads (old "[section.sub]" headers, keys before any
//     section, a key on its header's line), git config --list reads that
//     file;
//   - attribute pattern matching: go-git's matcher disagrees with git's own
//     wildmatch test cases (t3070, wildmatch_test.go), so graft's wildmatch
//     matches the patterns go-git parsed, and the C escapes of a quoted
//     pattern, which go-git leaves as written, are decoded;
//   - the zlib level of a loose object (internal/gitrepo/zlib.go): stored
//     blocks, which need no 1.2 MB compressor (git compresses them when it
//     packs);
//     and crypto/sha1 registered as go-git's SHA-1, since its
//     collision-detecting default is several times slower;
//   - the file system go-git works through (internal/gitrepo/plainfs.go):
//     billy v6's osfs binds every file system to an os.Root and resolves
//     each path a component at a time; plainFS uses plain paths under the
//     git directory, and opens a file in one system call where os.OpenFile
//     makes five;
//   - the session's tree cache (treeCache in objects.go): two generations
//     bounded by bytes, so that a long graft mcp session keeps a flat
//     memory while it writes new versions of the trees it edits;
//   - files made ahead (internal/gitrepo/temppool.go, OpenOptions.PoolFiles):
//     graft mcp creates empty files in the objects directory after it
//     answers, and a call renames them to its objects, its temporary copy
//     and its ref's lock (renameat2 without replace: git's lock protocol),
//     because creating a file is most of an edit where the inode allocator
//     is slow; go-git creates each object's file in the call;
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
