package gitstore

import "encoding/binary"

// adlerMod is the modulus of Adler-32 (RFC 1950).
const adlerMod = 65521

// adlerChunk bounds the bytes summed between reductions: with 64-bit sums
// nothing overflows below several million bytes.
const adlerChunk = 1 << 20

// adler32Update continues the Adler-32 checksum adler over p. It gives
// what hash/adler32 gives, faster on big objects: each 8
// bytes are added with their weights at once (SWAR: the even and odd
// bytes in 16-bit lanes, a multiplication summing the lanes), so the
// running sums depend on each other once per word instead of once per
// byte.
func adler32Update(adler uint32, p []byte) uint32 {
	s1, s2 := uint64(adler&0xffff), uint64(adler>>16)
	for len(p) > 0 {
		n := min(len(p), adlerChunk)
		q := p[:n]
		p = p[n:]
		for len(q) >= 16 {
			w0 := binary.LittleEndian.Uint64(q)
			w1 := binary.LittleEndian.Uint64(q[8:])
			e0, o0 := w0&0x00ff00ff00ff00ff, (w0>>8)&0x00ff00ff00ff00ff
			e1, o1 := w1&0x00ff00ff00ff00ff, (w1>>8)&0x00ff00ff00ff00ff
			sum0 := ((e0 + o0) * 0x0001000100010001) >> 48
			sum1 := ((e1 + o1) * 0x0001000100010001) >> 48
			wt0 := (e0*(2|4<<16|6<<32|8<<48))>>48 + (o0*(1|3<<16|5<<32|7<<48))>>48
			wt1 := (e1*(2|4<<16|6<<32|8<<48))>>48 + (o1*(1|3<<16|5<<32|7<<48))>>48
			// The first word's bytes weigh 8 more: the second word follows.
			s2 += 16*s1 + wt0 + 8*sum0 + wt1
			s1 += sum0 + sum1
			q = q[16:]
		}
		for len(q) >= 8 {
			w := binary.LittleEndian.Uint64(q)
			even := w & 0x00ff00ff00ff00ff       // bytes 0, 2, 4, 6
			odd := (w >> 8) & 0x00ff00ff00ff00ff // bytes 1, 3, 5, 7
			sum := ((even + odd) * 0x0001000100010001) >> 48
			// Byte i of the word weighs 8-i in s2.
			weighted := (even*(2|4<<16|6<<32|8<<48))>>48 + (odd*(1|3<<16|5<<32|7<<48))>>48
			s2 += 8*s1 + weighted
			s1 += sum
			q = q[8:]
		}
		for _, b := range q {
			s1 += uint64(b)
			s2 += s1
		}
		s1 %= adlerMod
		s2 %= adlerMod
	}
	return uint32(s2<<16 | s1)
}
