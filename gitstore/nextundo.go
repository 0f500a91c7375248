package gitstore

// NextUndo returns the journal entry that Undo with one step would
// reverse: the last edit not undone yet. It fails with ErrNothingToUndo
// when there is none. A caller that reverses an edit only when it is of a
// given file (str_replace_editor's undo_edit) asks this first.
func (s *Store) NextUndo() (Entry, error) {
	commits, _, err := s.journal()
	if err != nil {
		return Entry{}, err
	}
	done, _ := stacks(commits)
	if len(done) == 0 {
		return Entry{}, ErrNothingToUndo
	}
	top := done[len(done)-1]
	for _, c := range commits {
		if c.Hash.String() == top {
			return s.entry(c)
		}
	}
	return Entry{}, ErrNothingToUndo
}
