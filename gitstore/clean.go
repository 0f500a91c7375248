package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os/exec"
	"strings"
)

// Journal blobs are the clean form of a file, what `git add` would store;
// the worktree keeps its own bytes. Two conversions exist:
//
//   - End-of-line conversion, done here as git does it (convert.c): a path
//     is text by its text attribute (set, or auto), by an eol attribute, or
//     by core.autocrlf (true or input) when it has no text attribute; a text
//     path's CRLF pairs become LF on the way in, lone CRs stay. Under auto
//     (text=auto or core.autocrlf), content git calls binary (a NUL, a lone
//     CR, mostly unprintable) is left alone, and so is a file whose stored
//     version already holds CRLF (git's "safer autocrlf" rule; graft's
//     stored version is the journal's, which is the branch's until graft
//     touches the file).
//   - Filters (a filter attribute: Git LFS and other clean/smudge drivers),
//     ident and working-tree-encoding: git's own machinery computes the clean
//     form (`git hash-object -w --path=P --stdin`), and undo turns journal
//     blobs back into worktree bytes with `git cat-file --filters`. Without
//     git installed such a path is refused (ErrFiltered), never stored wrong.
//     Only such paths start a git process.

// conversion is how a path's content becomes its clean form.
type conversion struct {
	// external: a filter, ident or working-tree-encoding attribute; git
	// converts. what names it for messages.
	external bool
	what     string
	// text: end-of-line conversion applies; auto: only to content git
	// calls text, and not when the stored version holds CRLF.
	text, auto bool
}

// conversionOf reads the attributes and configuration that decide how
// path is cleaned. cache holds parsed attribute files for one call.
func (s *Store) conversionOf(path string, cache attrCache) conversion {
	attrs := s.attributes(path, cache)
	for _, name := range []string{"filter", "ident", "working-tree-encoding"} {
		if a, ok := attrs[name]; ok && (a.IsSet() || a.IsValueSet()) {
			v := name
			if a.IsValueSet() {
				v += "=" + a.Value()
			}
			return conversion{external: true, what: v}
		}
	}
	var c conversion
	text, hasText := attrs["text"]
	eol, hasEOL := attrs["eol"]
	hasEOL = hasEOL && eol.IsValueSet()
	switch {
	case hasText && text.IsUnset():
		// -text (binary): never converted.
	case hasText && text.IsValueSet() && text.Value() == "auto":
		c.text, c.auto = true, true
	case hasText && (text.IsSet() || text.IsValueSet()):
		c.text = true
	case hasEOL:
		c.text = true // an eol attribute makes a path text
	default:
		switch strings.ToLower(s.cfg.get("core", "autocrlf")) {
		case "true", "input", "yes", "on", "1":
			c.text, c.auto = true, true
		}
	}
	return c
}

// cleaned is the clean form of one version of a file.
type cleaned struct {
	hash    oid
	content []byte // nil when git computed it (read the blob when needed)
	changed bool   // the clean form differs from the worktree bytes
}

// clean returns the clean form of content at path; stored is the
// journal's entry for the path (for the safer autocrlf rule), and id the
// blob id of content itself when the caller has it ("" to compute it).
// Only a filter writes a blob here (git does); the caller writes the
// others it keeps.
func (s *Store) clean(path string, content []byte, conv conversion, stored entry, id oid) (cleaned, error) {
	if conv.external {
		h, err := s.gitHashObject(path, content)
		if err != nil {
			return cleaned{}, err
		}
		if id.IsZero() {
			id = s.blobHash(content)
		}
		return cleaned{hash: h, changed: h != id}, nil
	}
	out := content
	if conv.text && bytes.Contains(content, []byte("\r\n")) {
		convert := true
		if conv.auto {
			convert = !gitBinary(content) && !s.storedHasCRLF(stored)
		}
		if convert {
			out = crlfToLF(content)
		}
	}
	if len(out) != len(content) || id.IsZero() {
		id = s.blobHash(out)
	}
	return cleaned{hash: id, content: out, changed: len(out) != len(content)}, nil
}

// store writes the clean form's blob when it has the content (a filter's
// was written by git already).
func (s *Store) store(c cleaned) error {
	if c.content == nil {
		return nil
	}
	_, err := s.writeBlob(c.content)
	return err
}

// storedHasCRLF reports whether the stored version of a path is text that
// holds CRLF: git then leaves the file's line endings alone under auto.
func (s *Store) storedHasCRLF(e entry) bool {
	if e.absent() {
		return false
	}
	b, err := s.readBlob(e.Hash)
	return err == nil && bytes.Contains(b, []byte("\r\n")) && !gitBinary(b)
}

// crlfToLF drops the CR of every CRLF pair; lone CRs stay.
func crlfToLF(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
}

// gitBinary is git's test for content that auto conversion leaves alone
// (convert.c, convert_is_binary): a NUL, a lone CR, or more than one
// unprintable byte in 128 printable ones.
func gitBinary(b []byte) bool {
	var printable, nonprintable int
	for i, c := range b {
		switch {
		case c == 0:
			return true
		case c == '\r':
			if i+1 >= len(b) || b[i+1] != '\n' {
				return true
			}
		case c == 127:
			nonprintable++
		case c < 32:
			switch c {
			case '\b', '\t', '\033', '\014', '\n':
				printable++
			default:
				nonprintable++
			}
		default:
			printable++
		}
	}
	return printable>>7 < nonprintable
}

// gitHashObject writes content's clean form through git's own filters and
// returns its id.
func (s *Store) gitHashObject(path string, content []byte) (oid, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return "", fmt.Errorf("gitstore: %s: its attributes name a filter, ident or working-tree-encoding, which only git can apply, and git is not installed: %w", path, ErrFiltered)
	}
	cmd := exec.Command("git", "--git-dir", s.gitDir, "--work-tree", s.root, "hash-object", "-w", "--path="+path, "--stdin")
	cmd.Dir = s.root
	cmd.Stdin = bytes.NewReader(content)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("gitstore: %s: git hash-object (its filter) failed: %v: %s: %w", path, err, strings.TrimSpace(stderr.String()), ErrFiltered)
	}
	id := strings.TrimSpace(string(out))
	h, ok := s.algo.Parse(id)
	if !ok || h.IsZero() {
		return "", fmt.Errorf("gitstore: %s: git hash-object printed %q", path, id)
	}
	return h, nil
}

// gitSmudge returns a blob as git would check it out at path (its smudge
// filter, ident, encoding and line endings applied).
func (s *Store) gitSmudge(path string, h oid) ([]byte, error) {
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("gitstore: %s: only git can apply its filter, and git is not installed: %w", path, ErrFiltered)
	}
	cmd := exec.Command("git", "--git-dir", s.gitDir, "--work-tree", s.root, "cat-file", "--filters", "--path="+path, h.String())
	cmd.Dir = s.root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("gitstore: %s: git cat-file --filters: %v: %s", path, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// reapply carries the change from curClean to mergedClean (clean forms,
// line for line the worktree bytes cur with CRLF read as LF) onto cur:
// lines outside the change keep their bytes, new lines take the line ending
// that cur's lines mostly have.
func reapply(cur, curClean, mergedClean []byte) ([]byte, error) {
	if mergedClean == nil {
		return nil, nil
	}
	wl, cl := splitLines(cur), splitLines(curClean)
	if len(wl) != len(cl) {
		return nil, errors.New("the file's lines do not match its clean form")
	}
	crlf := bytes.Count(cur, []byte("\r\n"))*2 > bytes.Count(cur, []byte("\n"))
	var out bytes.Buffer
	pos := 0
	for _, e := range lineEdits(curClean, mergedClean) {
		for ; pos < e.a0; pos++ {
			out.WriteString(wl[pos])
		}
		for _, l := range splitLines([]byte(e.repl)) {
			if crlf && strings.HasSuffix(l, "\n") && !strings.HasSuffix(l, "\r\n") {
				l = l[:len(l)-1] + "\r\n"
			}
			out.WriteString(l)
		}
		pos = e.a1
	}
	for ; pos < len(wl); pos++ {
		out.WriteString(wl[pos])
	}
	return out.Bytes(), nil
}
