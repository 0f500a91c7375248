package gitrepo

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// A pool of empty files made ahead, for a long-running process (graft
// mcp): a call takes them for its loose objects and its temporary copies
// instead of creating files. On a file system whose inode allocator is
// slow (ext4 without a journal passes over every inode freed in the last
// minute, reading its table block to know) creating a file costs 0.2 to
// 1.5 ms of kernel time, and an edit creates six; renaming a file made
// earlier allocates nothing. The server makes the files while it is idle,
// after it has answered (FillPool).
//
// The files live in the objects directory, named as git names its own
// temporary objects (tmp_obj_*, which git fsck passes over and git prune
// expires), with graft's infix so that graft can tell its own. Each is
// created as git creates a lock file (0644 less the umask; an object
// written through one is then made read-only), kept open and flock'ed while
// it waits in the pool: the lock tells a live process's files from the
// leftovers of one that died (RemoveStalePoolFiles takes the lock before
// it removes a file). A pool file is renamed to its object's name while
// still open, then closed. A call that finds the pool empty, or whose
// pool file cannot be renamed (removed meanwhile, another file system),
// creates its file as before.

// poolPrefix starts the names of pool files.
const poolPrefix = "tmp_obj_graft-"

// poolStaleAge is how old a pool file must be before RemoveStalePoolFiles
// removes it: one made a moment ago may be between its create and its
// lock.
const poolStaleAge = time.Minute

type tempPool struct {
	dir     string // the objects directory
	want    int
	mu      sync.Mutex
	files   []*os.File
	filling sync.Mutex // held by the one filler
	swept   bool       // the leftovers were removed (by the filler, under filling)
	// mode is the pool files' permissions: 0644 less the umask (the first
	// file's, read by the filler before any is in the pool). A lock file
	// keeps it, as git's does; an object is made read-only.
	mode   fs.FileMode
	closed bool
	// busy counts the calls running (PoolBusy): the filler makes no file
	// then, so that it takes no CPU from them.
	busy atomic.Int32
	// creating is set while the filler creates a file: the directory is
	// locked meanwhile, and a call that renamed a file out of it would
	// wait, so it takes none then.
	creating atomic.Bool
}

// PoolBusy marks a call as started (true) or ended (false): while one
// runs, the pool is not filled.
func (r *Repo) PoolBusy(busy bool) {
	if r.pool == nil {
		return
	}
	if busy {
		r.pool.busy.Add(1)
	} else {
		r.pool.busy.Add(-1)
	}
}

// StartPool makes this Repo keep up to n empty files ready (none are made
// until FillPool). It first removes the pool files that processes which
// ended left behind. Off Unix it does nothing: a file cannot be renamed
// there while it is open.
func (r *Repo) StartPool(n int) {
	if !poolSupported || n <= 0 || r.pool != nil {
		return
	}
	r.pool = &tempPool{dir: filepath.Join(r.commonDir, "objects"), want: n}
}

// FillPool creates pool files until the pool holds its n; one filler runs
// at a time (a second call returns at once). It may run on any goroutine,
// alongside the Repo's other methods. The first fill first removes the
// pool files that processes which ended left behind
// (RemoveStalePoolFiles).
func (r *Repo) FillPool() {
	p := r.pool
	if p == nil || !p.filling.TryLock() {
		return
	}
	defer p.filling.Unlock()
	if !p.swept {
		p.swept = true
		RemoveStalePoolFiles(p.dir)
	}
	for {
		p.mu.Lock()
		full := p.closed || len(p.files) >= p.want
		p.mu.Unlock()
		if full || p.busy.Load() > 0 {
			return
		}
		p.creating.Store(true)
		f, err := createTemp(p.dir, poolPrefix, 0o644)
		p.creating.Store(false)
		if err == nil && p.mode == 0 {
			var fi os.FileInfo
			if fi, err = f.Stat(); err == nil {
				p.mode = fi.Mode().Perm()
			}
		}
		if err == nil {
			err = lockPoolFile(f)
			if err != nil {
				f.Close()
				os.Remove(f.Name())
			}
		}
		if err != nil {
			return // a full disk, say: calls create their own files
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			removePoolFile(f)
			return
		}
		p.files = append(p.files, f)
		p.mu.Unlock()
	}
}

// PoolSize is the number of files waiting in the pool.
func (r *Repo) PoolSize() int {
	p := r.pool
	if p == nil {
		return 0
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.files)
}

// ClosePool removes the files left in the pool and stops it.
func (r *Repo) ClosePool() {
	p := r.pool
	if p == nil {
		return
	}
	p.mu.Lock()
	p.closed = true
	p.mu.Unlock()
	// A filler under way sees closed after its create and removes its
	// file: wait for it, so that nothing is left once this returns.
	p.filling.Lock()
	defer p.filling.Unlock()
	p.mu.Lock()
	files := p.files
	p.files = nil
	p.mu.Unlock()
	for _, f := range files {
		removePoolFile(f)
	}
}

// take returns a pool file, or nil when the pool is empty.
func (p *tempPool) take() *os.File {
	if p == nil || p.creating.Load() {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	n := len(p.files)
	if n == 0 {
		return nil
	}
	f := p.files[n-1]
	p.files = p.files[:n-1]
	return f
}

// removePoolFile removes a pool file that was not used.
func removePoolFile(f *os.File) {
	os.Remove(f.Name())
	f.Close()
}

// TempFile returns a file of the pool renamed to name, open for writing,
// with nothing in it; nil (and nothing changed) when the pool is empty or
// the rename failed (the caller creates name itself). The caller sets its
// mode and closes it.
func (r *Repo) TempFile(name string) *os.File {
	f := r.pool.take()
	if f == nil {
		return nil
	}
	if err := rename(f.Name(), name); err != nil {
		r.pool.putBack(f) // a new directory, another file system
		return nil
	}
	return f
}

// lockFromPool takes a lock file (git's protocol: name must not exist)
// by renaming a pool file to name without replacing anything; nil when
// the pool is empty, name exists, or this system cannot rename so
// (createLock then waits for name as before).
func (r *Repo) lockFromPool(name string) *os.File {
	f := r.pool.take()
	if f == nil {
		return nil
	}
	if err := renameNoReplace(f.Name(), name); err != nil {
		r.pool.putBack(f)
		return nil
	}
	return f
}

// putBack returns a pool file whose rename failed to the pool, unless the
// file itself is gone (git prune --expire now removes temporary objects):
// then it is dropped, to be made again.
func (p *tempPool) putBack(f *os.File) {
	if _, err := os.Lstat(f.Name()); err != nil {
		f.Close()
		return
	}
	p.put(f)
}

// put gives back a pool file that was taken and not used.
func (p *tempPool) put(f *os.File) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		removePoolFile(f)
		return
	}
	p.files = append(p.files, f)
}

// writePooled writes a loose object through a pool file and renames it to
// final, creating the fan-out directory dir when missing. It reports
// false when the pool is empty or the file could not be used; the pool
// file is then gone and nothing is under final that was not before.
func (r *Repo) writePooled(typ string, n int, parts [][]byte, dir, final string) (bool, error) {
	f := r.pool.take()
	if f == nil {
		return false, nil
	}
	err := writeLoose(f, typ, n, parts)
	if err == nil {
		err = f.Chmod(r.pool.mode &^ 0o222)
	}
	if err != nil {
		removePoolFile(f)
		return true, err
	}
	err = rename(f.Name(), final)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Lstat(dir); errors.Is(serr, fs.ErrNotExist) && os.MkdirAll(dir, 0o755) == nil {
			err = rename(f.Name(), final)
		}
	}
	if err != nil {
		// Removed by another process (its leftovers' sweep), say: the
		// object is written again the usual way.
		removePoolFile(f)
		return false, nil
	}
	f.Close()
	return true, nil
}

// RemoveStalePoolFiles removes the pool files in the objects directory
// dir that no live process holds (ones whose lock it can take), older than
// a minute: the leftovers of graft processes that ended without removing
// their pools (a kill, a crash). Empty or part-written, none is an object
// yet.
func RemoveStalePoolFiles(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := d.Readdirnames(-1)
	d.Close()
	for _, name := range names {
		if !strings.HasPrefix(name, poolPrefix) {
			continue
		}
		path := filepath.Join(dir, name)
		fi, err := os.Lstat(path)
		if err != nil || !fi.Mode().IsRegular() || time.Since(fi.ModTime()) < poolStaleAge {
			continue
		}
		f, err := OpenFile(path, os.O_RDONLY, 0)
		if err != nil {
			continue
		}
		if tryLockPoolFile(f) {
			os.Remove(path)
		}
		f.Close()
	}
}
