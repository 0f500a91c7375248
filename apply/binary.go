package apply

import "bytes"

// isBinary reports whether content looks binary: a NUL byte in the first
// 8000 bytes, as git decides.
func isBinary(content []byte) bool {
	return bytes.IndexByte(content[:min(len(content), binarySniff)], 0) >= 0
}

// binarySniff is how many bytes from the start isBinary looks at, as git
// does.
const binarySniff = 8000
