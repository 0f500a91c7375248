// Command graft applies the edits that coding agents and people write to
// files in a git repository. See the README for its commands.
package main

import "os"

func main() {
	processMain = true
	code := Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	for _, f := range atExit {
		f()
	}
	os.Exit(code)
}

// processMain is set when Main runs as the process's own main (not from a
// test or another program), so that it may tune the process (oneShotGC).
var processMain bool

// atExit runs before the process exits (the pprof build's profiles).
var atExit []func()
