package matcher

import (
	"fmt"
	"slices"
)

// openTypography refuses a block found by the typography tier when the
// new text has a character whose form the block leaves open: the matched
// lines show it read several ways and nothing decides the new occurrence.
func (s *searcher) openTypography(v variant, p int, tier Tier, a *lineAdapter) *Refusal {
	if a.typo == nil || s.opt.NewText == "" {
		return nil
	}
	_, why := a.adaptChecked(v.newFor(s.opt.NewText))
	if why == "" {
		return nil
	}
	return s.openRefusal(v, p, tier, "the old text was found only by the typography tier, and the new text's typography is open: "+
		why+"; write the new text with the file's characters (the file's text is below)")
}

// openIndent refuses a block whose file lines write their indentation in
// more than one form when a new line's indentation stays open
// (lineAdapter.mixedIndent).
func (s *searcher) openIndent(v variant, p int, tier Tier, a *lineAdapter) *Refusal {
	if a.indent.mixed == nil || s.opt.NewText == "" {
		return nil
	}
	_, _, why := a.adaptLines(v.newFor(s.opt.NewText))
	if why == "" {
		return nil
	}
	return s.openRefusal(v, p, tier, "the file writes this block's indentation in more than one form (tabs, spaces), and "+
		why+"; write the new lines' indentation as the file's lines have it (the file's text is below)")
}

// openAlignment refuses a block whose new text can be aligned with the
// old text two ways that write different bytes: the new text repeats a
// line the old text has once, the file's copy of that line differs from
// the caller's in what the tier ignores (trailing white space), and
// nothing tells whether the kept line is the first or the second copy
// (lineAdapter.alignBoth). Either way would move the file's bytes onto
// a line the caller wrote new.
func (s *searcher) openAlignment(v variant, p int, tier Tier, a *lineAdapter) *Refusal {
	if s.opt.NewText == "" || s.opt.ContextKnown {
		return nil
	}
	nl, endsNL := splitOld(v.newFor(s.opt.NewText))
	early, late := a.alignBoth(nl)
	if slices.Equal(early, late) {
		return nil
	}
	e, _, _ := a.render(nl, endsNL, early)
	l, _, _ := a.render(nl, endsNL, late)
	if e == l {
		return nil
	}
	j := 0
	for j < len(early) && (early[j] == late[j] || early[j] < 0 && late[j] < 0) {
		j++
	}
	i := max(early[min(j, len(early)-1)], late[min(j, len(late)-1)])
	return s.openRefusal(v, p, tier, fmt.Sprintf("the old text was found only by the %s tier, and the new text repeats a line the old text has once (%q): "+
		"whether the file's line %d, which differs from it in what that tier ignores, is kept as the first copy or the second is open; "+
		"write the old and new text with the file's characters (the file's text is below)", tier, clip(nl[min(j, len(nl)-1)]), p+i+1))
}

// openRefusal refuses the block of v found at line p (0-based) by tier
// because the new text cannot be written there without a choice the
// caller left open, showing the block as the one candidate.
func (s *searcher) openRefusal(v variant, p int, tier Tier, reason string) *Refusal {
	n := len(v.lines)
	return &Refusal{Kind: ErrNotFound, Tier: tier, Reason: reason,
		Candidates: []Candidate{{Line: p + 1, EndLine: p + n, Similarity: s.similarityAt(v.lines, p),
			Text: linesText(s.content, p+1, p+n), Reason: "the block found"}}}
}
