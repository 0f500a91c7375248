package gitrepo

import (
	"strings"

	"github.com/go-git/go-git/v6/plumbing/format/gitattributes"
)

// AttrLine is one line of an attributes file, as go-git's gitattributes
// parser reads it: a pattern with settings, or (Macro set) the definition
// of a macro attribute.
type AttrLine struct {
	Macro    string
	Pattern  string // as written; a quoted one with its C escapes decoded
	Settings []AttrSetting
}

// AttrSetting is one "attr", "-attr", "!attr" or "attr=value".
type AttrSetting struct {
	Name  string
	State byte // '+' set, '-' unset, '!' unspecified, '=' a value
	Value string
}

// ParseAttrLine parses a line of an attributes file; ok is false for a
// blank line, a comment, and a line git rejects (an invalid attribute
// name, git's reserved "builtin_" names, a macro where macros are not
// allowed), which git skips.
func ParseAttrLine(line string, macrosOK bool) (AttrLine, bool) {
	m, err := gitattributes.ParseAttributesLine(line, nil, macrosOK)
	if err != nil || m.Name == "" {
		return AttrLine{}, false
	}
	var l AttrLine
	if m.Pattern == nil {
		l.Macro = m.Name
	} else {
		l.Pattern = m.Name
		if strings.HasPrefix(strings.TrimSpace(line), `"`) {
			// go-git leaves a quoted pattern's escapes as written.
			q, ok := unquoteC(m.Name)
			if !ok {
				return AttrLine{}, false
			}
			l.Pattern = q
		}
	}
	for _, a := range m.Attributes {
		if strings.HasPrefix(a.Name(), "builtin_") {
			return AttrLine{}, false
		}
		s := AttrSetting{Name: a.Name(), State: '+'}
		switch {
		case a.IsUnset():
			s.State = '-'
		case a.IsUnspecified():
			s.State = '!'
		case a.IsValueSet():
			s.State, s.Value = '=', a.Value()
		}
		l.Settings = append(l.Settings, s)
	}
	return l, true
}

// unquoteC decodes the inside of a C-style quoted string, as git's
// unquote_c_style: \a \b \f \n \r \t \v \\ \" and three-digit octal
// escapes.
func unquoteC(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", false
		}
		switch e := s[i]; e {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '"':
			b.WriteByte(e)
		default:
			if e < '0' || e > '3' || i+2 >= len(s) || s[i+1] < '0' || s[i+1] > '7' || s[i+2] < '0' || s[i+2] > '7' {
				return "", false
			}
			b.WriteByte((e-'0')<<6 | (s[i+1]-'0')<<3 | (s[i+2] - '0'))
			i += 2
		}
	}
	return b.String(), true
}
