package gitstore

import "errors"

// ErrUnknownBlob: no blob with that id is in the repository.
var ErrUnknownBlob = errors.New("unknown blob")

// SaveBlob stores content as a git blob, so that a later call can diff
// against it, and returns its id (what file_read reports as version).
func (s *Store) SaveBlob(content []byte) (string, error) {
	h, err := s.writeBlob(content)
	if err != nil {
		return "", err
	}
	return h.String(), nil
}

// BlobID is the blob id of content in the repository's hash algorithm
// (40 hex digits for SHA-1, 64 for SHA-256): what file_read reports as
// version, without storing anything.
func (s *Store) BlobID(content []byte) string { return s.blobHash(content).String() }

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
