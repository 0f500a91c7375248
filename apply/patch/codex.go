package patch

import (
	"strings"
)

const (
	codexBegin    = "*** Begin Patch"
	codexEnd      = "*** End Patch"
	codexAdd      = "*** Add File: "
	codexDelete   = "*** Delete File: "
	codexUpdate   = "*** Update File: "
	codexMove     = "*** Move to: "
	codexEOF      = "*** End of File"
	codexEndFocus = "***"
)

func isCodexBegin(s string) bool { return strings.TrimSpace(s) == codexBegin }

// parseCodex reads the envelope Codex's apply_patch tool takes:
//
//	*** Begin Patch
//	*** Add File: PATH      then "+" lines
//	*** Delete File: PATH
//	*** Update File: PATH   then optional "*** Move to: PATH", then chunks:
//	@@ [anchor]             zero or more, each narrowing the search
//	 context / -old / +new  (an empty line is an empty context line)
//	*** End of File         optional: the chunk ends the file
//	*** End Patch
//
// Text before Begin and after End (a shell heredoc, prose) is ignored.
func parseCodex(lines []rawLine) (*Patch, error) {
	start := -1
	for i, l := range lines {
		if isCodexBegin(l.text) {
			start = i
			break
		}
	}
	end := -1
	for i := start + 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i].text) == codexEnd {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, malformed(lines[start].num, "*** Begin Patch without *** End Patch")
	}
	p := &Patch{Format: Codex}
	ls := lines[start+1 : end]
	for i := 0; i < len(ls); {
		// A file header may stand with white space around it (models
		// indent it inside a code block); Codex trims it too.
		t := strings.TrimSpace(ls[i].text)
		marker, name := fileHeader(t)
		switch {
		case marker == codexAdd:
			fp := &FilePatch{NewPath: cleanPath(name), IsNew: true, Line: ls[i].num}
			h := &Hunk{Line: ls[i].num, HeaderOld: -1, HeaderNew: -1}
			i++
			// an added line starts with "+": an indented "***" line ends them
			for ; i < len(ls) && !strings.HasPrefix(strings.TrimSpace(ls[i].text), codexEndFocus); i++ {
				if !strings.HasPrefix(ls[i].text, "+") {
					return nil, &failure{Kind: ErrMalformed, Path: fp.NewPath, PatchLine: ls[i].num,
						Reason: "every line of an added file must start with +"}
				}
				h.Lines = append(h.Lines, Line{Op: Add, Text: ls[i].text[1:], EOL: "\n"})
			}
			if len(h.Lines) > 0 {
				fp.Hunks = []*Hunk{h}
			}
			p.Files = append(p.Files, fp)
		case marker == codexDelete:
			p.Files = append(p.Files, &FilePatch{OldPath: cleanPath(name), IsDelete: true, Line: ls[i].num})
			i++
		case marker == codexUpdate:
			fp := &FilePatch{Line: ls[i].num}
			fp.OldPath = cleanPath(name)
			fp.NewPath = fp.OldPath
			indent := ls[i].text[:len(ls[i].text)-len(strings.TrimLeft(ls[i].text, " \t"))]
			i++
			if i < len(ls) {
				if to, ok := cutMarker(strings.TrimSpace(ls[i].text), codexMove); ok {
					fp.NewPath = cleanPath(to)
					fp.IsRename = fp.NewPath != fp.OldPath
					i++
				}
			}
			next, err := parseCodexChunks(ls, i, fp, indent)
			if err != nil {
				return nil, err
			}
			if len(fp.Hunks) == 0 && !fp.IsRename {
				return nil, &failure{Kind: ErrMalformed, Path: fp.OldPath, PatchLine: fp.Line,
					Reason: "*** Update File names no change"}
			}
			p.Files = append(p.Files, fp)
			i = next
		case t == "":
			i++
		default:
			return nil, malformed(ls[i].num, "expected *** Add File:, *** Delete File: or *** Update File:, got %q", ls[i].text)
		}
	}
	for _, fp := range p.Files {
		if fp.Name() == "" {
			return nil, malformed(fp.Line, "file operation without a path")
		}
		if err := checkFile(fp); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// fileHeader returns the marker of the file header t (trimmed) is, one of
// codexAdd, codexDelete and codexUpdate, and the path after it; "" when t
// is no file header. A header without a path ("*** Update File:") is one,
// with the path "".
func fileHeader(t string) (marker, path string) {
	for _, m := range []string{codexAdd, codexDelete, codexUpdate} {
		if rest, ok := cutMarker(t, m); ok {
			return m, rest
		}
	}
	return "", ""
}

// cutMarker returns what follows marker (which ends with a space) in t,
// the trimmed line: t may be the marker without its space, naming nothing.
func cutMarker(t, marker string) (string, bool) {
	if t == strings.TrimSuffix(marker, " ") {
		return "", true
	}
	return strings.CutPrefix(t, marker)
}

// parseCodexChunks reads the chunks of one *** Update File section into
// fp.Hunks and returns the index of the line after them. indent is the
// white space the section's header was written after: a file header
// indented the same way ends the section too (a line starting with a
// space is otherwise a context line, which may read like a header in a
// file that holds an envelope).
func parseCodexChunks(ls []rawLine, i int, fp *FilePatch, indent string) (int, error) {
	var h *Hunk
	implicit := 0 // trailing empty lines written without their space
	flush := func() {
		if h != nil && !h.AtEOF {
			// blank lines between sections are not context
			h.Lines = h.Lines[:len(h.Lines)-implicit]
		}
		implicit = 0
		if h != nil && len(h.Lines) > 0 && len(h.OldLines()) == 0 && len(h.Anchors) == 0 {
			// Only added lines, no context and no anchor: Codex's format
			// adds them at the end of the file (openai/codex,
			// codex-rs/apply-patch/src/lib.rs, compute_replacements: a
			// chunk whose old_lines are empty is inserted after the last
			// line, "or just before the final empty line if one exists",
			// a blank last line its result then loses; graft keeps that
			// line and appends after it). Stated as a position the engine
			// places like any other hunk's: its old lines (none) end the
			// file. Under an "@@ anchor" (which Codex only checks exists)
			// the model meant a place that the anchor names and nothing
			// confirms: that chunk stays without a position and is
			// refused where it is located, as a unified hunk without
			// context is.
			h.AtEOF = true
		}
		if h != nil && len(h.Lines) > 0 {
			fp.Hunks = append(fp.Hunks, h)
		}
		h = nil
	}
	for ; i < len(ls); i++ {
		l := ls[i]
		t := l.text
		if indent != "" && strings.HasPrefix(t, indent) {
			if m, _ := fileHeader(strings.TrimRight(t[len(indent):], " \t")); m != "" {
				flush()
				return i, nil
			}
		}
		switch {
		case strings.HasPrefix(t, "@@"):
			if h != nil && len(h.Lines) > 0 {
				flush()
			}
			if h == nil {
				h = &Hunk{Line: l.num, HeaderOld: -1, HeaderNew: -1}
			}
			if a := strings.TrimSpace(strings.TrimPrefix(t, "@@")); a != "" {
				h.Anchors = append(h.Anchors, strings.TrimPrefix(t, "@@ "))
			}
		case strings.TrimRight(t, " \t") == codexEOF:
			if h == nil || len(h.Lines) == 0 {
				return 0, &failure{Kind: ErrMalformed, Path: fp.OldPath, PatchLine: l.num, Reason: "*** End of File without a chunk before it"}
			}
			h.AtEOF = true
			implicit = 0
			flush()
		case strings.HasPrefix(t, codexEndFocus):
			flush()
			return i, nil
		default:
			if h == nil {
				h = &Hunk{Line: l.num, HeaderOld: -1, HeaderNew: -1}
			}
			switch {
			case t == "":
				h.Lines = append(h.Lines, Line{Op: Context, EOL: "\n"})
				implicit++
			case t[0] == ' ' || t[0] == '-' || t[0] == '+':
				h.Lines = append(h.Lines, Line{Op: Op(t[0]), Text: t[1:], EOL: "\n"})
				implicit = 0
			default:
				return 0, &failure{Kind: ErrMalformed, Path: fp.OldPath, Hunk: len(fp.Hunks) + 1, PatchLine: l.num,
					Reason: "a chunk line must start with a space, - or +: " + quoteShort(t)}
			}
		}
	}
	flush()
	return i, nil
}

// cleanPath trims what models put around a path: blanks, backquotes,
// quotes, bold markers, a trailing colon, a leading "./".
func cleanPath(s string) string {
	s = strings.TrimSpace(s)
	s = strings.Trim(s, "`*\"'")
	s = strings.TrimSuffix(s, ":")
	s = strings.TrimSpace(strings.Trim(s, "`*"))
	for strings.HasPrefix(s, "./") {
		s = s[2:]
	}
	return s
}

func quoteShort(s string) string {
	if len(s) > 60 {
		s = s[:60] + "..."
	}
	return "\"" + s + "\""
}
