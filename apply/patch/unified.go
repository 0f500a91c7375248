package patch

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// parseUnified reads a git or plain unified diff. File sections start at a
// "diff --git" line (whose extended header and binary data go through
// go-gitdiff) or at a "--- "/"+++ " pair (read here); hunks are read here,
// with their headers recounted from their bodies (doc.go, "Normalisation").
// Lines outside sections and hunks (commit messages, prose, "Index:" lines)
// are ignored.
func parseUnified(lines []rawLine) (*Patch, error) {
	ls := lines[:0:0]
	for _, l := range lines {
		if !isFence(l.text) {
			ls = append(ls, l)
		}
	}
	p := &Patch{Format: Unified}
	var cur *FilePatch
	for i := 0; i < len(ls); {
		t := ls[i].text
		switch {
		case strings.HasPrefix(t, "diff --git "):
			fp, next, err := parseGitSection(ls, i)
			if err != nil {
				return nil, err
			}
			cur = fp
			p.Files = append(p.Files, fp)
			i = next
		case isTraditionalHeader(ls, i):
			cur = parseTraditionalHeader(ls[i], ls[i+1])
			p.Files = append(p.Files, cur)
			i += 2
		case strings.HasPrefix(t, "@@"):
			if cur == nil {
				return nil, malformed(ls[i].num, "hunk without a file header: add the --- a/PATH and +++ b/PATH lines")
			}
			if cur.Binary != nil {
				return nil, malformed(ls[i].num, "%s: text hunk after a binary patch", cur.Name())
			}
			h, next, err := parseHunk(ls, i)
			if err != nil {
				err.Path = cur.Name()
				err.Hunk = len(cur.Hunks) + 1
				return nil, err
			}
			cur.Hunks = append(cur.Hunks, h)
			i = next
		default:
			switch {
			case t == "-- " || strings.HasPrefix(t, "From "):
				cur = nil // an e-mail signature, or the next e-mail of a series
			case cur != nil && len(cur.Hunks) > 0 && (strings.HasPrefix(t, "+") || strings.HasPrefix(t, "-")):
				// Never drop a change silently: a hunk line lost its
				// leading space, which ended the hunk early.
				return nil, &failure{Kind: ErrMalformed, Path: cur.Name(), Hunk: len(cur.Hunks), PatchLine: ls[i].num,
					Reason: fmt.Sprintf("%s is outside any hunk: an earlier line of the hunk (patch line %d?) lacks its leading space, + or -",
						quoteShort(t), lastHunkEnd(ls, i))}
			}
			i++
		}
	}
	for _, fp := range p.Files {
		if err := checkFile(fp); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// checkFile refuses a file section that names no change, and hunks that
// contradict the section (old lines for a created file, new lines for a
// deleted one, no change at all).
func checkFile(fp *FilePatch) *failure {
	fail := func(hunk int, h *Hunk, format string, args ...any) *failure {
		e := &failure{Kind: ErrMalformed, Path: fp.Name(), Hunk: hunk, PatchLine: fp.Line, Reason: fmt.Sprintf(format, args...)}
		if h != nil {
			e.PatchLine = h.Line
		}
		return e
	}
	if fp.Binary != nil {
		return nil
	}
	modeChange := fp.OldMode != 0 && fp.NewMode != 0 && fp.OldMode != fp.NewMode
	if len(fp.Hunks) == 0 && !fp.IsNew && !fp.IsDelete && !fp.IsRename && !fp.IsCopy && !modeChange {
		return fail(0, nil, "the patch names no change for this file (no hunks)")
	}
	for i, h := range fp.Hunks {
		if len(h.Lines) == 0 {
			return fail(i+1, h, "empty hunk")
		}
		if !h.changes() {
			return fail(i+1, h, "hunk changes nothing: it has no + or - lines")
		}
		if fp.IsNew && len(h.OldLines()) > 0 {
			return fail(i+1, h, "a new file's hunk has context or removed lines")
		}
		if fp.IsDelete && len(h.NewLines()) > 0 {
			return fail(i+1, h, "a deleted file's hunk has context or added lines")
		}
	}
	return nil
}

func isTraditionalHeader(ls []rawLine, i int) bool {
	return strings.HasPrefix(ls[i].text, "--- ") && i+1 < len(ls) && strings.HasPrefix(ls[i+1].text, "+++ ")
}

var gitHeaderPrefixes = []string{"old mode ", "new mode ", "deleted file mode ", "new file mode ",
	"copy from ", "copy to ", "rename from ", "rename to ", "rename old ", "rename new ",
	"similarity index ", "dissimilarity index ", "index "}

func isGitHeaderLine(ls []rawLine, j int) bool {
	t := ls[j].text
	for _, p := range gitHeaderPrefixes {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	if strings.HasPrefix(t, "--- ") {
		return j+1 < len(ls) && strings.HasPrefix(ls[j+1].text, "+++ ")
	}
	return strings.HasPrefix(t, "+++ ") && j > 0 && strings.HasPrefix(ls[j-1].text, "--- ")
}

var binaryDataRE = lazyRegexp("^(literal [0-9]+|delta [0-9]+|[A-Za-z][0-9A-Za-z!#$%&()*+;<=>?@^_`{|}~-]*|)$")

// parseGitSection reads a "diff --git" header, its extended header lines
// and any binary data through go-gitdiff. Text hunks that follow are read by
// the caller. It returns the index of the first line after the section's
// header (or binary data).
func parseGitSection(ls []rawLine, i int) (*FilePatch, int, error) {
	j := i + 1
	for j < len(ls) && isGitHeaderLine(ls, j) {
		j++
	}
	header := ls[i:j]
	end := j
	if j < len(ls) && strings.HasPrefix(ls[j].text, "GIT binary patch") {
		end = j + 1
		for end < len(ls) && binaryDataRE().MatchString(ls[end].text) {
			end++
		}
	}
	var b strings.Builder
	prefixed := gitNamesPrefixed(header[0].text)
	for _, l := range header {
		b.WriteString(normaliseGitHeaderLine(l.text, prefixed))
		b.WriteByte('\n')
	}
	for _, l := range ls[j:end] {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	files, _, err := gitdiff.Parse(strings.NewReader(b.String()))
	if err != nil {
		return nil, 0, &failure{Kind: ErrMalformed, PatchLine: ls[i].num, Reason: strings.TrimPrefix(err.Error(), "gitdiff: "), Err: err}
	}
	if len(files) != 1 {
		return nil, 0, malformed(ls[i].num, "cannot read the git file header %q", header[0].text)
	}
	f := files[0]
	fp := &FilePatch{
		OldPath: f.OldName, NewPath: f.NewName,
		IsNew: f.IsNew, IsDelete: f.IsDelete, IsRename: f.IsRename, IsCopy: f.IsCopy,
		OldMode: f.OldMode, NewMode: f.NewMode, Line: ls[i].num,
	}
	if fp.IsNew {
		fp.OldPath = ""
	}
	if fp.IsDelete {
		fp.NewPath = ""
	}
	if f.IsBinary {
		if f.BinaryFragment == nil {
			return nil, 0, &failure{Kind: ErrMalformed, Path: fp.Name(), PatchLine: ls[i].num,
				Reason: "binary change without data: make the patch with git diff --binary"}
		}
		fp.Binary = f
	}
	if prefixed && fp.OldPath != "" {
		fp.AltPaths = []string{oldPrefix(header[0].text) + fp.OldPath}
	}
	return fp, end, nil
}

// gitNamesPrefixed reports whether a "diff --git X Y" line carries the
// usual one-letter prefixes (a/ b/, or git's mnemonic i/ w/ c/ o/).
func gitNamesPrefixed(line string) bool {
	rest := strings.TrimPrefix(line, "diff --git ")
	rest = strings.TrimPrefix(rest, `"`)
	return len(rest) > 2 && rest[1] == '/' && strings.ContainsRune("abciow12", rune(rest[0]))
}

func oldPrefix(line string) string {
	rest := strings.TrimPrefix(strings.TrimPrefix(line, "diff --git "), `"`)
	return rest[:2]
}

// normaliseGitHeaderLine adds the a/ and b/ prefixes that go-gitdiff
// strips to a git header written without them.
func normaliseGitHeaderLine(t string, prefixed bool) string {
	if prefixed {
		return t
	}
	switch {
	case strings.HasPrefix(t, "diff --git "):
		rest := strings.TrimPrefix(t, "diff --git ")
		a, b, ok := splitGitNames(rest)
		if !ok {
			return t
		}
		return "diff --git " + addPrefix("a/", a) + " " + addPrefix("b/", b)
	case strings.HasPrefix(t, "--- "):
		return "--- " + addPrefix("a/", strings.TrimPrefix(t, "--- "))
	case strings.HasPrefix(t, "+++ "):
		return "+++ " + addPrefix("b/", strings.TrimPrefix(t, "+++ "))
	}
	return t
}

func addPrefix(prefix, name string) string {
	if name == "/dev/null" || strings.HasPrefix(name, "/dev/null\t") {
		return name
	}
	if strings.HasPrefix(name, `"`) {
		return `"` + prefix + name[1:]
	}
	return prefix + name
}

// splitGitNames splits "X Y" where both names are unquoted: at the only
// space, or in the middle when both names are the same.
func splitGitNames(rest string) (string, string, bool) {
	if strings.Count(rest, " ") == 1 {
		a, b, _ := strings.Cut(rest, " ")
		return a, b, true
	}
	if n := len(rest); n%2 == 1 && rest[n/2] == ' ' && rest[:n/2] == rest[n/2+1:] {
		return rest[:n/2], rest[n/2+1:], true
	}
	return "", "", false
}

var epochRE = lazyRegexp(`\t(1970-01-01 00:00:00|1969-12-31 ..:00:00|Thu Jan  1 00:00:00 1970)`)

// parseTraditionalHeader reads a "--- OLD" / "+++ NEW" pair. Prefixes a/
// and b/ are removed when both sides carry them (or one side is
// /dev/null); the name as written is kept as an alternative.
func parseTraditionalHeader(a, b rawLine) *FilePatch {
	oldRaw, newRaw := headerName(a.text[4:]), headerName(b.text[4:])
	oldNull := oldRaw == "/dev/null" || epochRE().MatchString(a.text)
	newNull := newRaw == "/dev/null" || epochRE().MatchString(b.text)
	strip := !(oldNull && newNull) &&
		(oldNull || strings.HasPrefix(oldRaw, "a/")) && (newNull || strings.HasPrefix(newRaw, "b/"))
	clean := func(raw string) (string, string) {
		if strip {
			return raw[2:], raw
		}
		if _, rest, ok := strings.Cut(raw, "/"); ok && rest != "" {
			return raw, rest
		}
		return raw, ""
	}
	fp := &FilePatch{Line: a.num, IsNew: oldNull, IsDelete: newNull && !oldNull}
	oldName, oldAlt := clean(oldRaw)
	newName, newAlt := clean(newRaw)
	switch {
	case fp.IsNew:
		fp.NewPath = newName
	case fp.IsDelete:
		fp.OldPath = oldName
		fp.AltPaths = nonEmpty(oldAlt)
	case oldName == newName || strings.HasPrefix(newName, oldName):
		// "foo" and "foo.new", or the same name: the shorter is the file.
		fp.OldPath, fp.NewPath = oldName, oldName
		fp.AltPaths = nonEmpty(oldAlt, newName)
	default:
		// "foo.orig" and "foo": the new name is the file.
		fp.OldPath, fp.NewPath = newName, newName
		fp.AltPaths = nonEmpty(newAlt, oldName)
	}
	return fp
}

func nonEmpty(ss ...string) []string {
	var out []string
	for _, s := range ss {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

var timestampRE = lazyRegexp(`^(\S+)\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d`)

// headerName extracts the file name of a ---/+++ line: quoted C-style, or
// up to a tab (GNU diff puts the timestamp after one), or before a
// timestamp separated by spaces; surrounding blanks trimmed.
func headerName(s string) string {
	s = strings.TrimSpace(s)
	if strings.HasPrefix(s, `"`) {
		if end := closingQuote(s); end > 0 {
			if u, err := strconv.Unquote(s[:end+1]); err == nil {
				return u
			}
		}
	}
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	} else if m := timestampRE().FindStringSubmatch(s); m != nil {
		s = m[1]
	}
	return strings.TrimSpace(s)
}

func closingQuote(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			return i
		}
	}
	return -1
}

var hunkHeaderRE = lazyRegexp(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// maxLineNumber bounds the line numbers of a hunk header; larger ones are
// malformed rather than a reason to compute with overflowing integers.
const maxLineNumber = 1 << 30

// parseHunk reads the hunk whose header is ls[i]. The body is every
// following line that can belong to a hunk; the header's counts only decide
// where it ends when the lines past them are blank lines or an e-mail
// signature ("-- "). Otherwise the body decides and the hunk is marked
// Recounted. A header without usable numbers ("@@ @@", "@@ func f") gives a
// hunk without a position.
func parseHunk(ls []rawLine, i int) (*Hunk, int, *failure) {
	hdr := ls[i].text
	h := &Hunk{Line: ls[i].num, HeaderOld: -1, HeaderNew: -1}
	if strings.HasPrefix(hdr, "@@@") {
		return nil, 0, malformed(ls[i].num, "combined (merge) diffs are not supported")
	}
	if m := hunkHeaderRE().FindStringSubmatch(hdr); m != nil {
		nums := [4]int{}
		for k, s := range m[1:5] {
			if s == "" {
				nums[k] = 1
				continue
			}
			n, err := strconv.Atoi(s)
			if err != nil || n > maxLineNumber {
				return nil, 0, malformed(ls[i].num, "line number %s in hunk header is out of range", s)
			}
			nums[k] = n
		}
		h.HasPos = true
		h.OldStart, h.HeaderOld, h.NewStart, h.HeaderNew = nums[0], nums[1], nums[2], nums[3]
	}
	j := i + 1
	for j < len(ls) && isBodyLine(ls, j) {
		j++
	}
	body := ls[i+1 : j]
	n := len(body)
	if h.HasPos {
		if k := countedEnd(body, h.HeaderOld, h.HeaderNew); k >= 0 && ignorableTail(body[k:]) {
			n = k
		}
	}
	if n == len(body) {
		for n > 0 && body[n-1].text == "" {
			n-- // blank lines after a hunk separate it from what follows
		}
	}
	for _, l := range body[:n] {
		t := l.text
		switch {
		case t == "":
			h.Lines = append(h.Lines, Line{Op: Context, EOL: l.eol})
		case t[0] == '\\':
			if len(h.Lines) > 0 {
				h.Lines[len(h.Lines)-1].EOL = ""
			}
		default:
			h.Lines = append(h.Lines, Line{Op: Op(t[0]), Text: t[1:], EOL: l.eol})
		}
	}
	if h.HasPos {
		o, nw := len(h.OldLines()), len(h.NewLines())
		h.Recounted = o != h.HeaderOld || nw != h.HeaderNew
	}
	if len(h.Lines) == 0 {
		return nil, 0, &failure{Kind: ErrMalformed, PatchLine: h.Line, Reason: "hunk header without any lines"}
	}
	return h, i + 1 + n, nil
}

// isBodyLine reports whether ls[j] can be a line of a hunk body.
func isBodyLine(ls []rawLine, j int) bool {
	t := ls[j].text
	if t == "" {
		return true
	}
	switch t[0] {
	case ' ', '+':
		return true
	case '-':
		return !isTraditionalHeader(ls, j)
	case '\\':
		return isNoNewline(t)
	}
	return false
}

func isNoNewline(t string) bool { return len(t) >= 12 && strings.HasPrefix(t, `\ `) }

// countedEnd returns the length of the shortest prefix of body holding
// exactly oldN old lines and newN new lines (with a "\ No newline" marker
// that follows it), or -1.
func countedEnd(body []rawLine, oldN, newN int) int {
	o, n := 0, 0
	for k := 0; ; k++ {
		if o == oldN && n == newN {
			if k < len(body) && isNoNewline(body[k].text) {
				k++
			}
			return k
		}
		if k == len(body) || o > oldN || n > newN {
			return -1
		}
		switch t := body[k].text; {
		case t == "" || t[0] == ' ':
			o++
			n++
		case t[0] == '-':
			o++
		case t[0] == '+':
			n++
		}
	}
}

// ignorableTail reports whether the body lines past the header's count are
// not part of the hunk: blank lines, or an e-mail signature.
func ignorableTail(rest []rawLine) bool {
	if len(rest) > 0 && rest[0].text == "-- " {
		return true
	}
	for _, l := range rest {
		if l.text != "" {
			return false
		}
	}
	return true
}

// lastHunkEnd returns the number of the first line before ls[i] that
// could not belong to a hunk: the likely culprit of a stray hunk line.
func lastHunkEnd(ls []rawLine, i int) int {
	for j := i - 1; j >= 0; j-- {
		if !isBodyLine(ls, j) {
			return ls[j].num
		}
	}
	return ls[i].num
}
