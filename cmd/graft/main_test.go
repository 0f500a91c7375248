package main

import (
	"fmt"
	"os"
	"testing"

	"github.com/graftdev/graft/apply/outline"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"graft": func() { os.Exit(Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs the end-to-end scripts in testdata/script: each makes a
// repository, runs graft and compares files and output.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/.home")
			env.Setenv("XDG_STATE_HOME", env.WorkDir+"/.state")
			env.Setenv("GIT_CONFIG_NOSYSTEM", "1")
			env.Setenv("GIT_AUTHOR_NAME", "Test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "Test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			return nil
		},
		// [treesitter]: this build parses with tree-sitter (cgo).
		Condition: func(cond string) (bool, error) {
			if cond == "treesitter" {
				return outline.Supported("python"), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		RequireExplicitExec: false,
	})
}
