package apply

import (
	"github.com/graftdev/graft/internal/textedit"
)

// notebookReadNote is what file_read says of a notebook's content.
const notebookReadNote = `notebook: each cell is a "# %%" header line, then its source; edits change one cell's source (line numbers as shown); notebook_edit adds, deletes or retypes cells; apply_patch takes a diff of the JSON`

// notebookEditNote is what a result says of a notebook edited through
// its view.
const notebookEditNote = "edited code cells keep their outputs and execution_count as they were (run the notebook to refresh them)"

// nbState is how a transaction sees a .ipynb file: through the notebook's
// view (its percent script, internal/textedit), or as its JSON bytes (a
// patch names JSON lines; a file that was not a valid notebook).
type nbState struct {
	// asJSON: the file is read and changed as its JSON bytes.
	asJSON bool
	// checked: whether Old parses as a notebook is known (valid).
	checked, valid bool
}

// notebook reports whether the file is read and changed through its
// notebook view: a .ipynb file that existed as a valid nbformat 4
// notebook, not read as JSON.
func (f *TxFile) notebook() bool {
	if f.nb.asJSON || f.raw || !f.Exists || f.whole || f.deleted || !textedit.IsNotebookPath(f.Rel) {
		return false
	}
	return f.oldValid()
}

// oldValid reports whether the file was a valid notebook when the call
// began (parsed once).
func (f *TxFile) oldValid() bool {
	if !f.nb.checked {
		f.nb.checked = true
		v, err := textedit.NotebookView(f.Old)
		if f.nb.valid = err == nil; f.nb.valid {
			f.oldCached = &v
		}
	}
	return f.nb.valid
}

// AsJSON makes the file read and change as its JSON bytes, not its
// notebook view (apply_patch: a diff of a notebook names its JSON lines).
// Land still refuses a result that is not a valid notebook.
func (f *TxFile) AsJSON() {
	f.nb.asJSON = true
	f.cached, f.oldCached = nil, nil
}

func (f *TxFile) oldNotebookView() textedit.View {
	if f.oldCached == nil {
		v, _ := textedit.NotebookView(f.Old) // notebook() parsed it
		f.oldCached = &v
	}
	return *f.oldCached
}

func (f *TxFile) notebookView() textedit.View {
	if !f.stepped() {
		return f.oldNotebookView()
	}
	if f.cached == nil {
		v, err := textedit.NotebookView(f.Content())
		if err != nil {
			// Cannot happen: each step changes one source value.
			v = textedit.NewView(f.Content())
		}
		f.cached = &v
	}
	return *f.cached
}

// checkNotebook refuses a notebook that the call would leave invalid
// (not JSON, not nbformat 4, a cell without cell_type or source), unless
// it was invalid already when the call began.
func (f *TxFile) checkNotebook() error {
	if f.deleted || f.raw || !textedit.IsNotebookPath(f.Rel) {
		return nil
	}
	if f.Exists && !f.oldValid() {
		return nil
	}
	if f.notebook() && f.view().Notebook() != nil {
		return nil // the view parsed the content
	}
	if _, err := textedit.ParseNotebook(f.Content()); err != nil {
		return invalidf(f.Rel, "", "the result is not a valid notebook (%v): nothing was written. Edit a notebook's cells through its view (file_read shows it) or notebook_edit", err)
	}
	return nil
}
