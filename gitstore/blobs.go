package gitstore

import (
	"errors"
	"fmt"
	"unsafe"
)

// ErrUnknownBlob: no blob with that id is in the repository.
var ErrUnknownBlob = errors.New("unknown blob")

// SaveBlob stores content as a git blob, so that a later call can diff
// against it, and returns its id (what file_read reports as version). A
// blob the repository has already, loose or packed (a file unchanged since
// a commit, or since graft wrote it), is not written again.
func (s *Store) SaveBlob(content []byte) (string, error) {
	h := s.blobHash(content)
	if s.stored(h) {
		return h.String(), nil
	}
	// stored looked for a loose copy already: write it without asking again.
	if err := s.repo().Write("blob", [][]byte{content}, h); err != nil {
		return "", fmt.Errorf("gitstore: %w", err)
	}
	return h.String(), nil
}

// stored reports whether object h is in the repository: loose in an
// object directory or in a pack. Outside a transaction it first drops
// pack indexes listed before git changed the packs, and afterwards closes
// them where open files keep git from deleting packs (keepCaches).
func (s *Store) stored(h oid) bool {
	if !s.lockOwned {
		s.refreshPacks()
		defer s.keepCaches()
	}
	return s.repo().Has(h)
}

// BlobID is the blob id of content in the repository's hash algorithm
// (40 hex digits for SHA-1, 64 for SHA-256): what file_read reports as
// version, without storing anything.
func (s *Store) BlobID(content []byte) string { return s.blobHash(content).String() }

// PendingHash is the blob id of a content being computed on another
// goroutine (HashAsync), so that hashing a big file overlaps the work
// between reading it and landing the call.
type PendingHash struct {
	parts [][]byte
	done  chan struct{}
	id    oid
}

// HashAsync starts computing the blob id of content, which must not change
// afterwards. Pass the result as Change.OldHash or Change.NewHash.
func (s *Store) HashAsync(content []byte) *PendingHash {
	return s.HashPartsAsync([][]byte{content})
}

// HashPartsAsync is HashAsync of the concatenation of parts (Change.NewParts).
func (s *Store) HashPartsAsync(parts [][]byte) *PendingHash {
	p := &PendingHash{parts: parts, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.id = s.algo.Sum("blob", parts)
	}()
	return p
}

// hashOf returns the blob id of content: p's when p was started for these
// very bytes (the same slice), else computed now.
func (s *Store) hashOf(p *PendingHash, content []byte) oid {
	return s.hashOfParts(p, [][]byte{content})
}

// hashOfParts is hashOf for the concatenation of parts: p's when p was
// started for the same slices.
func (s *Store) hashOfParts(p *PendingHash, parts [][]byte) oid {
	if p != nil && sameParts(p.parts, parts) {
		<-p.done
		return p.id
	}
	return s.algo.Sum("blob", parts)
}

// sameParts reports whether a and b are the same slices of the same
// memory, part by part.
func sameParts(a, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) || unsafe.SliceData(a[i]) != unsafe.SliceData(b[i]) {
			return false
		}
	}
	return true
}

// Blob returns the content of the blob id, or ErrUnknownBlob.
func (s *Store) Blob(id string) ([]byte, error) {
	h, ok := s.algo.Parse(id)
	if !ok || h.IsZero() {
		return nil, ErrUnknownBlob
	}
	b, err := s.readBlob(h)
	if errors.Is(err, errObjectNotFound) {
		return nil, ErrUnknownBlob
	}
	return b, err
}
