// Package gitrepo is graft's access to a git repository's storage:
// objects, loose and packed, read and written; the files ref backend read
// and moved by compare-and-swap; config and attribute files parsed. It is
// built on go-git (github.com/go-git/go-git/v6), which encodes commits,
// decodes trees and commits, reads refs and writes reflogs, decodes config
// and attribute files and applies deltas; the object reader and writer
// (pack.go, objects.go), the tree encoder (tree.go) and the ref move
// (refs.go) are thin code of graft's own, because go-git's cost a call
// more than the call itself (each file says how). It knows nothing of journals, transactions or
// worktree files; package gitstore builds those on top of it.
//
// Object ids cross this package's boundary as lowercase hex (ID), so that
// the layers above can write them into intent records and messages as
// they are. The repository's hash algorithm (SHA-1 or SHA-256) is the
// storage's: one binary handles both.
package gitrepo

import (
	"crypto"
	"crypto/sha1"
	"errors"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/go-git/go-billy/v6"
	"github.com/go-git/go-billy/v6/osfs"
	"github.com/go-git/go-git/v6/plumbing"
	"github.com/go-git/go-git/v6/plumbing/cache"
	formatcfg "github.com/go-git/go-git/v6/plumbing/format/config"
	githash "github.com/go-git/go-git/v6/plumbing/hash"
	"github.com/go-git/go-git/v6/storage/filesystem"
	"github.com/go-git/go-git/v6/storage/filesystem/dotgit"
)

func init() {
	// Ids are computed with crypto/sha1 (SHA-NI where the CPU has it)
	// rather than go-git's collision-detecting default, which is several
	// times slower and guards against crafted objects fetched from
	// others, not against the content of the user's own files.
	if err := githash.RegisterHash(crypto.SHA1, sha1.New); err != nil {
		panic(err)
	}
	registerZlib()
}

// ID is an object id: lowercase hex, "" when there is none.
type ID string

// IsZero reports whether h names no object.
func (h ID) IsZero() bool { return h == "" }

// String returns the hex digits.
func (h ID) String() string { return string(h) }

// Short is the first 12 digits, for messages.
func (h ID) Short() string {
	if len(h) > 12 {
		return string(h[:12])
	}
	return string(h)
}

// Format is a repository's hash algorithm.
type Format struct{ f formatcfg.ObjectFormat }

// SHA1 and SHA256 are the two object formats.
var (
	SHA1   = Format{formatcfg.SHA1}
	SHA256 = Format{formatcfg.SHA256}
)

// Name is "sha1" or "sha256".
func (f Format) Name() string { return f.f.String() }

// Size is the bytes of an id.
func (f Format) Size() int { return f.f.Size() }

// ZeroHex is the all-zero id git writes for "no object" (reflogs, the
// index's removal lines, update-ref's must-not-exist).
func (f Format) ZeroHex() string { return strings.Repeat("0", f.f.HexSize()) }

// Parse reads a full hex id of this format; ok is false for anything
// else. The all-zero id reads as the zero ID.
func (f Format) Parse(s string) (ID, bool) {
	if len(s) != f.f.HexSize() {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", false
		}
	}
	if s == f.ZeroHex() {
		return "", true
	}
	return ID(s), true
}

// Sum is the id of an object of type typ ("blob", "tree", "commit") whose
// content is the concatenation of parts.
func (f Format) Sum(typ string, parts [][]byte) ID {
	t, err := plumbing.ParseObjectType(typ)
	if err != nil {
		t = plumbing.BlobObject
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	h := plumbing.NewHasher(f.f, t, int64(n))
	for _, p := range parts {
		h.Write(p)
	}
	return fromHash(h.Sum())
}

// hash is h as go-git's id (ok false for the zero ID or a malformed one).
func hash(h ID) (plumbing.Hash, bool) {
	if h.IsZero() {
		return plumbing.ZeroHash, false
	}
	return plumbing.FromHex(string(h))
}

func fromHash(h plumbing.Hash) ID {
	if h.IsZero() {
		return ""
	}
	return ID(h.String())
}

// Repo is one repository's storage: its git dir (per-worktree files) and
// common dir (objects, shared refs, config).
type Repo struct {
	gitDir, commonDir string
	format            Format
	st                *filesystem.Storage // the whole repository
	wt                *filesystem.Storage // per-worktree refs (refs/worktree/..., HEAD), nil in the main worktree
	objs              *objectStore        // objects read and written here (pack.go)
	// goGitStale: the packs changed since go-git listed them; it lists
	// them again before it is next asked.
	goGitStale atomic.Bool
	// pool holds empty files made ahead for the objects and temporary
	// copies of the next calls (temppool.go); nil unless StartPool.
	pool *tempPool
}

// ErrNotFound: no object has the id.
var ErrNotFound = errors.New("object not found")

// objectCacheBytes bounds go-git's cache of objects read and written. It
// counts object bytes only, and a session writes small objects (trees,
// commits) whose bookkeeping outweighs them: at 4 MiB a long graft mcp
// session held tens of thousands of them before the bound was reached.
// graft keeps its own cache of the trees it walks (gitstore's treeCache).
const objectCacheBytes = 1 << 20

// Open opens the storage of the repository whose git dir and common dir
// are given, with the given object format (read from its config by the
// caller, which refuses formats it does not know).
func Open(gitDir, commonDir string, format Format) *Repo {
	r := &Repo{gitDir: gitDir, commonDir: commonDir, format: format}
	opts := filesystem.Options{ObjectFormat: format.f, AlternatesFS: osfs.New(string(filepath.Separator))}
	if filepath.Clean(gitDir) == filepath.Clean(commonDir) {
		r.st = filesystem.NewStorageWithOptions(r.dirFS(commonDir), cache.NewObjectLRU(objectCacheBytes), opts)
	} else {
		fs := dotgit.NewRepositoryFilesystem(r.dirFS(gitDir), r.dirFS(commonDir))
		r.st = filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCacheBytes), opts)
		r.wt = filesystem.NewStorageWithOptions(r.dirFS(gitDir), cache.NewObjectLRU(0), opts)
	}
	r.objs = newObjectStore(filepath.Join(commonDir, "objects"), format)
	return r
}

// Format is the repository's hash algorithm.
func (r *Repo) Format() Format { return r.format }

// Close releases the files kept open (pack indexes and packs).
func (r *Repo) Close() error {
	r.objs.close()
	err := r.st.Close()
	if r.wt != nil {
		r.wt.Close()
	}
	return err
}

// dirFS is the file system go-git reads and writes dir through (see
// plainFS for why it is not billy's osfs).
func (r *Repo) dirFS(dir string) billy.Filesystem { return newPlainFS(dir) }

// Refresh makes the next reads list the packs again when a pack directory
// changed since they were listed (git repacked or fetched meanwhile).
func (r *Repo) Refresh() {
	if r.objs.refresh() {
		r.goGitStale.Store(true)
	}
}

// Idle closes the pack files kept open between calls: off Unix an open
// file keeps git from deleting a pack it replaced.
func (r *Repo) Idle() {
	r.objs.close()
	r.st.CloseIdleDescriptors()
}
