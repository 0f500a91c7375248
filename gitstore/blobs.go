package gitstore

import (
	"errors"
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
	if err := s.writeLoose(h, "blob", content); err != nil {
		return "", err
	}
	return h.String(), nil
}

// stored reports whether object h is in the repository: loose in an
// object directory or in a pack. Outside a transaction it first drops
// pack indexes listed before git changed the packs, and afterwards closes
// them where open files keep git from deleting packs (keepCaches).
func (s *Store) stored(h oid) bool {
	for _, dir := range s.objectDirs() {
		if exists(loosePath(dir, h)) {
			return true
		}
	}
	if !s.lockOwned {
		s.refreshPacks()
		defer s.keepCaches()
	}
	for _, p := range s.packIndexes() {
		if _, ok, err := p.find(h); err == nil && ok {
			return true
		}
	}
	return false
}

// BlobID is the blob id of content in the repository's hash algorithm
// (40 hex digits for SHA-1, 64 for SHA-256): what file_read reports as
// version, without storing anything.
func (s *Store) BlobID(content []byte) string { return s.blobHash(content).String() }

// PendingHash is the blob id of a content being computed on another
// goroutine (HashAsync), so that hashing a big file overlaps the work
// between reading it and landing the call.
type PendingHash struct {
	content []byte
	done    chan struct{}
	id      oid
}

// HashAsync starts computing the blob id of content, which must not change
// afterwards. Pass the result as Change.OldHash or Change.NewHash.
func (s *Store) HashAsync(content []byte) *PendingHash {
	p := &PendingHash{content: content, done: make(chan struct{})}
	go func() {
		defer close(p.done)
		p.id = s.blobHash(content)
	}()
	return p
}

// hashOf returns the blob id of content: p's when p was started for these
// very bytes (the same slice), else computed now.
func (s *Store) hashOf(p *PendingHash, content []byte) oid {
	if p != nil && len(p.content) == len(content) && unsafe.SliceData(p.content) == unsafe.SliceData(content) {
		<-p.done
		return p.id
	}
	return s.blobHash(content)
}

// Blob returns the content of the blob id, or ErrUnknownBlob.
func (s *Store) Blob(id string) ([]byte, error) {
	h, ok := s.algo.parse(id)
	if !ok || h.IsZero() {
		return nil, ErrUnknownBlob
	}
	b, err := s.readBlob(h)
	if errors.Is(err, errObjectNotFound) {
		return nil, ErrUnknownBlob
	}
	return b, err
}
