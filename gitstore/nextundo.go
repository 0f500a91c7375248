package gitstore

// NextUndo returns the journal entry that Undo with one step would
// reverse: the last edit not undone yet. It fails with ErrNothingToUndo
// when there is none.
func (s *Store) NextUndo() (Entry, error) {
	return s.LastOf(Scope{}, "")
}
