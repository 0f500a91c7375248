package gitstore

import (
	"crypto/sha1"
	"crypto/sha256"
	"encoding/hex"
	"hash"
	"strconv"
	"strings"
)

// Object ids and the repository's hash algorithm.
//
// A repository names its objects with SHA-1 (40 hex digits) or, when
// extensions.objectFormat is sha256, with SHA-256 (64). graft reads and
// writes both kinds with its own object code (objects.go, objread.go), so
// one id type carries either: the lowercase hex digits, "" for none.

// oid is an object id: lowercase hex, "" when there is none.
type oid string

// IsZero reports whether h names no object.
func (h oid) IsZero() bool { return h == "" }

// String returns the hex digits.
func (h oid) String() string { return string(h) }

// short is the first 12 digits, for messages.
func (h oid) short() string {
	if len(h) > 12 {
		return string(h[:12])
	}
	return string(h)
}

// raw is the id's bytes (nil for the zero id).
func (h oid) raw() []byte {
	b, _ := hex.DecodeString(string(h))
	return b
}

// objectFormat is a repository's hash algorithm.
type objectFormat struct {
	name string
	size int // bytes of an id
	new  func() hash.Hash
}

var (
	formatSHA1   = objectFormat{name: "sha1", size: sha1.Size, new: sha1.New}
	formatSHA256 = objectFormat{name: "sha256", size: sha256.Size, new: sha256.New}
)

// sum is the id of an object of type typ ("blob", "tree", "commit") with
// the given content. SHA-1 comes from crypto/sha1 (SHA-NI where the CPU has
// it), not a collision-detecting implementation, which is several times
// slower and guards against crafted objects fetched from others, not
// against the content of the user's own files.
func (f objectFormat) sum(typ string, content []byte) oid {
	return f.sumParts(typ, [][]byte{content})
}

// sumParts is sum of the concatenation of parts.
func (f objectFormat) sumParts(typ string, parts [][]byte) oid {
	h := f.new()
	h.Write([]byte(typ + " " + strconv.Itoa(partsLen(parts)) + "\x00"))
	for _, p := range parts {
		h.Write(p)
	}
	return oid(hex.EncodeToString(h.Sum(nil)))
}

// zeroHex is the all-zero id git writes for "no object" (reflogs, the
// index's removal lines, update-ref's must-not-exist).
func (f objectFormat) zeroHex() string { return strings.Repeat("0", 2*f.size) }

// parse reads a full hex id of this format; ok is false for anything else.
func (f objectFormat) parse(s string) (oid, bool) {
	if len(s) != 2*f.size {
		return "", false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return "", false
		}
	}
	if s == f.zeroHex() {
		return "", true
	}
	return oid(s), true
}

// fromRaw turns id bytes into an oid.
func fromRaw(b []byte) oid { return oid(hex.EncodeToString(b)) }
