package charset

import (
	"bufio"
	_ "embed"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// Floor is the detector's confidence floor: below it a file's encoding
// stays unknown. Confidence is the candidate's share of the likelihood of
// the file's bytes over every candidate that decodes them cleanly
// (docs/ACCURACY.md measures what it names right, wrong or leaves
// unknown).
const Floor = 0.95

// minBitsPerByte is the least average log-likelihood, in bits per byte at
// or above 0x80, of a text the detector names: below it the text is no
// language graft knows in any candidate (random or binary bytes).
const minBitsPerByte = -9.0

// sampleBytes is how much of a file the detector reads.
const sampleBytes = 64 << 10

// candidate is one encoding the detector can name, with the languages
// its text is scored by (the best fitting one counts) and its prior
// (log2).
type candidate struct {
	name  string
	codec encoding.Encoding
	langs []string
	prior float64
}

var (
	western  = []string{"fr", "de", "es", "pt", "it", "nl", "sv", "da", "ca", "fi"}
	central  = []string{"pl", "cs", "sk", "hu", "hr", "sl"}
	cyrillic = []string{"ru", "uk", "bg", "sr", "be"}
)

var candidates = []candidate{
	{"windows-1252", charmap.Windows1252, western, 0},
	{"ISO-8859-1", charmap.ISO8859_1, western, -1},
	{"ISO-8859-2", charmap.ISO8859_2, central, -1},
	{"windows-1250", charmap.Windows1250, central, -1},
	{"windows-1251", charmap.Windows1251, cyrillic, 0},
	{"KOI8-R", charmap.KOI8R, []string{"ru"}, -1},
	{"Shift_JIS", japanese.ShiftJIS, []string{"ja"}, 0},
	{"EUC-JP", japanese.EUCJP, []string{"ja"}, -1},
	{"GB18030", simplifiedchinese.GB18030, []string{"zh_CN"}, 0},
	{"Big5", traditionalchinese.Big5, []string{"zh_TW"}, 0},
	{"EUC-KR", korean.EUCKR, []string{"ko"}, 0},
}

// vocab is how many characters above ASCII each language's encodings
// hold, for the probability of a character the training text never had.
var vocab = map[string]float64{"ja": 7000, "zh_CN": 21000, "zh_TW": 13000, "ko": 8800}

//go:embed model.txt
var modelText string

// model is a language's distribution of characters above ASCII (log2
// probabilities), and how often such a character follows another.
type model struct {
	logp           map[rune]float64
	unseen         float64
	follow, single float64 // log2 P(after one), log2 P(after ASCII)
}

var (
	modelsOnce sync.Once
	models     map[string]*model
)

func loadModels() {
	models = map[string]*model{}
	var m *model
	var counts map[rune]int
	var total, follow int
	done := func(name string) {
		if m == nil {
			return
		}
		const alpha = 0.5
		v := vocab[name]
		if v == 0 {
			v = 128
		}
		for r, n := range counts {
			m.logp[r] = math.Log2((float64(n) + alpha) / (float64(total) + alpha*v))
		}
		m.unseen = math.Log2(alpha / (float64(total) + alpha*v))
		pf := (float64(follow) + 1) / (float64(total) + 2)
		m.follow, m.single = math.Log2(pf), math.Log2(1-pf)
	}
	name := ""
	sc := bufio.NewScanner(strings.NewReader(modelText))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		if f := strings.Fields(line); len(f) == 4 && f[0] == "model" {
			done(name)
			name = f[1]
			total, _ = strconv.Atoi(f[2])
			follow, _ = strconv.Atoi(f[3])
			m, counts = &model{logp: map[rune]float64{}}, map[rune]int{}
			models[name] = m
			continue
		}
		r, size := utf8.DecodeRuneInString(line)
		if n, err := strconv.Atoi(strings.TrimSpace(line[size:])); err == nil && m != nil {
			counts[r] = n
		}
	}
	done(name)
}

// Score is one candidate's result for a text: its share of the
// likelihood (Confidence) and its average log2-likelihood per byte at or
// above 0x80.
type Score struct {
	Name        string
	Confidence  float64
	BitsPerByte float64
}

// Detect names the legacy encoding of data, which is not valid UTF-8, and
// how sure it is: among Windows-1252/ISO-8859-1, ISO-8859-2/Windows-1250,
// Windows-1251, KOI8-R, Shift_JIS, EUC-JP, GB18030 (GBK), Big5 and
// EUC-KR, the candidates that decode the file's first 64 KiB without an
// error are scored by the character frequencies of their language
// (trained on real translations: fixtures/encodings/gen), and the most
// likely one is named when its confidence reaches [Floor]. It returns ""
// when none does.
func Detect(data []byte) (name string, confidence float64) {
	scores := Scores(data)
	if len(scores) == 0 || scores[0].Confidence < Floor || scores[0].BitsPerByte < minBitsPerByte {
		return "", 0
	}
	return scores[0].Name, scores[0].Confidence
}

// Scores returns every candidate that decodes data's sample cleanly,
// most likely first.
func Scores(data []byte) []Score {
	modelsOnce.Do(loadModels)
	sample := data
	if len(sample) > sampleBytes {
		sample = sample[:sampleBytes]
		// End at a line, so that the sample ends on a character.
		for i := len(sample) - 1; i > len(sample)-4096 && i > 0; i-- {
			if sample[i] == '\n' {
				sample = sample[:i+1]
				break
			}
		}
	}
	high := 0
	for _, b := range sample {
		if b >= utf8.RuneSelf {
			high++
		}
	}
	if high == 0 {
		return nil
	}
	type scored struct {
		name  string
		text  string
		ll    float64 // log2-likelihood with the prior
		prior float64
		bits  float64
	}
	var ok []scored
candidates:
	for _, c := range candidates {
		text, err := c.codec.NewDecoder().Bytes(sample)
		if err != nil || strings.ContainsRune(string(text), utf8.RuneError) {
			continue
		}
		// Two encodings that read the file the same (German in
		// ISO-8859-1 and ISO-8859-2, Hungarian in ISO-8859-2 and
		// windows-1250) are one answer: the first named, with both priors.
		for i := range ok {
			if ok[i].text == string(text) {
				both := math.Log2(math.Exp2(ok[i].prior) + math.Exp2(c.prior))
				ok[i].ll += both - ok[i].prior
				ok[i].prior = both
				continue candidates
			}
		}
		ll := math.Inf(-1)
		for _, lang := range c.langs {
			if m := models[lang]; m != nil {
				ll = math.Max(ll, m.score(text))
			}
		}
		ok = append(ok, scored{c.name, string(text), ll + c.prior, c.prior, ll / float64(high)})
	}
	if len(ok) == 0 {
		return nil
	}
	best := math.Inf(-1)
	for _, s := range ok {
		best = math.Max(best, s.ll)
	}
	sum := 0.0
	for _, s := range ok {
		sum += math.Exp2(s.ll - best)
	}
	out := make([]Score, len(ok))
	for i, s := range ok {
		out[i] = Score{Name: s.name, Confidence: math.Exp2(s.ll-best) / sum, BitsPerByte: s.bits}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Confidence > out[j-1].Confidence; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// score is the log2-likelihood of text's characters above ASCII.
func (m *model) score(text []byte) float64 {
	ll, prev := 0.0, rune(0)
	for _, r := range string(text) {
		if r >= utf8.RuneSelf {
			p, seen := m.logp[r]
			if !seen {
				p = m.unseen
			}
			if prev >= utf8.RuneSelf {
				p += m.follow
			} else {
				p += m.single
			}
			ll += p
		}
		prev = r
	}
	return ll
}
