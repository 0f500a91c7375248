package gitstore

import (
	"fmt"
	"strings"
	"testing"
)

// cachedBytes is what the cache's trees hold, counted apart from the
// cache's own reckoning: entries, names and ids.
func cachedBytes(c *treeCache) int {
	n := 0
	for _, gen := range []map[oid][]treeEntry{c.young, c.old} {
		for h, t := range gen {
			n += len(h) + 40*len(t)
			for _, e := range t {
				n += len(e.Name) + len(e.Hash)
			}
		}
	}
	return n
}

// The tree cache stays bounded over any number of calls, and a tree still
// in use survives the generation it was put in.
func TestTreeCacheBounded(t *testing.T) {
	var c treeCache
	hot := oid("hot")
	c.put(hot, make([]treeEntry, 10))
	big := make([]treeEntry, 100)
	for call := range 5000 {
		for i := range 4 {
			c.put(oid(fmt.Sprintf("%d-%d", call, i)), big)
		}
		if _, ok := c.get(hot); !ok {
			t.Fatalf("call %d: the tree used every call was dropped", call)
		}
		c.age()
		if n := cachedBytes(&c); n > 4<<20 {
			t.Fatalf("call %d: %d bytes of trees cached", call, n)
		}
	}
	if _, ok := c.get(oid("0-0")); ok {
		t.Error("a tree of the first call is still cached after 5,000 calls")
	}
}

// The bound is in bytes: trees whose entries have long names and ids (a
// server handed new trees by other processes' commits) are held to the
// same few megabytes as trees of short names; a bound by entry count let
// them hold twenty times more.
func TestTreeCacheBoundedInBytes(t *testing.T) {
	var c treeCache
	tree := func(call int) []treeEntry {
		t := make([]treeEntry, 20)
		for i := range t {
			t[i] = treeEntry{Name: fmt.Sprintf("%s-%d", strings.Repeat("long-directory-name-", 20), i), Mode: modeRegular,
				Hash: oid(fmt.Sprintf("%040x", call*100+i))}
		}
		return t
	}
	peak := 0
	for call := range 3000 {
		for i := range 2 {
			c.put(oid(fmt.Sprintf("%040x", call*10+i)), tree(call))
		}
		c.age()
		peak = max(peak, cachedBytes(&c))
	}
	if peak > 4<<20 {
		t.Errorf("the cache held %.1f MB of trees at its peak; at most 4 MB", float64(peak)/1e6)
	}
}
