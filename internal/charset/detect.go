package charset

// Detect names the legacy encoding of data, which is not valid UTF-8, and
// how sure it is, or "" when no candidate reaches the floor.
func Detect(data []byte) (name string, confidence float64) {
	return "", 0
}
