package gitstore

import (
	"fmt"
	"testing"
)

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
		if n := len(c.young) + len(c.old); n > 2*(maxCachedTreeEntries/100+1)+1 {
			t.Fatalf("call %d: %d trees cached", call, n)
		}
	}
	if _, ok := c.get(oid("0-0")); ok {
		t.Error("a tree of the first call is still cached after 5,000 calls")
	}
}
