package textedit

import (
	"encoding/json"
	"fmt"
)

// scanner reads JSON with byte offsets: enough to find a notebook's cells
// and their values' spans, validating as it goes, without building the
// document (outputs with images are skipped at the speed of a scan).
type scanner struct {
	data []byte
	i    int
}

func (s *scanner) errorf(format string, a ...any) error {
	return fmt.Errorf("not valid JSON at byte %d: %s", s.i, fmt.Sprintf(format, a...))
}

func (s *scanner) ws() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

// peek skips whitespace and returns the next byte (0 at the end).
func (s *scanner) peek() byte {
	s.ws()
	if s.i < len(s.data) {
		return s.data[s.i]
	}
	return 0
}

func (s *scanner) expect(c byte) error {
	if s.peek() != c {
		if s.i >= len(s.data) {
			return s.errorf("unexpected end, expected %q", c)
		}
		return s.errorf("expected %q, found %q", c, s.data[s.i])
	}
	s.i++
	return nil
}

// str scans a string at s.i and returns its span (quotes included).
func (s *scanner) str() (int, int, error) {
	if s.peek() != '"' {
		return 0, 0, s.errorf("expected a string")
	}
	start := s.i
	s.i++
	for s.i < len(s.data) {
		c := s.data[s.i]
		switch {
		case c == '"':
			s.i++
			return start, s.i, nil
		case c == '\\':
			if s.i+1 >= len(s.data) {
				return 0, 0, s.errorf("unterminated string")
			}
			switch s.data[s.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				s.i += 2
			case 'u':
				if s.i+6 > len(s.data) {
					return 0, 0, s.errorf("short \\u escape")
				}
				for _, h := range s.data[s.i+2 : s.i+6] {
					if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
						return 0, 0, s.errorf("bad \\u escape")
					}
				}
				s.i += 6
			default:
				return 0, 0, s.errorf("bad escape")
			}
		case c < 0x20:
			return 0, 0, s.errorf("control character in a string")
		default:
			s.i++
		}
	}
	return 0, 0, s.errorf("unterminated string")
}

// value scans any value and returns its span.
func (s *scanner) value(depth int) (int, int, error) {
	if depth > 1000 {
		return 0, 0, s.errorf("nested too deep")
	}
	c := s.peek()
	start := s.i
	switch {
	case c == '"':
		return s.str()
	case c == '{':
		s.i++
		if s.peek() == '}' {
			s.i++
			return start, s.i, nil
		}
		for {
			if _, _, err := s.str(); err != nil {
				return 0, 0, err
			}
			if err := s.expect(':'); err != nil {
				return 0, 0, err
			}
			if _, _, err := s.value(depth + 1); err != nil {
				return 0, 0, err
			}
			if s.peek() == ',' {
				s.i++
				continue
			}
			if err := s.expect('}'); err != nil {
				return 0, 0, err
			}
			return start, s.i, nil
		}
	case c == '[':
		s.i++
		if s.peek() == ']' {
			s.i++
			return start, s.i, nil
		}
		for {
			if _, _, err := s.value(depth + 1); err != nil {
				return 0, 0, err
			}
			if s.peek() == ',' {
				s.i++
				continue
			}
			if err := s.expect(']'); err != nil {
				return 0, 0, err
			}
			return start, s.i, nil
		}
	case c == '-' || '0' <= c && c <= '9':
		s.i++
		for s.i < len(s.data) && (s.data[s.i] >= '0' && s.data[s.i] <= '9' || s.data[s.i] == '.' || s.data[s.i] == 'e' || s.data[s.i] == 'E' || s.data[s.i] == '+' || s.data[s.i] == '-') {
			s.i++
		}
		if !json.Valid(s.data[start:s.i]) {
			return 0, 0, s.errorf("bad number")
		}
		return start, s.i, nil
	default:
		for _, lit := range []string{"true", "false", "null"} {
			if len(s.data)-s.i >= len(lit) && string(s.data[s.i:s.i+len(lit)]) == lit {
				s.i += len(lit)
				return start, s.i, nil
			}
		}
		if s.i >= len(s.data) {
			return 0, 0, s.errorf("unexpected end")
		}
		return 0, 0, s.errorf("unexpected %q", c)
	}
}

// members scans an object at s.i, calling f for each member with its key
// (decoded) and leaving s.i after the member's value for f to scan.
func (s *scanner) members(f func(key string, keyStart int) error) error {
	if err := s.expect('{'); err != nil {
		return err
	}
	if s.peek() == '}' {
		s.i++
		return nil
	}
	for {
		ks, ke, err := s.str()
		if err != nil {
			return err
		}
		var key string
		if err := json.Unmarshal(s.data[ks:ke], &key); err != nil {
			return s.errorf("bad key")
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		s.ws()
		if err := f(key, ks); err != nil {
			return err
		}
		if s.peek() == ',' {
			s.i++
			continue
		}
		return s.expect('}')
	}
}
