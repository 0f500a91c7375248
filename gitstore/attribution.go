package gitstore

import (
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Attribution: every journal commit a call writes (its edit, an undo or
// redo it asks for, the carry commit it writes first) names who asked for
// it in two trailers, Graft-Agent (the agent's name and version: an MCP
// client's initialize clientInfo, the CLI's --agent or GRAFT_AGENT) and
// Graft-Session (an MCP session, GRAFT_SESSION on the CLI). They are
// taken from the call's context (WithAttribution); a call without them
// writes neither. Snapshot commits record changes made outside graft and
// name no agent.
//
// The names are what the caller says they are: attribution, not
// authentication. They scope the journal's operations (Scope): History,
// the undo and redo stacks, and the diff of one agent's work.

// Trailer keys of attribution.
const (
	TrailerAgent   = "Graft-Agent"   // who made the call: NAME or NAME/VERSION
	TrailerSession = "Graft-Session" // the session that made it
)

// Attribution names who asked for a call.
type Attribution struct {
	// Agent is NAME or NAME/VERSION (AgentName).
	Agent string
	// Name is the agent's name without its version, when Agent has one
	// (the scope the agent's undo takes by default, which a newer version
	// of it keeps); "" means Agent.
	Name string
	// Session identifies one connection or run of the agent.
	Session string
}

type attributionKey struct{}

// WithAttribution returns ctx carrying a: the calls, undos and redos run
// with it name a in their journal commits.
func WithAttribution(ctx context.Context, a Attribution) context.Context {
	return context.WithValue(ctx, attributionKey{}, a)
}

// AttributionFrom returns the attribution ctx carries (empty when none).
func AttributionFrom(ctx context.Context) Attribution {
	if ctx == nil {
		return Attribution{}
	}
	a, _ := ctx.Value(attributionKey{}).(Attribution)
	return a
}

// AgentName is the Graft-Agent value of an agent called name at version:
// "name/version", or name alone without a version; both sanitised.
func AgentName(name, version string) string {
	name, version = SanitizeTrailer(name), SanitizeTrailer(version)
	if name == "" {
		return ""
	}
	if version == "" {
		return name
	}
	return name + "/" + version
}

// maxTrailerValue bounds a trailer value, in bytes.
const maxTrailerValue = 200

// SanitizeTrailer makes v fit on one trailer line: control characters
// (newlines included) and runs of white space become one space, the ends
// are trimmed, invalid UTF-8 is dropped and the value is cut to 200 bytes.
func SanitizeTrailer(v string) string {
	var b strings.Builder
	space := false
	for _, r := range v {
		if r == utf8.RuneError || unicode.IsControl(r) || unicode.IsSpace(r) || r == '\u2028' || r == '\u2029' {
			space = b.Len() > 0
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		if b.Len()+utf8.RuneLen(r) > maxTrailerValue {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// AgentScope is the name that selects a's edits at any version: Name, else
// Agent.
func (a Attribution) AgentScope() string {
	if n := SanitizeTrailer(a.Name); n != "" {
		return n
	}
	return SanitizeTrailer(a.Agent)
}

// lines are a's trailer lines (none for an empty attribution).
func (a Attribution) lines() []string {
	var out []string
	if v := SanitizeTrailer(a.Agent); v != "" {
		out = append(out, TrailerAgent+": "+v)
	}
	if v := SanitizeTrailer(a.Session); v != "" {
		out = append(out, TrailerSession+": "+v)
	}
	return out
}

// attributionOf reads the attribution of a commit message.
func attributionOf(tr map[string][]string) Attribution {
	var a Attribution
	if v := tr[TrailerAgent]; len(v) > 0 {
		a.Agent = v[len(v)-1]
	}
	if v := tr[TrailerSession]; len(v) > 0 {
		a.Session = v[len(v)-1]
	}
	return a
}

// AllAgents is the Scope.Agent that means everyone's edits (as "" does);
// the MCP undo and redo tools, which default to the calling agent, take it
// to reach everyone's.
const AllAgents = "*"

// Scope selects journal edits by who made them. The zero Scope selects
// every edit.
type Scope struct {
	// Agent selects the edits of one agent: a name matches that name at
	// any version ("claude-code" matches "claude-code/1.2"), a
	// NAME/VERSION only that version. "" or AllAgents: every agent's.
	Agent string
	// Session selects the edits of one session; "": every session's.
	Session string
}

// all reports whether sc selects every edit.
func (sc Scope) all() bool {
	return (sc.Agent == "" || sc.Agent == AllAgents) && sc.Session == ""
}

// matches reports whether an edit with attribution a is in sc.
func (sc Scope) matches(a Attribution) bool {
	if sc.Agent != "" && sc.Agent != AllAgents && !MatchAgent(a.Agent, sc.Agent) {
		return false
	}
	return sc.Session == "" || a.Session == SanitizeTrailer(sc.Session)
}

// String names sc for messages ("" for every edit).
func (sc Scope) String() string {
	var parts []string
	if sc.Agent != "" && sc.Agent != AllAgents {
		parts = append(parts, "agent "+sc.Agent)
	}
	if sc.Session != "" {
		parts = append(parts, "session "+sc.Session)
	}
	return strings.Join(parts, ", ")
}

// MatchAgent reports whether the Graft-Agent value agent is the agent
// want names: the same value, or want is its name without the version.
func MatchAgent(agent, want string) bool {
	want = SanitizeTrailer(want)
	if want == "" || agent == "" {
		return false
	}
	return agent == want || strings.HasPrefix(agent, want+"/")
}

// userTrailers are the trailers the user asked for on the branch (graft
// land, branch mode): the templates of OpenOptions.Trailers and then git
// config graft.trailer (every value, every layer). A template naming
// {agent} gives one line per distinct agent of agents (none when no agent
// is named); others one line. Duplicate lines are written once.
func (s *Store) userTrailers(agents []string) []string {
	var templates []string
	templates = append(templates, s.opts.Trailers...)
	if s.cfg != nil {
		for _, l := range s.cfg.layers {
			templates = append(templates, l.All("graft", "trailer")...)
		}
	}
	var out []string
	seen := map[string]bool{}
	add := func(line string) {
		line = SanitizeTrailer(line)
		if !ValidTrailer(line) {
			return // not a trailer: KEY: VALUE
		}
		k, v, _ := strings.Cut(line, ":")
		line = strings.TrimSpace(k) + ": " + strings.TrimSpace(v)
		if !seen[line] {
			seen[line] = true
			out = append(out, line)
		}
	}
	for _, t := range templates {
		if !strings.Contains(t, "{agent}") {
			add(t)
			continue
		}
		for _, a := range agents {
			if a = SanitizeTrailer(a); a != "" {
				add(strings.ReplaceAll(t, "{agent}", a))
			}
		}
	}
	return out
}

// ValidTrailer reports whether template is a trailer graft writes on the
// branch: "KEY: VALUE", KEY one word, {agent} standing for each agent.
func ValidTrailer(template string) bool {
	k, v, ok := strings.Cut(SanitizeTrailer(template), ":")
	k = strings.TrimSpace(k)
	return ok && k != "" && !strings.ContainsAny(k, " \t") && strings.TrimSpace(v) != ""
}

// landedAgents are the distinct agents of the edits commits (a journal,
// newest first) holds that are not undone, oldest first.
func (s *Store) landedAgents(commits []*commit) ([]string, error) {
	done, _ := stacks(commits)
	var out []string
	for _, id := range done {
		c, err := s.commit(oid(id))
		if err != nil {
			return nil, err
		}
		if a := attributionOf(trailers(c.Message)).Agent; a != "" && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out, nil
}
