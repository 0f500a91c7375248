package gitrepo

import (
	"bytes"
	"compress/zlib"
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
// The writers of each level are kept for reuse (go-git pools this one).
type levelWriter struct {
	dst   io.Writer
	cur   *zlib.Writer
	byLvl map[int]*zlib.Writer
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
	if z.byLvl == nil {
		z.byLvl = map[int]*zlib.Writer{}
	}
	if w := z.byLvl[level]; w != nil {
		w.Reset(z.dst)
		z.cur = w
		return
	}
	z.cur, _ = zlib.NewWriterLevel(z.dst, level) // the levels above are valid
	z.byLvl[level] = z.cur
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
