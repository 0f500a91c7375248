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
// the standard library's compress/zlib. The compression level is chosen
// per object from the "TYPE SIZE\0" header go-git writes first:
//
//   - up to StoredLimit and from CompressLimit on, stored (uncompressed)
//     blocks, which git reads like any other zlib stream and compresses
//     when it packs them (git gc): a compressing writer allocates and
//     clears about 700 KB before its first byte, which costs a short-lived
//     process more than writing a few kilobytes plainly, and compressing a
//     big file is the biggest cost of an edit of it (about 100 ms for 10 MB
//     here, more than the rest of the call);
//   - in between, zlib's fastest level, as git's own loose objects are by
//     default.
//
// Anything else go-git compresses (nothing graft calls) gets zlib's
// default level.
const (
	StoredLimit   = 64 << 10
	CompressLimit = 1 << 20
)

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

// levelWriter is a zlib writer whose level is picked at its first write.
// The compressing writer is kept for reuse (go-git pools this one); stored
// blocks are written by storedWriter, which needs no compressor: a
// compress/flate writer holds about 650 KB of tables whatever its level,
// so that a pooled writer of each level held twice that, and a
// long-running server's memory grew by it once its files passed
// StoredLimit (the soak, docs/BENCHMARKS.md).
type levelWriter struct {
	dst    io.Writer
	cur    zlibWriter
	fast   *zlib.Writer
	stored storedWriter
}

// zlibWriter is what levelWriter needs of a level's writer.
type zlibWriter interface {
	io.WriteCloser
	Flush() error
}

func (z *levelWriter) Reset(w io.Writer) { z.dst, z.cur = w, nil }

func (z *levelWriter) start(first []byte) {
	level := zlib.DefaultCompression
	if sp := bytes.IndexByte(first, ' '); sp > 0 {
		if nul := bytes.IndexByte(first[sp:], 0); nul > 0 {
			if n, err := strconv.ParseInt(string(first[sp+1:sp+nul]), 10, 64); err == nil {
				level = zlib.NoCompression
				if n > StoredLimit && n < CompressLimit {
					level = zlib.BestSpeed
				}
			}
		}
	}
	switch {
	case level == zlib.NoCompression:
		z.stored.reset(z.dst)
		z.cur = &z.stored
	case level == zlib.BestSpeed && z.fast != nil:
		z.fast.Reset(z.dst)
		z.cur = z.fast
	default:
		w, _ := zlib.NewWriterLevel(z.dst, level) // the levels above are valid
		if level == zlib.BestSpeed {
			z.fast = w
		}
		z.cur = w
	}
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
