package main

import (
	"context"
	"os"

	"github.com/graftdev/graft/apply"
	"github.com/graftdev/graft/gitstore"
	"github.com/spf13/pflag"
)

// Attribution on the CLI: the global --agent NAME (else $GRAFT_AGENT)
// names the agent a command's journal commits are made for, and
// $GRAFT_SESSION its session; without them the commits name no one. The
// global --trailer TEMPLATE (repeatable; also `graft land --trailer`)
// adds a trailer to the commits written on the branch (graft land, branch
// mode), after those of git config graft.trailer. Over MCP the client's
// initialize clientInfo and the session are used instead (mcp.go).

func init() {
	globalFlags = append(globalFlags, func(fs *pflag.FlagSet, c *Context) {
		agent := new(string)
		fs.StringVar(agent, "agent", "", "name the agent the journal commits are made for (Graft-Agent trailer; default $GRAFT_AGENT, else none)")
		c.Extra["agent"] = agent
		trailers := new([]string)
		fs.StringArrayVar(trailers, "trailer", nil, "add trailer `'KEY: VALUE'` to the commits graft writes on the branch (graft land, --commit), {agent} standing for the agent (repeatable; also git config graft.trailer)")
		c.Extra["trailers"] = trailers
	})
	engineOptions = append(engineOptions, func(c *Context, o *apply.Options) error {
		if t, ok := c.Extra["trailers"].(*[]string); ok {
			for _, v := range *t {
				if !gitstore.ValidTrailer(v) {
					return usagef("--trailer %q: want 'KEY: VALUE' (e.g. 'Assisted-by: {agent}')", v)
				}
			}
			o.Store.Trailers = append(o.Store.Trailers, *t...)
		}
		return nil
	})
}

// attribution is who the CLI's commits are made for: --agent or
// $GRAFT_AGENT, and $GRAFT_SESSION.
func (c *Context) attribution() gitstore.Attribution {
	agent := os.Getenv("GRAFT_AGENT")
	if p, ok := c.Extra["agent"].(*string); ok && *p != "" {
		agent = *p
	}
	return gitstore.Attribution{Agent: gitstore.SanitizeTrailer(agent), Session: gitstore.SanitizeTrailer(os.Getenv("GRAFT_SESSION"))}
}

// context is the context a CLI call runs in: it carries the attribution.
func (c *Context) context() context.Context {
	return gitstore.WithAttribution(context.Background(), c.attribution())
}
