package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/pflag"
)

func init() {
	register(&command{Name: "version", Args: "",
		Summary: "print graft's version and the revision it was built from",
		Run: func(c *Context, _ *pflag.FlagSet, args []string) error {
			if len(args) != 0 {
				return usagef("version takes no arguments")
			}
			_, err := fmt.Fprintf(c.Stdout, "graft %s\n", versionString())
			return err
		}})
}

// versionString is graft's version as the build records it: the module
// version (v1.2.3, or "(devel)" for a build from a source tree), then,
// when the build carries them, the VCS revision it was built from and
// whether the tree had changes: "(devel) rev 5680e4e1b2c3, modified".
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(devel)"
	}
	return formatVersion(bi)
}

// graftVersion is the version MCP's serverInfo carries: the module
// version, "(devel)" for a build from a checkout.
func graftVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

func formatVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev string
	modified := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		return v
	}
	v += " rev " + rev[:min(12, len(rev))]
	if modified {
		v += ", modified"
	}
	return v
}
