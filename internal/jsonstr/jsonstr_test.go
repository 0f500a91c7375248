package jsonstr

import (
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// Unquote decodes a JSON string to what encoding/json decodes it to:
// every escape, surrogate pairs, lone and broken surrogates (U+FFFD), and
// text that needs none.
func TestUnquoteIsEncodingJSONs(t *testing.T) {
	cases := []string{`""`, `"plain"`, `"a\"b\\c\/d\b\f\n\r\t"`, `"\u00e9\u65e5\u2028"`, `"\ud83d\ude00 pair"`,
		`"\ud83d lone high"`, `"\ude00 lone low"`, `"\ud83d\u0041 high then A"`, `"\ud83d\ud83d\ude00"`, `"end \ud83d"`,
		`"é 日本 raw"`, `"\uD83D\uDE00 upper hex"`}
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{`a`, `\n`, `\"`, `\\`, `\u0000`, `\ud800`, `\udc00`, `\uffff`, `é`, `\/`, `\t`, ` `, `\ud83d\ude00`}
	for range 2000 {
		var b strings.Builder
		b.WriteByte('"')
		for range r.IntN(12) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		b.WriteByte('"')
		cases = append(cases, b.String())
	}
	for _, c := range cases {
		var want string
		if err := json.Unmarshal([]byte(c), &want); err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		got, ok := Unquote([]byte(c))
		if !ok || got != want {
			t.Fatalf("Unquote(%s) = %q, %v; want %q", c, got, ok, want)
		}
	}
}
