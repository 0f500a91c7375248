package gitstore

import (
	"os"
	"strconv"
	"strings"
	"time"
)

// DefaultName and DefaultEmail are the identity graft commits under when
// neither the environment nor git config gives one: an edit is never
// refused for want of an identity.
const (
	DefaultName  = "graft"
	DefaultEmail = "graft@localhost"
)

// identity returns the author and committer signatures of a commit made
// now: who git would commit as (`git var`, ident.go), asked once per call.
// Where git has no identity or is not installed, each falls back to
// fallbackIdentity. GIT_AUTHOR_DATE and GIT_COMMITTER_DATE are honoured.
func (s *Store) identity(now time.Time) (author, committer signature) {
	job := s.startIdentity()
	job.wait(s)
	var fa, fc signature
	if !job.author.OK || !job.committer.OK {
		fa, fc = s.fallbackIdentity()
	}
	pick := func(kind string, id gitIdent, fallback signature) signature {
		sig := fallback
		if id.OK {
			sig = signature{Name: id.Name, Email: id.Email}
		}
		sig.When = now
		if t, ok := parseGitDate(os.Getenv("GIT_" + kind + "_DATE")); ok {
			sig.When = t
		}
		return sig
	}
	return pick("AUTHOR", job.author, fa), pick("COMMITTER", job.committer, fc)
}

// fallbackIdentity is graft's own reading, for when git gives no identity:
// GIT_AUTHOR_* / GIT_COMMITTER_* first, then user.name/user.email from the
// repository, global and system config, then EMAIL, then graft's own
// identity.
func (s *Store) fallbackIdentity() (author, committer signature) {
	name := s.cfg.get("user", "name")
	email := s.cfg.get("user", "email")
	if email == "" {
		email = os.Getenv("EMAIL")
	}
	pick := func(kind string) signature {
		sig := signature{Name: name, Email: email}
		if v := os.Getenv("GIT_" + kind + "_NAME"); v != "" {
			sig.Name = v
		}
		if v := os.Getenv("GIT_" + kind + "_EMAIL"); v != "" {
			sig.Email = v
		}
		if sig.Name == "" {
			sig.Name = DefaultName
		}
		if sig.Email == "" {
			sig.Email = DefaultEmail
		}
		return sig
	}
	return pick("AUTHOR"), pick("COMMITTER")
}

// parseGitDate reads the date formats scripts give git most: "@UNIX [TZ]",
// "UNIX TZ" (git's internal form), RFC 3339 / ISO 8601 and RFC 2822.
func parseGitDate(v string) (time.Time, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, false
	}
	fields := strings.Fields(strings.TrimPrefix(v, "@"))
	if len(fields) >= 1 && len(fields) <= 2 {
		if sec, err := strconv.ParseInt(fields[0], 10, 64); err == nil {
			t := time.Unix(sec, 0)
			if len(fields) == 2 {
				if tz, ok := parseTZ(fields[1]); ok {
					t = t.In(tz)
				}
			} else {
				t = t.UTC()
			}
			return t, true
		}
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02 15:04:05 -0700", "2006-01-02T15:04:05", "2006-01-02 15:04:05", time.RFC1123Z, time.RFC1123} {
		if t, err := time.Parse(layout, v); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

func parseTZ(s string) (*time.Location, bool) {
	if len(s) != 5 || (s[0] != '+' && s[0] != '-') {
		return nil, false
	}
	h, err1 := strconv.Atoi(s[1:3])
	m, err2 := strconv.Atoi(s[3:5])
	if err1 != nil || err2 != nil {
		return nil, false
	}
	off := h*3600 + m*60
	if s[0] == '-' {
		off = -off
	}
	return time.FixedZone("", off), true
}
