package gitrepo

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
	"strings"
	"sync"

	"github.com/go-git/go-git/v6/plumbing/format/packfile"
)

// Objects are read here, not through go-git's object storage, for one
// reason: go-git reads a packed object through the pack's reverse index
// (offset to id), which it needs because its pack reader keys every object
// it resolves by id, a delta's base included. Where a pack has no .rev
// file (git before 2.41 writes none: Debian 12, Ubuntu 22.04, Apple's git
// 2.39, and every repository they cloned or repacked) go-git decodes the
// whole .idx and sorts it into a reverse index in memory, in every process
// (about 76 ms at 100,000 files), and reads the .idx four bytes per system
// call (about a thousand calls per pack). git itself needs no reverse index
// to read an object: the .idx gives its offset, and an offset delta names
// its base by offset. So does this reader:
//
//   - each pack's .idx and .pack are mapped into memory (read through the
//     file where there is no mmap), once per process, and listed again
//     when the pack directory changes (git repacked or fetched);
//   - an id is looked up in the .idx (fan-out table, binary search of the
//     sorted ids, 32-bit offset or its 64-bit extension);
//   - the object's header gives its type and size; a whole object is
//     inflated, a delta's base is found by offset (OFS_DELTA) or by id
//     (REF_DELTA), and the chain is applied from its base with go-git's
//     packfile.PatchDelta; bases are kept in a small cache, bounded in
//     bytes, for the next object built on them;
//   - loose objects are read as git writes them (zlib of "TYPE SIZE\0"
//     and the content), and written the same way: one temporary file in
//     the object's fan-out directory, one write, renamed into place, read
//     only (objects.go);
//   - the object directories of objects/info/alternates are searched too.
//
// Anything this reader does not know (an .idx of another version, a pack
// it cannot map) is left to go-git's object storage, which is then asked
// about every object not found here.

// objectStore reads the objects of a repository and its alternates.
type objectStore struct {
	mu     sync.Mutex
	format Format
	root   string // the repository's own objects directory
	dirs   []*objectDir
	listed bool
	// incomplete: some pack or alternate could not be read here, so a
	// miss is asked of go-git.
	incomplete bool
	bases      baseCache
}

// objectDir is one objects directory: the repository's own, or an
// alternate's.
type objectDir struct {
	path  string
	stamp string // the pack directory's stat when its packs were listed
	packs []*pack
}

// pack is one .pack and its .idx, mapped.
type pack struct {
	name      string // the .pack file
	idx, data region
	count     int64
	hashSize  int64
	// Section offsets in the .idx (version 2).
	names, off32, off64 int64
	fanout              [256]uint32
}

// maxDeltaDepth bounds a chain of deltas (git's own default is 50; a
// chain longer than this is taken for a loop in a corrupt pack).
const maxDeltaDepth = 10000

// errUnknownPack: a pack this reader does not read (another .idx
// version); go-git is asked instead.
var errUnknownPack = errors.New("pack format not read here")

func newObjectStore(root string, format Format) *objectStore {
	return &objectStore{root: root, format: format, bases: baseCache{limit: baseCacheBytes}}
}

// list finds the object directories (own and alternates) and their packs,
// keeping the packs already open that are still there. Called under mu.
func (o *objectStore) list() {
	old := map[string]*pack{}
	for _, d := range o.dirs {
		for _, p := range d.packs {
			old[p.name] = p
		}
	}
	o.dirs, o.incomplete = nil, false
	seen := map[string]bool{}
	var add func(path string, depth int)
	add = func(path string, depth int) {
		path = filepath.Clean(path)
		if seen[path] {
			return
		}
		seen[path] = true
		d := &objectDir{path: path, stamp: dirStamp(filepath.Join(path, "pack"))}
		d.packs = o.openPacks(d, old)
		o.dirs = append(o.dirs, d)
		alt, err := os.ReadFile(filepath.Join(path, "info", "alternates"))
		if err != nil {
			return
		}
		if depth >= 5 { // git follows alternates five deep
			o.incomplete = true
			return
		}
		for _, line := range strings.Split(string(alt), "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			if line[0] == '"' {
				o.incomplete = true // a C-quoted path: go-git's to read
				continue
			}
			if !filepath.IsAbs(line) {
				line = filepath.Join(path, line)
			}
			add(line, depth+1)
		}
	}
	add(o.root, 0)
	for name, p := range old {
		if !o.has(name) {
			p.close()
		}
	}
	o.listed = true
}

func (o *objectStore) has(name string) bool {
	for _, d := range o.dirs {
		for _, p := range d.packs {
			if p.name == name {
				return true
			}
		}
	}
	return false
}

// openPacks opens the packs of d, reusing those in old (a pack's name is
// its checksum: its content never changes).
func (o *objectStore) openPacks(d *objectDir, old map[string]*pack) []*pack {
	ents, err := os.ReadDir(filepath.Join(d.path, "pack"))
	if err != nil {
		return nil
	}
	var packs []*pack
	for _, e := range ents {
		base, ok := strings.CutSuffix(e.Name(), ".idx")
		if !ok {
			continue
		}
		name := filepath.Join(d.path, "pack", base+".pack")
		if p := old[name]; p != nil {
			packs = append(packs, p)
			continue
		}
		p, err := openPack(name, filepath.Join(d.path, "pack", e.Name()), int64(o.format.Size()))
		if errors.Is(err, os.ErrNotExist) {
			continue // an .idx whose pack is gone or not there yet
		}
		if err != nil {
			o.incomplete = true
			continue
		}
		packs = append(packs, p)
	}
	return packs
}

// dirStamp changes when a file is added to or removed from dir: its
// modification time and size.
func dirStamp(dir string) string {
	fi, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%d %d", fi.ModTime().UnixNano(), fi.Size())
}

// changed reports whether a pack directory changed since it was listed.
// Called under mu.
func (o *objectStore) changed() bool {
	for _, d := range o.dirs {
		if dirStamp(filepath.Join(d.path, "pack")) != d.stamp {
			return true
		}
	}
	return false
}

// partial reports whether some pack or alternate could not be read here,
// so that a miss must be asked of go-git.
func (o *objectStore) partial() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.incomplete
}

// refresh lists the packs again when a pack directory changed since they
// were listed (one stat per objects directory), and reports whether one
// had. Packs not listed yet are listed by the first read.
func (o *objectStore) refresh() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.listed && o.changed() {
		o.list()
		return true
	}
	return false
}

// close unmaps every pack; the next read lists them again.
func (o *objectStore) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, d := range o.dirs {
		for _, p := range d.packs {
			p.close()
		}
	}
	o.dirs, o.listed = nil, false
	o.bases = baseCache{limit: baseCacheBytes}
}

// read returns object h's type and content; found is false when neither a
// pack nor a loose file here has it. A miss lists the packs again once if
// their directories changed (git may have packed and pruned the object).
func (o *objectStore) read(h ID) (typ string, data []byte, found bool, err error) {
	id, ok := o.rawID(h)
	if !ok {
		return "", nil, false, fmt.Errorf("%q is not a %s object id", h, o.format.Name())
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.listed {
		o.list()
	}
	for attempt := 0; attempt < 2; attempt++ {
		t, data, found, err := o.readLocked(h, id, 0)
		if found || err != nil {
			return typeName(t), data, found, err
		}
		if attempt > 0 || !o.changed() {
			break
		}
		o.list()
	}
	return "", nil, false, nil
}

// contains reports whether h is here, without reading it.
func (o *objectStore) contains(h ID) bool {
	id, ok := o.rawID(h)
	if !ok {
		return false
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.listed {
		o.list()
	}
	for attempt := 0; attempt < 2; attempt++ {
		for _, d := range o.dirs {
			for _, p := range d.packs {
				if _, ok := p.find(id); ok {
					return true
				}
			}
			if _, err := os.Lstat(loosePath(d.path, h)); err == nil {
				return true
			}
		}
		if attempt > 0 || !o.changed() {
			break
		}
		o.list()
	}
	return false
}

func (o *objectStore) rawID(h ID) ([]byte, bool) {
	if len(h) != 2*o.format.Size() {
		return nil, false
	}
	b := make([]byte, o.format.Size())
	for i := range b {
		hi, ok1 := unhex(h[2*i])
		lo, ok2 := unhex(h[2*i+1])
		if !ok1 || !ok2 {
			return nil, false
		}
		b[i] = hi<<4 | lo
	}
	return b, true
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	}
	return 0, false
}

func loosePath(objects string, h ID) string {
	return filepath.Join(objects, string(h[:2]), string(h[2:]))
}

// readLocked looks for h in every pack, then every loose directory.
// Called under mu; depth counts the REF_DELTA bases being resolved.
func (o *objectStore) readLocked(h ID, id []byte, depth int) (byte, []byte, bool, error) {
	for _, d := range o.dirs {
		for _, p := range d.packs {
			if off, ok := p.find(id); ok {
				t, data, err := o.unpack(p, off, depth)
				if err != nil {
					return 0, nil, false, fmt.Errorf("object %s in %s: %w", h, p.name, err)
				}
				return t, data, true, nil
			}
		}
	}
	for _, d := range o.dirs {
		t, data, err := readLoose(loosePath(d.path, h))
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return 0, nil, false, fmt.Errorf("object %s: %w", h, err)
		}
		return t, data, true, nil
	}
	return 0, nil, false, nil
}

// Pack object types.
const (
	objCommit   = 1
	objTree     = 2
	objBlob     = 3
	objTag      = 4
	objOfsDelta = 6
	objRefDelta = 7
)

func typeName(t byte) string {
	switch t {
	case objCommit:
		return "commit"
	case objTree:
		return "tree"
	case objBlob:
		return "blob"
	case objTag:
		return "tag"
	}
	return ""
}

func typeCode(name string) byte {
	switch name {
	case "commit":
		return objCommit
	case "tree":
		return objTree
	case "blob":
		return objBlob
	case "tag":
		return objTag
	}
	return 0
}

// deltaStep is a delta met on the way to its chain's base.
type deltaStep struct {
	off   int64
	delta []byte
}

// unpack returns the object at off in p, its delta chain resolved.
func (o *objectStore) unpack(p *pack, off int64, depth int) (byte, []byte, error) {
	var chain []deltaStep
	var t byte
	var data []byte
	// inPack: the chain's base is the object at off in p (not found by id
	// elsewhere), cached already when cached is set.
	inPack, cached := true, false
	for {
		if len(chain) > maxDeltaDepth {
			return 0, nil, errors.New("delta chain too long")
		}
		if len(chain) > 0 {
			if bt, b, ok := o.bases.get(p, off); ok {
				t, data, cached = bt, b, true
				break
			}
		}
		hdr, err := p.header(off)
		if err != nil {
			return 0, nil, err
		}
		body, err := p.inflate(hdr.content, hdr.size)
		if err != nil {
			return 0, nil, fmt.Errorf("at offset %d: %w", off, err)
		}
		if hdr.typ != objOfsDelta && hdr.typ != objRefDelta {
			t, data = hdr.typ, body
			break
		}
		chain = append(chain, deltaStep{off: off, delta: body})
		if hdr.typ == objOfsDelta {
			off = hdr.base
			continue
		}
		// A REF_DELTA's base: in this pack, else wherever it is.
		if boff, ok := p.find(hdr.ref); ok {
			off = boff
			continue
		}
		if depth >= maxDeltaDepth {
			return 0, nil, errors.New("delta chain too long")
		}
		ref := ID(fmt.Sprintf("%x", hdr.ref))
		bt, b, found, err := o.readLocked(ref, hdr.ref, depth+1)
		if err != nil {
			return 0, nil, err
		}
		if !found {
			return 0, nil, fmt.Errorf("delta base %s not found", ref)
		}
		t, data, inPack = bt, b, false
		break
	}
	// Every object the chain passes through is the base of the next one:
	// kept for the next object built on it. The result is not (the caller
	// owns it).
	if len(chain) > 0 && inPack && !cached {
		o.bases.put(p, off, t, data)
	}
	for i := len(chain) - 1; i >= 0; i-- {
		var err error
		if data, err = packfile.PatchDelta(data, chain[i].delta); err != nil {
			return 0, nil, fmt.Errorf("at offset %d: %w", chain[i].off, err)
		}
		if i > 0 {
			o.bases.put(p, chain[i].off, t, data)
		}
	}
	return t, data, nil
}

// entryHeader is a pack entry's header.
type entryHeader struct {
	typ     byte
	size    int64
	content int64  // where its zlib stream starts
	base    int64  // OFS_DELTA: the base's offset
	ref     []byte // REF_DELTA: the base's id
}

// header reads the entry header at off.
func (p *pack) header(off int64) (entryHeader, error) {
	var h entryHeader
	end := p.data.size() - p.hashSize
	if off < 12 || off >= end {
		return h, fmt.Errorf("offset %d out of the pack", off)
	}
	b, err := p.data.bytes(off, min(end-off, 32+p.hashSize))
	if err != nil {
		return h, err
	}
	i := 0
	next := func() (byte, error) {
		if i >= len(b) {
			return 0, errors.New("entry header cut short")
		}
		c := b[i]
		i++
		return c, nil
	}
	c, _ := next()
	h.typ = c >> 4 & 7
	h.size = int64(c & 15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return h, errors.New("entry size too big")
		}
		if c, err = next(); err != nil {
			return h, err
		}
		h.size |= int64(c&0x7f) << shift
	}
	switch h.typ {
	case objCommit, objTree, objBlob, objTag:
	case objOfsDelta:
		if c, err = next(); err != nil {
			return h, err
		}
		rel := int64(c & 0x7f)
		for c&0x80 != 0 {
			if rel > 1<<48 {
				return h, errors.New("delta base offset too big")
			}
			if c, err = next(); err != nil {
				return h, err
			}
			rel = (rel+1)<<7 | int64(c&0x7f)
		}
		h.base = off - rel
		if rel <= 0 || h.base < 12 {
			return h, fmt.Errorf("bad delta base offset %d", h.base)
		}
	case objRefDelta:
		if i+int(p.hashSize) > len(b) {
			return h, errors.New("entry header cut short")
		}
		h.ref = bytes.Clone(b[i : i+int(p.hashSize)])
		i += int(p.hashSize)
	default:
		return h, fmt.Errorf("unknown entry type %d", h.typ)
	}
	h.content = off + int64(i)
	return h, nil
}

// zlibReaders are kept for reuse: a new one allocates about 40 KB.
var zlibReaders sync.Pool

// inflate reads the zlib stream at off, which must give size bytes.
func (p *pack) inflate(off, size int64) ([]byte, error) {
	left := p.data.size() - p.hashSize - off
	// zlib cannot expand data more than about 1032 times: a bigger size is
	// a corrupt header, not an allocation to make.
	if size < 0 || size > left*1100+1024 {
		return nil, fmt.Errorf("entry size %d does not fit the pack", size)
	}
	return inflate(p.data.reader(off, left), size)
}

// inflate reads size bytes from the zlib stream r.
func inflate(r io.Reader, size int64) ([]byte, error) {
	var zr io.ReadCloser
	var err error
	if v := zlibReaders.Get(); v != nil {
		zr = v.(io.ReadCloser)
		err = zr.(zlib.Resetter).Reset(r, nil)
	} else {
		zr, err = zlib.NewReader(r)
	}
	if err != nil {
		return nil, fmt.Errorf("zlib: %w", err)
	}
	defer zlibReaders.Put(zr)
	out := make([]byte, size)
	if _, err := io.ReadFull(zr, out); err != nil {
		return nil, fmt.Errorf("zlib: %w", err)
	}
	return out, nil
}

// openPack maps a pack and its .idx (version 2) and checks that they
// belong together.
func openPack(name, idxName string, hashSize int64) (*pack, error) {
	idx, err := mapFile(idxName)
	if err != nil {
		return nil, err
	}
	data, err := mapFile(name)
	if err != nil {
		idx.close()
		return nil, err
	}
	p := &pack{name: name, idx: idx, data: data, hashSize: hashSize}
	if err := p.check(); err != nil {
		p.close()
		return nil, err
	}
	return p, nil
}

var idxMagic = []byte{0xff, 't', 'O', 'c'}

// check reads the .idx's header and fan-out table and checks the sizes
// and the pack's checksum against the .idx's copy of it.
func (p *pack) check() error {
	hs := p.hashSize
	head, err := p.idx.bytes(0, 8+256*4)
	if err != nil || !bytes.Equal(head[:4], idxMagic) || binary.BigEndian.Uint32(head[4:8]) != 2 {
		return errUnknownPack
	}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(head[8+4*i:])
		if i > 0 && p.fanout[i] < p.fanout[i-1] {
			return errUnknownPack
		}
	}
	p.count = int64(p.fanout[255])
	p.names = 8 + 256*4
	p.off32 = p.names + p.count*(hs+4) // names, then CRCs
	p.off64 = p.off32 + p.count*4
	if p.idx.size() < p.off64+2*hs || p.data.size() < 12+hs {
		return errUnknownPack
	}
	ph, err := p.data.bytes(0, 12)
	if err != nil || string(ph[:4]) != "PACK" {
		return errUnknownPack
	}
	if v := binary.BigEndian.Uint32(ph[4:8]); v != 2 && v != 3 {
		return errUnknownPack
	}
	sum, err1 := p.data.bytes(p.data.size()-hs, hs)
	want, err2 := p.idx.bytes(p.idx.size()-2*hs, hs)
	if err1 != nil || err2 != nil || !bytes.Equal(sum, want) {
		return fmt.Errorf("%s: does not match its .idx", p.name)
	}
	return nil
}

// find returns the offset of the object whose raw id is id.
func (p *pack) find(id []byte) (int64, bool) {
	hs := p.hashSize
	lo := int64(0)
	if id[0] > 0 {
		lo = int64(p.fanout[id[0]-1])
	}
	hi := int64(p.fanout[id[0]])
	for lo < hi {
		mid := lo + (hi-lo)/2
		name, err := p.idx.bytes(p.names+mid*hs, hs)
		if err != nil {
			return 0, false
		}
		switch c := bytes.Compare(name, id); {
		case c == 0:
			return p.offset(mid)
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, false
}

// offset is the pack offset of the i-th object of the .idx.
func (p *pack) offset(i int64) (int64, bool) {
	b, err := p.idx.bytes(p.off32+4*i, 4)
	if err != nil {
		return 0, false
	}
	v := binary.BigEndian.Uint32(b)
	if v&0x80000000 == 0 {
		return int64(v), true
	}
	b, err = p.idx.bytes(p.off64+8*int64(v&0x7fffffff), 8)
	if err != nil {
		return 0, false
	}
	off := int64(binary.BigEndian.Uint64(b))
	return off, off >= 0
}

func (p *pack) close() {
	p.idx.close()
	p.data.close()
}

// baseCacheBytes bounds the delta bases kept (git's own cache of delta
// bases, core.deltaBaseCacheLimit, is 96 MiB; graft reads a few trees a
// call).
const baseCacheBytes = 16 << 20

// baseCache keeps the delta bases met while resolving chains, oldest
// dropped first once their bytes pass limit.
type baseCache struct {
	limit, bytes int
	m            map[baseKey]baseEntry
	order        []baseKey
}

type baseKey struct {
	p   *pack
	off int64
}

type baseEntry struct {
	typ  byte
	data []byte
}

func (c *baseCache) get(p *pack, off int64) (byte, []byte, bool) {
	e, ok := c.m[baseKey{p, off}]
	return e.typ, e.data, ok
}

func (c *baseCache) put(p *pack, off int64, typ byte, data []byte) {
	k := baseKey{p, off}
	if len(data) > c.limit/4 {
		return
	}
	if _, ok := c.m[k]; ok {
		return
	}
	if c.m == nil {
		c.m = map[baseKey]baseEntry{}
	}
	for c.bytes+len(data) > c.limit && len(c.order) > 0 {
		old := c.order[0]
		c.order = c.order[1:]
		c.bytes -= len(c.m[old].data)
		delete(c.m, old)
	}
	c.m[k] = baseEntry{typ, data}
	c.order = append(c.order, k)
	c.bytes += len(data)
}

// readLoose reads a loose object file: zlib of "TYPE SIZE\0" and the
// content. The error wraps os.ErrNotExist when there is no such file.
func readLoose(name string) (byte, []byte, error) {
	f, err := OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		return 0, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return 0, nil, err
	}
	// A loose object is small, as a rule: read whole into a kept buffer;
	// a big one streams through a buffered reader.
	var src io.Reader
	if fi.Size() <= looseWhole {
		buf := looseBufs.Get().(*[]byte)
		defer looseBufs.Put(buf)
		n, err := io.ReadFull(f, (*buf)[:fi.Size()])
		if err != nil && err != io.ErrUnexpectedEOF {
			return 0, nil, err
		}
		src = bytes.NewReader((*buf)[:n])
	} else {
		src = bufio.NewReaderSize(f, 64<<10)
	}
	var zr io.ReadCloser
	if v := zlibReaders.Get(); v != nil {
		zr = v.(io.ReadCloser)
		err = zr.(zlib.Resetter).Reset(src, nil)
	} else {
		zr, err = zlib.NewReader(src)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s: zlib: %w", name, err)
	}
	defer zlibReaders.Put(zr)
	// The header is at most "commit " and 20 digits and a NUL.
	var head [32]byte
	n, err := io.ReadAtLeast(zr, head[:], 1)
	if err != nil && n == 0 {
		return 0, nil, fmt.Errorf("%s: %w", name, err)
	}
	sp := bytes.IndexByte(head[:n], ' ')
	nul := bytes.IndexByte(head[:n], 0)
	for nul < 0 && n < len(head) && err == nil {
		var m int
		m, err = zr.Read(head[n:])
		n += m
		nul = bytes.IndexByte(head[:n], 0)
	}
	if sp <= 0 || nul < sp {
		return 0, nil, fmt.Errorf("%s: bad object header", name)
	}
	t := typeCode(string(head[:sp]))
	var size int64
	for _, c := range head[sp+1 : nul] {
		if c < '0' || c > '9' || size > 1<<40 {
			return 0, nil, fmt.Errorf("%s: bad object size", name)
		}
		size = size*10 + int64(c-'0')
	}
	if t == 0 || nul == sp+1 {
		return 0, nil, fmt.Errorf("%s: bad object header", name)
	}
	if size > fi.Size()*1100+1024 {
		return 0, nil, fmt.Errorf("%s: object size %d does not fit the file", name, size)
	}
	out := make([]byte, size)
	got := copy(out, head[nul+1:n])
	if int64(got) < size {
		if _, err := io.ReadFull(zr, out[got:]); err != nil {
			return 0, nil, fmt.Errorf("%s: %w", name, err)
		}
	} else if int64(n-nul-1) > size {
		return 0, nil, fmt.Errorf("%s: object longer than its header says", name)
	}
	return t, out, nil
}

// looseWhole is the largest loose file read whole into a kept buffer.
const looseWhole = 32 << 10

var looseBufs = sync.Pool{New: func() any { b := make([]byte, looseWhole); return &b }}
