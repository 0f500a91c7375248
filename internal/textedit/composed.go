package textedit

import "slices"

// Composed is a file's changes against the text a call began with,
// composed step after step as ComposeInto composes them, and held in
// blocks so that a step costs about what it touches, not every change
// made so far: multi_edit's 10,000 edits of one file composed each edit
// with all the changes before it, a copy of them per edit (quadratic).
//
// A step's changes are composed with the blocks their span touches (and
// the changes that touch those, in chains), found by walking the blocks'
// sizes; blocks elsewhere are kept as they are. The blocks are never
// written to once made, so a step's slice handed to Add may be held as
// it is (a replaceAll of every line of a big file is not copied).
type Composed struct {
	blocks [][]Change
	growth []int // per block: its changes' len(New) - (End - Start)
	n      int
	// flat is Changes' result when it is one slice already (the first
	// step's own), or was made since the last Add.
	flat []Change
}

// composedBlock is how many changes a block holds at most (a variable
// for tests, which make blocks small).
var composedBlock = 128

// Len is the number of changes.
func (c *Composed) Len() int { return c.n }

// Reset forgets every change.
func (c *Composed) Reset() { *c = Composed{} }

// Changes returns the changes, sorted: one slice, made once per step
// that needs it (the first step's own slice when there was one step).
// The caller must not write to it.
func (c *Composed) Changes() []Change {
	if c.flat != nil || c.n == 0 {
		return c.flat
	}
	out := make([]Change, 0, c.n)
	for _, b := range c.blocks {
		out = append(out, b...)
	}
	c.flat = out
	return out
}

// Add composes next, sorted and checked changes of the text the changes
// so far make of base (Check's result), into them: afterwards Changes is
// what ComposeInto(nil, base, Changes(), next) was. next is held, not
// copied, when nothing was added before; it is never written to.
func (c *Composed) Add(base []byte, next []Change) {
	if len(next) == 0 {
		return
	}
	if c.n == 0 {
		c.blocks, c.growth = nil, nil
		c.insertBlocks(0, next)
		c.n, c.flat = len(next), next
		return
	}
	c.flat = nil
	lo, hi := next[0].Start, next[0].End
	for _, ch := range next {
		hi = max(hi, ch.End)
	}
	// The blocks whose span in the intermediate text touches [lo, hi]:
	// [bl, bh), g the growth of the blocks before bl.
	g, bl := 0, len(c.blocks)
	for b, blk := range c.blocks {
		if blk[len(blk)-1].End+g+c.growth[b] < lo {
			g += c.growth[b]
			continue
		}
		bl = b
		break
	}
	bh := bl
	for gb := g; bh < len(c.blocks) && c.blocks[bh][0].Start+gb <= hi; bh++ {
		gb += c.growth[bh]
	}
	if bl == bh && len(c.blocks) > 0 {
		// Touching nothing: composed with a neighbouring block all the
		// same (changes apart are kept as they are), so that steps that
		// each add a change (10,000 edits in file order) grow a block
		// rather than add one each.
		if bl > 0 {
			bl--
			g -= c.growth[bl]
		} else {
			bh++
		}
	}
	if bl < bh {
		// Changes that touch one another across a block's edge are one
		// chain: ComposeInto may merge them all.
		for bl > 0 && c.blocks[bl-1][len(c.blocks[bl-1])-1].End >= c.blocks[bl][0].Start {
			bl--
			g -= c.growth[bl]
		}
		for bh < len(c.blocks) && c.blocks[bh-1][len(c.blocks[bh-1])-1].End >= c.blocks[bh][0].Start {
			bh++
		}
	}
	var first []Change
	if bh-bl == 1 {
		first = c.blocks[bl]
	} else {
		for _, b := range c.blocks[bl:bh] {
			first = append(first, b...)
		}
	}
	// next, in the offsets of the intermediate text less the growth of the
	// blocks before bl: the text those blocks' changes make, as if the
	// ones before had changed nothing.
	shifted := make([]Change, len(next))
	for i, ch := range next {
		ch.Start -= g
		ch.End -= g
		shifted[i] = ch
	}
	out := ComposeInto(nil, base, first, shifted)
	c.n += len(out) - len(first)
	c.blocks = slices.Delete(c.blocks, bl, bh)
	c.growth = slices.Delete(c.growth, bl, bh)
	c.insertBlocks(bl, out)
}

// clone is a copy of c that later Adds to c leave as it is (its blocks
// are shared: they are never written to).
func (c *Composed) clone() Composed {
	return Composed{blocks: slices.Clone(c.blocks), growth: slices.Clone(c.growth), n: c.n, flat: c.flat}
}

// Clone is a copy of c that later Adds to either leave the other as it
// is: what a caller that may undo a step keeps.
func (c *Composed) Clone() Composed { return c.clone() }

// insertBlocks puts changes, sorted, at block index at, cut into blocks
// of composedBlock to twice that (even parts, so that no block is left
// with a few).
func (c *Composed) insertBlocks(at int, changes []Change) {
	parts := 1
	if len(changes) > 2*composedBlock {
		parts = (len(changes) + composedBlock - 1) / composedBlock
	}
	blocks, growth := make([][]Change, parts), make([]int, parts)
	for i := range parts {
		lo, hi := len(changes)*i/parts, len(changes)*(i+1)/parts
		blocks[i] = changes[lo:hi:hi]
		for _, ch := range blocks[i] {
			growth[i] += len(ch.New) - (ch.End - ch.Start)
		}
	}
	c.blocks = slices.Insert(c.blocks, at, blocks...)
	c.growth = slices.Insert(c.growth, at, growth...)
}
