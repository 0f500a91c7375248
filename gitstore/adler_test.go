package gitstore

import (
	"hash/adler32"
	"math/rand"
	"testing"
)

// adler32Update agrees with hash/adler32 on every length around the word
// and chunk sizes, on all-0xff bytes (the largest lane sums) and when
// the sum is continued over split points.
func TestAdler32AgreesWithStdlib(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	big := make([]byte, 3*adlerChunk+77)
	rng.Read(big)
	ff := make([]byte, adlerChunk+100)
	for i := range ff {
		ff[i] = 0xff
	}
	var lens []int
	for n := 0; n <= 70; n++ {
		lens = append(lens, n)
	}
	lens = append(lens, adlerChunk-1, adlerChunk, adlerChunk+1, 2*adlerChunk+13, len(big))
	for _, src := range [][]byte{big, ff} {
		for _, n := range lens {
			if n > len(src) {
				continue
			}
			p := src[:n]
			if got, want := adler32Update(1, p), adler32.Checksum(p); got != want {
				t.Fatalf("len %d: %08x, want %08x", n, got, want)
			}
		}
		for k := 0; k < 50; k++ {
			cut := rng.Intn(len(src))
			got := adler32Update(adler32Update(1, src[:cut]), src[cut:])
			if want := adler32.Checksum(src); got != want {
				t.Fatalf("split at %d: %08x, want %08x", cut, got, want)
			}
		}
	}
}

func BenchmarkAdler32(b *testing.B) {
	p := make([]byte, 10<<20)
	rand.New(rand.NewSource(1)).Read(p)
	b.Run("stdlib", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for range b.N {
			adler32.Checksum(p)
		}
	})
	b.Run("graft", func(b *testing.B) {
		b.SetBytes(int64(len(p)))
		for range b.N {
			adler32Update(1, p)
		}
	})
}
