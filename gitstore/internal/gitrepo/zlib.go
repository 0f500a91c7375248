package gitrepo

import (
	"bytes"
	"compress/zlib"
	stdhash "hash"
	"hash/adler32"
	"io"
	"strconv"

	"github.com/go-git/go-git/v6/x/plugin"
	gitzlib "github.com/go-git/go-git/v6/x/plugin/zlib"
)

// Loose objects are zlib streams, written by go-git's object writer with
// the standard library's compress/zlib. graft writes its own objects
// (those whose "TYPE SIZE\0" header go-git writes first) in stored,
// uncompressed deflate blocks, which git reads like any other zlib stream
// and compresses when it packs them (git gc):
//
//   - a compressing writer allocates and clears about 1.2 MB of tables
//     before its first byte, which costs a short-lived process more than
//     writing a few kilobytes plainly, and which a long-running server
//     either keeps (its resident memory then steps up by it once its files
//     pass a size, the soak's check in docs/BENCHMARKS.md) or makes again
//     after each garbage collection;
//   - compressing is the biggest cost of an edit of a big file: zlib's
//     fastest level, git's default for loose objects, takes about 3.7 ms
//     for 400 KB of Go source and 100 ms for 10 MB here, against 0.14 ms
//     and a few ms stored.
//
// The price is disk: until git packs them, graft's loose objects take the
// size of the files (a 400 KB source file 400 KB, against about 150 KB
// compressed). Anything else go-git compresses (nothing graft calls) gets
// zlib's default level.

// registerZlib makes levelProvider go-git's zlib.
func registerZlib() {
	if err := plugin.Register(plugin.Zlib(), func() gitzlib.Provider { return levelProvider{} }); err != nil {
		panic(err)
	}
}

type levelProvider struct{}

func (levelProvider) NewReader(r io.Reader) (gitzlib.Reader, error) {
	return gitzlib.NewStdlib().NewReader(r)
}

func (levelProvider) NewWriter(w io.Writer) gitzlib.Writer { return &levelWriter{dst: w} }

// levelWriter is a zlib writer whose level is picked at its first write:
// stored blocks, written by storedWriter (which needs no compressor), for
// an object graft writes; zlib's default level otherwise.
type levelWriter struct {
	dst    io.Writer
	cur    zlibWriter
	stored storedWriter
}

// zlibWriter is what levelWriter needs of a level's writer.
type zlibWriter interface {
	io.WriteCloser
	Flush() error
}

func (z *levelWriter) Reset(w io.Writer) { z.dst, z.cur = w, nil }

func (z *levelWriter) start(first []byte) {
	if isObjectHeader(first) {
		z.stored.reset(z.dst)
		z.cur = &z.stored
		return
	}
	z.cur, _ = zlib.NewWriterLevel(z.dst, zlib.DefaultCompression) // a valid level
}

// isObjectHeader reports whether first begins with a loose object's
// "TYPE SIZE\0" header.
func isObjectHeader(first []byte) bool {
	sp := bytes.IndexByte(first, ' ')
	if sp <= 0 {
		return false
	}
	nul := bytes.IndexByte(first[sp:], 0)
	if nul <= 0 {
		return false
	}
	_, err := strconv.ParseInt(string(first[sp+1:sp+nul]), 10, 64)
	return err == nil
}

func (z *levelWriter) Write(p []byte) (int, error) {
	if z.cur == nil {
		z.start(p)
	}
	return z.cur.Write(p)
}

func (z *levelWriter) Flush() error {
	if z.cur == nil {
		z.start(nil)
	}
	return z.cur.Flush()
}

func (z *levelWriter) Close() error {
	if z.cur == nil {
		z.start(nil)
	}
	return z.cur.Close()
}

// storedWriter writes a zlib stream of stored (uncompressed) deflate
// blocks (RFC 1950 and RFC 1951, 3.2.4): the two header bytes of a
// deflate stream with a 32 KB window and no preset dictionary, each Write
// as blocks of at most 65,535 bytes, an empty final block, and the
// Adler-32 of the data. It holds no tables and buffers nothing.
type storedWriter struct {
	dst     io.Writer
	adler   stdhash.Hash32
	started bool
	err     error
}

func (s *storedWriter) reset(w io.Writer) {
	if s.adler == nil {
		s.adler = adler32.New()
	}
	s.adler.Reset()
	s.dst, s.started, s.err = w, false, nil
}

func (s *storedWriter) write(p []byte) {
	if s.err == nil {
		_, s.err = s.dst.Write(p)
	}
}

func (s *storedWriter) header() {
	if !s.started {
		s.started = true
		s.write([]byte{0x78, 0x01})
	}
}

// block writes one stored block of p (at most 65,535 bytes).
func (s *storedWriter) block(p []byte, final bool) {
	var h [5]byte
	if final {
		h[0] = 1
	}
	n := uint16(len(p))
	h[1], h[2], h[3], h[4] = byte(n), byte(n>>8), byte(^n), byte(^n>>8)
	s.write(h[:])
	s.write(p)
}

func (s *storedWriter) Write(p []byte) (int, error) {
	s.header()
	s.adler.Write(p)
	for rest := p; len(rest) > 0; {
		n := min(len(rest), 65535)
		s.block(rest[:n], false)
		rest = rest[n:]
	}
	if s.err != nil {
		return 0, s.err
	}
	return len(p), nil
}

// Flush has nothing to do: every byte written is out already.
func (s *storedWriter) Flush() error { return s.err }

func (s *storedWriter) Close() error {
	s.header()
	s.block(nil, true)
	s.write(s.adler.Sum(nil)) // big-endian, as zlib's trailer is
	return s.err
}
