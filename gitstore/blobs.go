package gitstore

import (
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
)

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

// Blob returns the content of the blob id, or ErrUnknownBlob.
func (s *Store) Blob(id string) ([]byte, error) {
	if len(id) != 40 {
		return nil, ErrUnknownBlob
	}
	h := plumbing.NewHash(id)
	if h.String() != id || s.st.HasEncodedObject(h) != nil {
		return nil, ErrUnknownBlob
	}
	return s.readBlob(h)
}
