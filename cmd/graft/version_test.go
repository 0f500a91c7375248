package main

import (
	"runtime/debug"
	"testing"
)

func TestFormatVersion(t *testing.T) {
	rev := debug.BuildSetting{Key: "vcs.revision", Value: "5680e4e1b2c3d4e5f60718293a4b5c6d7e8f9012"}
	cases := []struct {
		version  string
		settings []debug.BuildSetting
		want     string
	}{
		{"", nil, "(devel)"},
		{"(devel)", nil, "(devel)"},
		{"v1.2.3", nil, "v1.2.3"},
		{"(devel)", []debug.BuildSetting{rev}, "(devel) rev 5680e4e1b2c3"},
		{"(devel)", []debug.BuildSetting{rev, {Key: "vcs.modified", Value: "true"}}, "(devel) rev 5680e4e1b2c3, modified"},
		{"v1.2.3", []debug.BuildSetting{rev, {Key: "vcs.modified", Value: "false"}}, "v1.2.3 rev 5680e4e1b2c3"},
	}
	for _, c := range cases {
		bi := &debug.BuildInfo{Main: debug.Module{Version: c.version}, Settings: c.settings}
		if got := formatVersion(bi); got != c.want {
			t.Errorf("formatVersion(%q, %v) = %q, want %q", c.version, c.settings, got, c.want)
		}
	}
}
