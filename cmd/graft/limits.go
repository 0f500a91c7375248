package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/graftdev/graft/apply"
)

// The limits of one call, as global flags: graft
// --max-file-size 128MiB edit ..., or graft --max-call-size 200MiB mcp.
func init() {
	var files int
	var fileSize, callSize string
	globalFlags = append(globalFlags, func(fs *pflag.FlagSet, c *Context) {
		fs.IntVar(&files, "max-files", apply.DefaultMaxFiles, "most files one call may change")
		fs.StringVar(&fileSize, "max-file-size", "64MiB", "largest file a call may read or write (`SIZE`: bytes, or with KiB, MiB, GiB)")
		fs.StringVar(&callSize, "max-call-size", "50MiB", "most bytes one call may change across its files (`SIZE`); a call changing one file is never held to less than that file")
	})
	engineOptions = append(engineOptions, func(c *Context, o *apply.Options) error {
		if files <= 0 {
			return usagef("--max-files must be positive, not %d", files)
		}
		fb, err := parseSize(fileSize)
		if err != nil {
			return usagef("--max-file-size: %v", err)
		}
		cb, err := parseSize(callSize)
		if err != nil {
			return usagef("--max-call-size: %v", err)
		}
		o.MaxFiles, o.MaxFileBytes, o.MaxCallBytes = files, fb, cb
		return nil
	})
}

// parseSize reads "1048576", "64MiB", "64M", "2GiB", "512KiB".
func parseSize(s string) (int64, error) {
	t := strings.TrimSpace(strings.ToLower(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"gib", 1 << 30}, {"mib", 1 << 20}, {"kib", 1 << 10}, {"g", 1 << 30}, {"m", 1 << 20}, {"k", 1 << 10}, {"b", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.n
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size (bytes, or a number with KiB, MiB or GiB)", s)
	}
	return n * mult, nil
}
