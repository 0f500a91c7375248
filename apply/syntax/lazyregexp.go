//go:build !cgo

package syntax

import (
	"regexp"
	"sync"
)

// lazyRegexp compiles expr when it is first used rather than when the
// process starts, which every graft process pays for.
func lazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
