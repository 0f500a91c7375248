package apply

import "math"

// locatedList is a file's Locations in a call, in order, held compactly: a
// replaceAll of one text on every line of a big file makes one per line
// (750,000 for 60 MB), alike but for their lines, and at 88 bytes each
// they were the biggest thing the file held after its changes. Each is
// held as its two line numbers and the index of the rest of it among the
// distinct rests; the result's Hunks are made from it once (all).
type locatedList struct {
	kinds []Located // distinct Locations, Line and EndLine zero unless own
	items []locatedItem
}

// locatedItem is one Location: its lines, and its kind. Lines past int32
// are the kind's own (line is -1).
type locatedItem struct {
	line, endLine int32
	kind          uint32
}

func (l *locatedList) add(loc Located) {
	item := locatedItem{line: int32(loc.Line), endLine: int32(loc.EndLine)}
	if loc.Line < 0 || loc.Line > math.MaxInt32 || loc.EndLine < 0 || loc.EndLine > math.MaxInt32 {
		item.line = -1
	} else {
		loc.Line, loc.EndLine = 0, 0
	}
	// Runs of one kind are the common case (a replaceAll's matches): the
	// last kind is looked at, not every one.
	if n := len(l.kinds); n == 0 || l.kinds[n-1] != loc || item.line < 0 {
		l.kinds = append(l.kinds, loc)
	}
	item.kind = uint32(len(l.kinds) - 1)
	l.items = append(l.items, item)
}

// all is the Locations in order (never nil).
func (l *locatedList) all() []Located {
	out := make([]Located, len(l.items))
	for i, it := range l.items {
		loc := l.kinds[it.kind]
		if it.line >= 0 {
			loc.Line, loc.EndLine = int(it.line), int(it.endLine)
		}
		out[i] = loc
	}
	return out
}
