package main

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/graftdev/graft/apply"
)

// resultJSON is a tool result's JSON in pieces: a skeleton, encoded by
// encoding/json, in which each big diff and each long hunk list is a
// marker, and the values that go where the markers are. The whole can be
// written to a connection without ever being held (mcp_http_big.go), or
// made in a buffer grown once. encoding/json would encode a 60 MB diff
// into a buffer doubled some twenty times (five times the diff allocated)
// and then copy it out.
type resultJSON struct {
	skel   []byte
	pieces []resultPiece
}

// resultPiece is one marked value: a diff, or a file's hunks.
type resultPiece struct {
	marker []byte // as the skeleton holds it
	diff   string
	// file, when set, holds a diff not yet written (apply.WithLazyDiffs):
	// it is written as it goes out.
	file  *apply.FileResult
	hunks []apply.Located
}

// A diff or a hunk list goes in a piece of its own past these sizes.
const (
	pieceDiffBytes = 64 << 10
	pieceHunks     = 1000
)

// markerNonce makes markers no text of a call can hold. It is drawn at
// first use, not at every graft process's start (most never serve MCP):
// package main's init read crypto/rand for it.
var markerNonce = sync.OnceValue(func() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
})

// newResultJSON splits out's JSON: an editing result (one with Landed)
// has its big diffs and long hunk lists cut out; any other result is one
// skeleton.
func newResultJSON(out any) (*resultJSON, error) {
	l, ok := out.(interface{ Landed() *apply.Landing })
	v := reflect.ValueOf(out)
	if !ok || v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct || !slices.ContainsFunc(l.Landed().Files, func(f apply.FileResult) bool {
		return f.LazyDiff() || len(f.Diff) > pieceDiffBytes || len(f.Hunks) > pieceHunks
	}) {
		raw, err := marshalJSON(out)
		return &resultJSON{skel: raw}, err
	}
	cp := reflect.New(v.Elem().Type())
	cp.Elem().Set(v.Elem()) // a shallow copy: its Landing is its own
	cl := cp.Interface().(interface{ Landed() *apply.Landing }).Landed()
	cl.Files = slices.Clone(cl.Files)
	var r resultJSON
	for i := range cl.Files {
		f := &cl.Files[i]
		if f.LazyDiff() || len(f.Diff) > pieceDiffBytes {
			m := fmt.Sprintf("graft-piece-%s-%d-diff", markerNonce(), i)
			p := resultPiece{marker: []byte(`"` + m + `"`), diff: f.Diff}
			if f.LazyDiff() {
				fr := *f
				p.file = &fr
			}
			r.pieces = append(r.pieces, p)
			f.Diff = m
		}
		if len(f.Hunks) > pieceHunks {
			m := []apply.Located{{Method: fmt.Sprintf("graft-piece-%s-%d-hunks", markerNonce(), i)}}
			b, err := marshalJSON(m)
			if err != nil {
				return nil, err
			}
			r.pieces = append(r.pieces, resultPiece{marker: b, hunks: f.Hunks})
			f.Hunks = m
		}
	}
	var err error
	r.skel, err = marshalJSON(cp.Interface())
	return &r, err
}

// size is about the bytes of the whole JSON.
func (r *resultJSON) size() int {
	n := len(r.skel)
	for _, p := range r.pieces {
		d := len(p.diff)
		if p.file != nil {
			d = p.file.DiffLen()
		}
		n += d + d/32 + 72*len(p.hunks)
	}
	return n
}

// bytes returns the whole JSON.
func (r *resultJSON) bytes() ([]byte, error) {
	if len(r.pieces) == 0 {
		return r.skel, nil
	}
	var b bytes.Buffer
	b.Grow(r.size() + r.size()/16)
	err := r.writeTo(&b)
	return b.Bytes(), err
}

// writeTo writes the whole JSON to w, the pieces as they are encoded. It
// is what marshalJSON(out) makes, but for the JSON's insignificant
// details (encoding/json's choice of escapes).
func (r *resultJSON) writeTo(w io.Writer) error {
	if len(r.pieces) == 0 {
		_, err := w.Write(r.skel)
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	rest := r.skel
	var one bytes.Buffer
	enc := json.NewEncoder(&one)
	enc.SetEscapeHTML(false)
	for _, p := range r.pieces {
		i := bytes.Index(rest, p.marker)
		if i < 0 {
			return fmt.Errorf("the result's JSON lost a marker") // a bug: the skeleton holds each
		}
		bw.Write(rest[:i])
		rest = rest[i+len(p.marker):]
		if p.file != nil {
			// Written from the file's lines as it is escaped: never held.
			bw.WriteByte('"')
			jw := &jsonStringWriter{w: bw}
			if err := p.file.WriteDiff(jw); err != nil {
				return err
			}
			jw.flush()
			bw.WriteByte('"')
			continue
		}
		if p.hunks == nil {
			writeJSONString(bw, p.diff)
			continue
		}
		bw.WriteByte('[')
		for j := range p.hunks {
			if j > 0 {
				bw.WriteByte(',')
			}
			one.Reset()
			if err := enc.Encode(&p.hunks[j]); err != nil {
				return err
			}
			bw.Write(bytes.TrimSuffix(one.Bytes(), []byte("\n")))
		}
		bw.WriteByte(']')
	}
	bw.Write(rest)
	return bw.Flush()
}

// writeJSONString writes s as a JSON string: quotes, backslashes and
// control characters escaped, as are U+2028 and U+2029 (which some
// JavaScript parsers take for line ends), and bytes that are not UTF-8
// written as U+FFFD, as encoding/json does. It writes no raw newline, so
// the result can be one line of a server-sent event.
func writeJSONString(w *bufio.Writer, s string) {
	w.WriteByte('"')
	escapeJSON(w, s)
	w.WriteByte('"')
}

// escapeJSON writes s escaped as the inside of a JSON string
// (writeJSONString).
func escapeJSON(w *bufio.Writer, s string) {
	const hexDigits = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			w.WriteString(s[start:i])
			switch c {
			case '"', '\\':
				w.WriteByte('\\')
				w.WriteByte(c)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hexDigits[c>>4])
				w.WriteByte(hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
}

// jsonStringWriter writes what it is given escaped as the inside of a
// JSON string (escapeJSON), so that a diff can be written into the
// result's JSON as it is made. A character whose bytes arrive in two
// writes is held until it is whole, so the escapes are those of the
// whole text; flush writes what is held at the end.
type jsonStringWriter struct {
	w     *bufio.Writer
	carry []byte // the start of a character cut by the last write
}

func (j *jsonStringWriter) WriteString(s string) (int, error) {
	n := len(s)
	if len(j.carry) > 0 {
		// Complete the held character first (or give up on it once it
		// has the bytes a character can have).
		for len(s) > 0 && len(j.carry) < utf8.UTFMax && !utf8.FullRune(j.carry) {
			j.carry = append(j.carry, s[0])
			s = s[1:]
		}
		if !utf8.FullRune(j.carry) && len(j.carry) < utf8.UTFMax {
			return n, nil
		}
		escapeJSON(j.w, string(j.carry))
		j.carry = j.carry[:0]
	}
	// A character cut at the end waits for the next write.
	cut := len(s)
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				cut = i
			}
			break
		}
	}
	escapeJSON(j.w, s[:cut])
	j.carry = append(j.carry, s[cut:]...)
	return n, nil
}

func (j *jsonStringWriter) Write(p []byte) (int, error) {
	return j.WriteString(unsafe.String(unsafe.SliceData(p), len(p)))
}

func (j *jsonStringWriter) WriteByte(c byte) error {
	if len(j.carry) == 0 && c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\' {
		return j.w.WriteByte(c)
	}
	b := [1]byte{c}
	_, err := j.Write(b[:])
	return err
}

// flush writes a character left cut at the end (as bytes that are not
// UTF-8, escaped as U+FFFD).
func (j *jsonStringWriter) flush() {
	if len(j.carry) > 0 {
		escapeJSON(j.w, string(j.carry))
		j.carry = j.carry[:0]
	}
}
