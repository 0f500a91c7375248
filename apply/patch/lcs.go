package patch

// maxDiffCells bounds the table of the line diff (old × new lines after
// the common prefix and suffix are removed); past it the middle is
// replaced whole, which is still correct, only less precise.
const maxDiffCells = 1 << 20

// diffLines turns two line lists into hunk lines: the longest common
// subsequence becomes context, the rest deletions and additions (deletions
// first within each change). Lines compare by text and line ending.
func diffLines(a, b []Line) []Line {
	same := func(x, y Line) bool { return x.Text == y.Text && x.EOL == y.EOL }
	pre := 0
	for pre < len(a) && pre < len(b) && same(a[pre], b[pre]) {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && same(a[len(a)-1-suf], b[len(b)-1-suf]) {
		suf++
	}
	var out []Line
	for _, l := range a[:pre] {
		out = append(out, Line{Op: Context, Text: l.Text, EOL: l.EOL})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > maxDiffCells {
		out = appendChange(out, ma, mb)
	} else {
		out = appendLCS(out, ma, mb, same)
	}
	for _, l := range a[len(a)-suf:] {
		out = append(out, Line{Op: Context, Text: l.Text, EOL: l.EOL})
	}
	return out
}

func appendChange(out, del, add []Line) []Line {
	for _, l := range del {
		out = append(out, Line{Op: Delete, Text: l.Text, EOL: l.EOL})
	}
	for _, l := range add {
		out = append(out, Line{Op: Add, Text: l.Text, EOL: l.EOL})
	}
	return out
}

// appendLCS diffs a and b with the classic dynamic programme: n[i][j] is
// the length of the longest common subsequence of a[i:] and b[j:].
func appendLCS(out, a, b []Line, same func(x, y Line) bool) []Line {
	w := len(b) + 1
	n := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if same(a[i], b[j]) {
				n[i*w+j] = n[(i+1)*w+j+1] + 1
			} else {
				n[i*w+j] = max(n[(i+1)*w+j], n[i*w+j+1])
			}
		}
	}
	i, j := 0, 0
	var del, add []Line
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && same(a[i], b[j]):
			out = appendChange(out, del, add)
			del, add = del[:0], add[:0]
			out = append(out, Line{Op: Context, Text: a[i].Text, EOL: a[i].EOL})
			i++
			j++
		case j == len(b) || (i < len(a) && n[(i+1)*w+j] >= n[i*w+j+1]):
			del = append(del, a[i])
			i++
		default:
			add = append(add, b[j])
			j++
		}
	}
	return appendChange(out, del, add)
}
