package gitstore

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
)

// Reading objects without reading whole pack indexes.
//
// go-git's object storage, asked for an object that is not loose, loads
// the index of every pack into memory first: in a repository of 100,000
// files that is over 100,000 entries read and parsed, tens of milliseconds,
// on the first call after every commit (when the journal starts on a new
// HEAD whose trees are packed). Here a loose object is read directly, and
// a packed one is found by a binary search in the pack's .idx file (a few
// 20-byte reads, as git itself does through mmap), then decoded by go-git's
// packfile reader. Anything else (alternates, version 1 indexes) falls back
// to go-git's storage.

// object returns the object h, which must be of type t.
func (s *Store) object(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	obj, err := s.readLoose(h)
	if err == nil {
		if obj.Type() != t {
			return nil, fmt.Errorf("gitstore: object %s is a %s, not a %s", h, obj.Type(), t)
		}
		return obj, nil
	}
	if !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	if obj, err := s.readPacked(h); err == nil && obj != nil {
		if obj.Type() != t {
			return nil, fmt.Errorf("gitstore: object %s is a %s, not a %s", h, obj.Type(), t)
		}
		return obj, nil
	}
	return s.st.EncodedObject(t, h)
}

// readLoose reads a loose object; os.ErrNotExist when there is none.
func (s *Store) readLoose(h plumbing.Hash) (plumbing.EncodedObject, error) {
	hex := h.String()
	f, err := os.Open(filepath.Join(s.commonDir, "objects", hex[:2], hex[2:]))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := zlib.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("gitstore: object %s: %w", hex, err)
	}
	defer zr.Close()
	b, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("gitstore: object %s: %w", hex, err)
	}
	head, body, ok := bytes.Cut(b, []byte{0})
	typ, size, ok2 := strings.Cut(string(head), " ")
	n, err := strconv.Atoi(size)
	if !ok || !ok2 || err != nil || n != len(body) {
		return nil, fmt.Errorf("gitstore: object %s: bad loose object header", hex)
	}
	ot, err := plumbing.ParseObjectType(typ)
	if err != nil {
		return nil, fmt.Errorf("gitstore: object %s: %w", hex, err)
	}
	obj := &plumbing.MemoryObject{}
	obj.SetType(ot)
	obj.SetSize(int64(n))
	if _, err := obj.Write(body); err != nil {
		return nil, err
	}
	return obj, nil
}

// readPacked looks h up in each pack's index; nil when no pack has it.
func (s *Store) readPacked(h plumbing.Hash) (plumbing.EncodedObject, error) {
	if s.packs == nil {
		s.packs = []*packIndex{}
		dir := filepath.Join(s.commonDir, "objects", "pack")
		names, _ := filepath.Glob(filepath.Join(dir, "pack-*.idx"))
		for _, name := range names {
			if p, err := openPackIndex(name); err == nil {
				s.packs = append(s.packs, p)
			}
		}
	}
	for _, p := range s.packs {
		if _, err := p.FindOffset(h); err != nil {
			continue
		}
		if p.pack == nil {
			f, err := osfs.New(filepath.Dir(p.name)).Open(strings.TrimSuffix(filepath.Base(p.name), ".idx") + ".pack")
			if err != nil {
				return nil, err
			}
			p.pack = packfile.NewPackfile(p, nil, f, 0)
		}
		return p.pack.Get(h)
	}
	return nil, nil
}

// close releases the pack files opened for reading.
func (s *Store) closePacks() {
	for _, p := range s.packs {
		if p.pack != nil {
			p.pack.Close()
		}
		p.f.Close()
	}
	s.packs = nil
}

// packIndex is a version 2 pack index read on demand: the fan-out table
// in memory, the sorted ids, CRCs and offsets read where a lookup needs
// them. It implements the part of go-git's idxfile.Index that the
// packfile reader uses to fetch one object.
type packIndex struct {
	name   string
	f      *os.File
	n      int64
	fanout [256]uint32
	pack   *packfile.Packfile
}

const idxHeader = 8 + 256*4

func openPackIndex(name string) (*packIndex, error) {
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
	p := &packIndex{name: name, f: f}
	for i := range p.fanout {
		p.fanout[i] = binary.BigEndian.Uint32(head[8+4*i:])
	}
	p.n = int64(p.fanout[255])
	return p, nil
}

// position returns the index of h in the sorted id table.
func (p *packIndex) position(h plumbing.Hash) (int64, error) {
	lo := int64(0)
	if h[0] > 0 {
		lo = int64(p.fanout[h[0]-1])
	}
	hi := int64(p.fanout[h[0]])
	var id [20]byte
	for lo < hi {
		mid := (lo + hi) / 2
		if _, err := p.f.ReadAt(id[:], idxHeader+mid*20); err != nil {
			return 0, err
		}
		switch c := bytes.Compare(id[:], h[:]); {
		case c == 0:
			return mid, nil
		case c < 0:
			lo = mid + 1
		default:
			hi = mid
		}
	}
	return 0, plumbing.ErrObjectNotFound
}

// Contains reports whether the pack holds h.
func (p *packIndex) Contains(h plumbing.Hash) (bool, error) {
	_, err := p.position(h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return false, nil
	}
	return err == nil, err
}

// FindOffset returns where h starts in the pack.
func (p *packIndex) FindOffset(h plumbing.Hash) (int64, error) {
	i, err := p.position(h)
	if err != nil {
		return 0, err
	}
	var b [8]byte
	if _, err := p.f.ReadAt(b[:4], idxHeader+p.n*24+i*4); err != nil {
		return 0, err
	}
	off := binary.BigEndian.Uint32(b[:4])
	if off&0x80000000 == 0 {
		return int64(off), nil
	}
	if _, err := p.f.ReadAt(b[:], idxHeader+p.n*28+int64(off&0x7fffffff)*8); err != nil {
		return 0, err
	}
	return int64(binary.BigEndian.Uint64(b[:])), nil
}

// FindCRC32 returns h's CRC-32 in the pack.
func (p *packIndex) FindCRC32(h plumbing.Hash) (uint32, error) {
	i, err := p.position(h)
	if err != nil {
		return 0, err
	}
	var b [4]byte
	if _, err := p.f.ReadAt(b[:], idxHeader+p.n*20+i*4); err != nil {
		return 0, err
	}
	return binary.BigEndian.Uint32(b[:]), nil
}

// FindHash names the object at offset o. The packfile reader asks it only
// for the base of an offset delta, to key its cache; a real answer would
// need the whole index sorted by offset, so the name returned is a
// stand-in that no real id equals ("\xff\xfe" then the offset).
func (p *packIndex) FindHash(o int64) (plumbing.Hash, error) {
	var h plumbing.Hash
	h[0], h[1] = 0xff, 0xfe
	binary.BigEndian.PutUint64(h[2:], uint64(o))
	return h, nil
}

// Count is the number of objects in the pack.
func (p *packIndex) Count() (int64, error) { return p.n, nil }

var errNoIteration = errors.New("gitstore: lazy pack index cannot list entries")

// Entries is not supported: listing is what this index avoids.
func (p *packIndex) Entries() (idxfile.EntryIter, error) { return nil, errNoIteration }

// EntriesByOffset is not supported either.
func (p *packIndex) EntriesByOffset() (idxfile.EntryIter, error) { return nil, errNoIteration }
