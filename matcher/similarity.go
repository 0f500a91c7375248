package matcher

import "strings"

// similarityAt scores old against the file's lines from p on.
func (s *searcher) similarityAt(old []string, p int) float64 {
	f := make([]string, len(old))
	for i := range old {
		f[i] = string(s.fl.Text(p + i + 1))
	}
	return similarity(old, f)
}

// similarity is the mean similarity of paired lines; lines equal but for
// a "\r" count as equal.
func similarity(a, b []string) float64 {
	if len(a) == 0 {
		return 0
	}
	var sum float64
	for i := range a {
		if i >= len(b) {
			break
		}
		sum += lineSimilarity(a[i], b[i])
	}
	// A match is never scored 0: the lines were equal under its tier.
	return max(round3(sum/float64(max(len(a), len(b)))), 0.001)
}

// affixSimilarity is 2×(common prefix + common suffix) / (len a + len b):
// cheap enough to run against every line of a file, and what the scans and
// madeFrom's "alike" threshold use. It says little about how far apart two
// lines are (a changed indentation or a word added at the end scores 0), so
// it is never shown: reported scores come from lineSimilarity.
func affixSimilarity(a, b string) float64 {
	a, b = strings.TrimSuffix(a, "\r"), strings.TrimSuffix(b, "\r")
	if a == b || isBlank(a) && isBlank(b) {
		return 1
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	q := 0
	for q < len(a)-p && q < len(b)-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return 2 * float64(p+q) / float64(len(a)+len(b))
}

// lineSimilarity is how alike two lines read, the score a refusal and a
// landed match report: 1 − (character edit distance ÷ the longer line's
// length) over the lines without their indentation, less 0.05 when the
// indentation differs. A word added or a quote turned typographic costs
// its characters, not the line ("return len(n) + 1" against
// "    return len(n)" is 0.75, not 0). Lines longer than maxEditRunes
// fall back to affixSimilarity, which keeps the cost bounded.
func lineSimilarity(a, b string) float64 {
	a, b = strings.TrimSuffix(a, "\r"), strings.TrimSuffix(b, "\r")
	if a == b || isBlank(a) && isBlank(b) {
		return 1
	}
	ta, tb := strings.TrimSpace(a), strings.TrimSpace(b)
	var sim float64
	ra, rb := []rune(ta), []rune(tb)
	switch {
	case ta == tb:
		sim = 1
	case len(ra) > maxEditRunes || len(rb) > maxEditRunes:
		return affixSimilarity(a, b)
	default:
		sim = 1 - float64(editDistance(ra, rb))/float64(max(len(ra), len(rb)))
	}
	if indentOf(a) != indentOf(b) {
		sim -= 0.05
	}
	return max(sim, 0)
}

// maxEditRunes bounds the lines lineSimilarity measures by edit distance
// (its cost is the product of the two lengths).
const maxEditRunes = 200

// editDistance is the Levenshtein distance between a and b, in runes.
func editDistance(a, b []rune) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	row := make([]int, len(b)+1)
	for j := range row {
		row[j] = j
	}
	for i := 1; i <= len(a); i++ {
		diag := row[0]
		row[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			next := min(row[j]+1, row[j-1]+1, diag+cost)
			diag, row[j] = row[j], next
		}
	}
	return row[len(b)]
}

func round3(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }
