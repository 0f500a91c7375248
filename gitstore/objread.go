package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
)

// Reading objects without reading whole pack indexes.
//
// An object is read loose when it is, else found by a binary search in
// each pack's .idx file (a few id-sized reads, as git itself does through
// mmap) and decoded from the pack, following offset and reference deltas.
// Nothing lists a pack's index, so the first read after a commit costs the
// same in a repository of ten files or of a hundred thousand. The object
// directories searched are the repository's and those its
// objects/info/alternates names.

// errObjectNotFound: no object directory holds the id.
var errObjectNotFound = errors.New("object not found")

// objectDirs lists the object directories: the repository's, then its
// alternates (recursively, as git follows them, at most a few levels).
func (s *Store) objectDirs() []string {
	if s.objDirs != nil {
		return s.objDirs
	}
	main := filepath.Join(s.commonDir, "objects")
	dirs := []string{main}
	seen := map[string]bool{main: true}
	for i := 0; i < len(dirs) && i < 6; i++ {
		b, err := os.ReadFile(filepath.Join(dirs[i], "info", "alternates"))
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(b), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(dirs[i], line)
			}
			line = filepath.Clean(line)
			if !seen[line] {
				seen[line] = true
				dirs = append(dirs, line)
			}
		}
	}
	s.objDirs = dirs
	return dirs
}

// object returns the content of object h, which must be of type typ.
func (s *Store) object(typ string, h oid) ([]byte, error) {
	t, data, err := s.readObject(h)
	if err != nil {
		return nil, err
	}
	if t != typ {
		return nil, fmt.Errorf("gitstore: object %s is a %s, not a %s", h, t, typ)
	}
	return data, nil
}

// readObject returns an object's type and content.
func (s *Store) readObject(h oid) (string, []byte, error) {
	if len(h) != 2*s.algo.size {
		return "", nil, fmt.Errorf("gitstore: %q is not a %s object id", h, s.algo.name)
	}
	for _, dir := range s.objectDirs() {
		t, data, err := readLoose(dir, h)
		if err == nil {
			return t, data, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", nil, err
		}
	}
	for attempt := 0; attempt < 2; attempt++ {
		fresh := s.packs == nil
		for _, p := range s.packIndexes() {
			off, ok, err := p.find(h)
			if err != nil {
				return "", nil, fmt.Errorf("gitstore: %s: %w", p.name, err)
			}
			if ok {
				t, data, err := s.readPacked(p, off, 0)
				if err != nil {
					return "", nil, fmt.Errorf("gitstore: object %s in %s: %w", h, filepath.Base(p.name), err)
				}
				return t, data, nil
			}
		}
		if fresh {
			break
		}
		// The packs were listed by an earlier call: git may have packed
		// the object since (and pruned it loose). Look again, once.
		s.closePacks()
	}
	return "", nil, fmt.Errorf("gitstore: object %s: %w", h, errObjectNotFound)
}

func loosePath(dir string, h oid) string {
	return filepath.Join(dir, string(h[:2]), string(h[2:]))
}

// readLoose reads a loose object; os.ErrNotExist when there is none.
func readLoose(dir string, h oid) (string, []byte, error) {
	f, err := openFile(loosePath(dir, h), os.O_RDONLY, 0)
	if err != nil {
		return "", nil, err
	}
	defer f.Close()
	// A small object (trees, commits, most blobs) is read in one go and
	// inflated from memory; a big one is streamed.
	var src io.Reader
	if fi, err := f.Stat(); err == nil && fi.Size() <= smallLoose {
		buf := make([]byte, fi.Size()+1)
		n, err := io.ReadFull(f, buf)
		if err != io.ErrUnexpectedEOF {
			// The file grew under us (or failed): it is not the object
			// it was a moment ago; read it as a stream from the start.
			if _, err := f.Seek(0, io.SeekStart); err != nil {
				return "", nil, fmt.Errorf("gitstore: object %s: %w", h, err)
			}
			src = bufio.NewReaderSize(f, 32<<10)
		} else {
			src = bytes.NewReader(buf[:n])
		}
	} else {
		src = bufio.NewReaderSize(f, 32<<10)
	}
	zr, err := getInflater(src)
	if err != nil {
		return "", nil, fmt.Errorf("gitstore: object %s: %w", h, err)
	}
	defer putInflater(zr)
	br := bufio.NewReaderSize(zr, 64)
	head, err := br.ReadString(0)
	if err != nil {
		return "", nil, fmt.Errorf("gitstore: object %s: bad loose object header", h)
	}
	typ, size, ok := strings.Cut(strings.TrimSuffix(head, "\x00"), " ")
	n, err := strconv.Atoi(size)
	if !ok || err != nil || n < 0 || !knownType(typ) {
		return "", nil, fmt.Errorf("gitstore: object %s: bad loose object header %q", h, head)
	}
	data := make([]byte, n)
	if _, err := io.ReadFull(br, data); err != nil {
		return "", nil, fmt.Errorf("gitstore: object %s: %w", h, err)
	}
	return typ, data, nil
}

// smallLoose is the size of a loose object file read whole.
const smallLoose = 64 << 10

// inflaters keeps zlib readers for reuse: a new one allocates and clears
// about 40 KB, more than inflating a tree or a commit costs.
var inflaters sync.Pool

// getInflater returns a zlib reader of r, reused when one is free.
func getInflater(r io.Reader) (io.ReadCloser, error) {
	if z, ok := inflaters.Get().(io.ReadCloser); ok {
		if err := z.(zlib.Resetter).Reset(r, nil); err != nil {
			inflaters.Put(z)
			return nil, err
		}
		return z, nil
	}
	return zlib.NewReader(r)
}

// putInflater closes z and keeps it for reuse.
func putInflater(z io.ReadCloser) {
	z.Close()
	inflaters.Put(z)
}

func knownType(t string) bool {
	return t == "blob" || t == "tree" || t == "commit" || t == "tag"
}

// packIndexes opens the index of every pack (its header and fan-out
// table only). The list is kept from call to call (see keepCaches) and
// read again when a pack directory changed or an object is missing.
func (s *Store) packIndexes() []*packIndex {
	if s.packs != nil {
		return s.packs
	}
	s.packs = []*packIndex{}
	s.packStamp = s.packDirsStamp()
	for _, dir := range s.objectDirs() {
		names, _ := filepath.Glob(filepath.Join(dir, "pack", "pack-*.idx"))
		for _, name := range names {
			if p, err := openPackIndex(name, s.algo.size); err == nil {
				s.packs = append(s.packs, p)
			}
		}
	}
	return s.packs
}

// packDirsStamp sums up the pack directories' modification times and
// sizes: adding or removing a pack changes it.
func (s *Store) packDirsStamp() string {
	var b strings.Builder
	for _, dir := range s.objectDirs() {
		if fi, err := os.Stat(filepath.Join(dir, "pack")); err == nil {
			fmt.Fprintf(&b, "%d.%d;", fi.ModTime().UnixNano(), fi.Size())
		}
	}
	return b.String()
}

// maxCachedTrees bounds the trees kept from one call to the next.
const maxCachedTrees = 20000

// keepCaches runs when a transaction's lock is released. A long-lived
// process (an MCP server) keeps the pack indexes open and the trees read
// for the next call, whose lock-time check (refreshPacks) drops them if
// git changed the packs meanwhile. Off Unix open files keep git from
// deleting packs, so they are closed after every call there.
func (s *Store) keepCaches() {
	if runtime.GOOS == "windows" {
		s.closePacks()
	}
	if len(s.trees) > maxCachedTrees {
		s.trees = nil
	}
}

// refreshPacks drops the kept pack indexes when a pack directory changed
// since they were listed (git repacked or fetched).
func (s *Store) refreshPacks() {
	if s.packs != nil && s.packDirsStamp() != s.packStamp {
		s.closePacks()
	}
}

// closePacks releases the pack files opened for reading.
func (s *Store) closePacks() {
	for _, p := range s.packs {
		if p.pack != nil {
			p.pack.Close()
		}
		p.f.Close()
	}
	s.packs = nil
	s.deltaBases = nil
}

// packIndex is a version 2 pack index read on demand: the fan-out table
// in memory, the sorted ids and offsets read where a lookup needs them.
type packIndex struct {
	name   string
	f      *os.File
	pack   *os.File // opened at the first object read from it
	idSize int
	n      int64
	fanout [256]uint32
}

const idxHeader = 8 + 256*4

func openPackIndex(name string, idSize int) (*packIndex, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	var head [idxHeader]byte
	if _, err := f.ReadAt(head[:], 0); err != nil {
		f.Close()
		return nil, err
	}
	if !bytes.Equal(head[:4], []byte{0xff, 't', 'O', 'c'}) || binary.BigEndian.Uint32(head[4:8]) != 2 {
		f.Close()
		return nil, errors.New("not a version 2 pack index")
	}
	p := &packIndex{name: name, f: f, idSize: idSize}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(head[8+4*i:])
	}
	p.n = int64(p.fanout[255])
	return p, nil
}

// position returns the index of id in the sorted id table.
func (p *packIndex) position(id []byte) (int64, bool, error) {
	lo := int64(0)
	if id[0] > 0 {
		lo = int64(p.fanout[id[0]-1])
	}
	hi := int64(p.fanout[id[0]])
	buf := make([]byte, p.idSize)
	for lo < hi {
		mid := (lo + hi) / 2
		if _, err := p.f.ReadAt(buf, idxHeader+mid*int64(p.idSize)); err != nil {
			return 0, false, err
		}
		switch c := bytes.Compare(buf, id); {
		case c == 0:
			return mid, true, nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false, nil
}

// find returns where h starts in the pack.
func (p *packIndex) find(h oid) (int64, bool, error) {
	id := h.raw()
	if len(id) != p.idSize {
		return 0, false, nil
	}
	i, ok, err := p.position(id)
	if !ok || err != nil {
		return 0, false, err
	}
	offsets := idxHeader + p.n*int64(p.idSize+4) // after the ids and CRCs
	var b [8]byte
	if _, err := p.f.ReadAt(b[:4], offsets+i*4); err != nil {
		return 0, false, err
	}
	off := binary.BigEndian.Uint32(b[:4])
	if off&0x80000000 == 0 {
		return int64(off), true, nil
	}
	if _, err := p.f.ReadAt(b[:], offsets+p.n*4+int64(off&0x7fffffff)*8); err != nil {
		return 0, false, err
	}
	return int64(binary.BigEndian.Uint64(b[:])), true, nil
}

// Pack entry types.
const (
	packCommit   = 1
	packTree     = 2
	packBlob     = 3
	packTag      = 4
	packOfsDelta = 6
	packRefDelta = 7
)

var packTypeNames = map[int]string{packCommit: "commit", packTree: "tree", packBlob: "blob", packTag: "tag"}

// maxDeltaDepth bounds a delta chain (git's default is 50, its maximum
// 4095); a longer chain is a damaged pack.
const maxDeltaDepth = 10000

// deltaBaseCacheBytes bounds the delta bases kept between reads.
const deltaBaseCacheBytes = 16 << 20

type baseKey struct {
	pack *packIndex
	off  int64
}

type baseValue struct {
	typ  string
	data []byte
}

// readPacked decodes the object at off in p's pack.
func (s *Store) readPacked(p *packIndex, off int64, depth int) (string, []byte, error) {
	if depth > maxDeltaDepth {
		return "", nil, errors.New("delta chain too long")
	}
	if v, ok := s.deltaBases[baseKey{p, off}]; ok {
		return v.typ, v.data, nil
	}
	if p.pack == nil {
		f, err := os.Open(strings.TrimSuffix(p.name, ".idx") + ".pack")
		if err != nil {
			return "", nil, err
		}
		p.pack = f
	}
	r := bufio.NewReaderSize(io.NewSectionReader(p.pack, off, 1<<62), 4096)
	c, err := r.ReadByte()
	if err != nil {
		return "", nil, err
	}
	kind := int(c>>4) & 7
	size := int64(c & 0x0f)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if c, err = r.ReadByte(); err != nil {
			return "", nil, err
		}
		if shift > 56 {
			return "", nil, errors.New("bad entry size")
		}
		size |= int64(c&0x7f) << shift
	}
	var baseType string
	var base []byte
	switch kind {
	case packOfsDelta:
		c, err := r.ReadByte()
		if err != nil {
			return "", nil, err
		}
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if c, err = r.ReadByte(); err != nil {
				return "", nil, err
			}
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		if rel <= 0 || rel > off {
			return "", nil, errors.New("bad delta base offset")
		}
		if baseType, base, err = s.readPacked(p, off-rel, depth+1); err != nil {
			return "", nil, err
		}
		s.keepBase(p, off-rel, baseType, base)
	case packRefDelta:
		id := make([]byte, p.idSize)
		if _, err := io.ReadFull(r, id); err != nil {
			return "", nil, err
		}
		if baseType, base, err = s.readObject(fromRaw(id)); err != nil {
			return "", nil, err
		}
	default:
		if packTypeNames[kind] == "" {
			return "", nil, fmt.Errorf("unknown pack entry type %d", kind)
		}
	}
	zr, err := getInflater(r)
	if err != nil {
		return "", nil, err
	}
	defer putInflater(zr)
	data := make([]byte, size)
	if _, err := io.ReadFull(zr, data); err != nil {
		return "", nil, err
	}
	if base == nil && baseType == "" {
		return packTypeNames[kind], data, nil
	}
	out, err := applyDelta(base, data)
	if err != nil {
		return "", nil, err
	}
	return baseType, out, nil
}

// keepBase caches a delta base; the cache is emptied when it grows past
// its bound (a chain's bases are read newest to oldest, so what matters is
// keeping the ones the next few reads share).
func (s *Store) keepBase(p *packIndex, off int64, typ string, data []byte) {
	if s.deltaBases == nil || s.deltaBytes+len(data) > deltaBaseCacheBytes {
		s.deltaBases, s.deltaBytes = map[baseKey]baseValue{}, 0
	}
	if len(data) > deltaBaseCacheBytes/4 {
		return
	}
	s.deltaBases[baseKey{p, off}] = baseValue{typ, data}
	s.deltaBytes += len(data)
}

// applyDelta applies a git delta (two sizes, then copy and insert
// instructions) to base.
func applyDelta(base, delta []byte) ([]byte, error) {
	bad := errors.New("bad delta")
	varint := func() (int, bool) {
		n, shift := 0, 0
		for {
			if len(delta) == 0 || shift > 56 {
				return 0, false
			}
			c := delta[0]
			delta = delta[1:]
			n |= int(c&0x7f) << shift
			shift += 7
			if c&0x80 == 0 {
				return n, true
			}
		}
	}
	srcSize, ok1 := varint()
	dstSize, ok2 := varint()
	if !ok1 || !ok2 || srcSize != len(base) {
		return nil, bad
	}
	out := make([]byte, 0, dstSize)
	for len(delta) > 0 {
		op := delta[0]
		delta = delta[1:]
		switch {
		case op&0x80 != 0:
			var off, n int
			for i := 0; i < 4; i++ {
				if op&(1<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					off |= int(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			for i := 0; i < 3; i++ {
				if op&(0x10<<i) != 0 {
					if len(delta) == 0 {
						return nil, bad
					}
					n |= int(delta[0]) << (8 * i)
					delta = delta[1:]
				}
			}
			if n == 0 {
				n = 0x10000
			}
			if off+n > len(base) || off+n < off {
				return nil, bad
			}
			out = append(out, base[off:off+n]...)
		case op != 0:
			n := int(op)
			if n > len(delta) {
				return nil, bad
			}
			out = append(out, delta[:n]...)
			delta = delta[n:]
		default:
			return nil, bad
		}
	}
	if len(out) != dstSize {
		return nil, bad
	}
	return out, nil
}
