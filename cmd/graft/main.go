// Command graft applies the edits that coding agents and people write to
// files in a git repository. See the README for its commands.
package main

import "os"

func main() {
	os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
