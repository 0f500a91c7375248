package matcher

// fuzzyFind runs the fuzzy tiers in order (doc.go) after the exact tier
// found nothing. Until the tiers exist it reports the block as not found.
func fuzzyFind(content []byte, old string, opt Options) (Match, error) {
	return Match{}, notFound(content, old, opt)
}

// notFound builds the refusal for a block no tier located, with the nearest
// candidates so that one retry can succeed.
func notFound(content []byte, old string, opt Options) *Refusal {
	return &Refusal{Kind: ErrNotFound}
}
