package gitstore

// wildmatch matches text against a git wildcard pattern the way git's
// wildmatch() does for .gitattributes and .gitignore: "?" and "*" never
// match "/" when pathname is set; "**" between slashes (or at either end)
// matches any number of directories; "[...]" classes with ranges, "!" or
// "^" negation, backslash escapes and the POSIX classes "[:alpha:]" and
// the like; a backslash makes the next character literal. fold compares
// letters without case (core.ignoreCase).
func wildmatch(pattern, text string, pathname, fold bool) bool {
	return dowild(pattern, text, pathname, fold) == wmMatch
}

const (
	wmMatch = iota
	wmNoMatch
	wmAbortAll
	wmAbortToStarStar
)

func foldByte(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func dowild(p, text string, pathname, fold bool) int {
	pi, ti := 0, 0
	for ; pi < len(p); pi, ti = pi+1, ti+1 {
		pc := p[pi]
		if ti >= len(text) && pc != '*' {
			return wmAbortAll
		}
		var tc byte
		if ti < len(text) {
			tc = text[ti]
		}
		if fold {
			// As git: the pattern character is folded here, not the one
			// a backslash escapes, nor those inside a class.
			tc, pc = foldByte(tc), foldByte(pc)
		}
		switch pc {
		case '\\':
			// A backslash makes the next character literal.
			pi++
			if pi >= len(p) {
				return wmAbortAll
			}
			pc = p[pi]
			fallthrough
		default:
			if tc != pc {
				return wmNoMatch
			}
		case '?':
			if pathname && tc == '/' {
				return wmNoMatch
			}
		case '*':
			matchSlash := !pathname
			pi++
			if pi < len(p) && p[pi] == '*' {
				prev := pi - 2 // the character before "**"
				for pi < len(p) && p[pi] == '*' {
					pi++
				}
				if !pathname {
					matchSlash = true
				} else if (prev < 0 || p[prev] == '/') &&
					(pi == len(p) || p[pi] == '/' || p[pi] == '\\' && pi+1 < len(p) && p[pi+1] == '/') {
					// "**/" may match no directory at all.
					if pi < len(p) && p[pi] == '/' && dowild(p[pi+1:], text[ti:], pathname, fold) == wmMatch {
						return wmMatch
					}
					matchSlash = true
				} else {
					matchSlash = false // "**" elsewhere is "*"
				}
			}
			if pi == len(p) {
				// A trailing star matches the rest, but not past a slash
				// when it must not.
				if !matchSlash {
					for i := ti; i < len(text); i++ {
						if text[i] == '/' {
							return wmAbortToStarStar
						}
					}
				}
				return wmMatch
			}
			if !matchSlash && p[pi] == '/' {
				// "*/": the star runs to the next slash of the text.
				j := ti
				for j < len(text) && text[j] != '/' {
					j++
				}
				if j == len(text) {
					return wmAbortAll
				}
				ti = j
				pi-- // the loop's increment brings pi back to "/"
				ti--
				continue
			}
			for ; ti <= len(text); ti++ {
				if ti == len(text) {
					break
				}
				m := dowild(p[pi:], text[ti:], pathname, fold)
				if m != wmNoMatch {
					if !matchSlash || m != wmAbortToStarStar {
						return m
					}
				} else if !matchSlash && text[ti] == '/' {
					return wmAbortToStarStar
				}
			}
			return wmAbortAll
		case '[':
			pi++
			if pi >= len(p) {
				return wmAbortAll
			}
			pc = p[pi]
			if pc == '^' {
				pc = '!'
			}
			negated := pc == '!'
			if negated {
				pi++
				if pi >= len(p) {
					return wmAbortAll
				}
				pc = p[pi]
			}
			var prev byte
			matched := false
			for {
				switch {
				case pc == '\\':
					pi++
					if pi >= len(p) {
						return wmAbortAll
					}
					pc = p[pi]
					if tc == pc {
						matched = true
					}
				case pc == '-' && prev != 0 && pi+1 < len(p) && p[pi+1] != ']':
					pi++
					pc = p[pi]
					if pc == '\\' {
						pi++
						if pi >= len(p) {
							return wmAbortAll
						}
						pc = p[pi]
					}
					if tc <= pc && tc >= prev {
						matched = true
					} else if fold && tc >= 'a' && tc <= 'z' {
						if u := tc - 'a' + 'A'; u <= pc && u >= prev {
							matched = true
						}
					}
					pc = 0 // the next character starts no range
				case pc == '[' && pi+1 < len(p) && p[pi+1] == ':':
					start := pi + 2
					j := start
					for j < len(p) && p[j] != ']' {
						j++
					}
					if j >= len(p) {
						return wmAbortAll
					}
					if j-start-1 < 0 || p[j-1] != ':' {
						// Not "[:name:]": a plain "[" in the set.
						if tc == '[' {
							matched = true
						}
						break
					}
					pi = j
					name := p[start : j-1]
					ok, known := posixClass(name, tc, fold)
					if !known {
						return wmAbortAll
					}
					if ok {
						matched = true
					}
					pc = 0
				default:
					if tc == pc {
						matched = true
					}
				}
				prev = pc
				pi++
				if pi >= len(p) {
					return wmAbortAll
				}
				pc = p[pi]
				if pc == ']' {
					break
				}
			}
			if matched == negated || pathname && tc == '/' {
				return wmNoMatch
			}
		}
	}
	if ti < len(text) {
		return wmNoMatch
	}
	return wmMatch
}

// posixClass reports whether c (folded to lower case when fold) is in the
// POSIX class name, and whether the class is one git knows.
func posixClass(name string, c byte, fold bool) (in, known bool) {
	isUpper := c >= 'A' && c <= 'Z'
	isLower := c >= 'a' && c <= 'z'
	isDigit := c >= '0' && c <= '9'
	switch name {
	case "alnum":
		return isUpper || isLower || isDigit, true
	case "alpha":
		return isUpper || isLower, true
	case "blank":
		return c == ' ' || c == '\t', true
	case "cntrl":
		return c < 0x20 || c == 0x7f, true
	case "digit":
		return isDigit, true
	case "graph":
		return c > 0x20 && c < 0x7f, true
	case "lower":
		return isLower, true
	case "print":
		return c >= 0x20 && c < 0x7f, true
	case "punct":
		return c > 0x20 && c < 0x7f && !isUpper && !isLower && !isDigit, true
	case "space":
		return c == ' ' || c >= '\t' && c <= '\r', true
	case "upper":
		return isUpper || fold && isLower, true
	case "xdigit":
		return isDigit || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F', true
	}
	return false, false
}
