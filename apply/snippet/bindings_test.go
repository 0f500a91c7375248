package snippet

import (
	"slices"
	"testing"
)

// TestBinds reads the names lines bind at the top level, in the forms
// bindingsLost knows; what no form matches binds nothing.
func TestBinds(t *testing.T) {
	for _, c := range []struct {
		line string
		ext  string
		want []string
	}{
		{"import os", "py", []string{"os"}},
		{"import os.path as osp, sys", "py", []string{"osp", "sys"}},
		{"from a.b import cc as dd, ee", "py", []string{"dd", "ee"}},
		{"import chalk from '../source'", "js", []string{"chalk"}},
		{"import {aa, bb as cc} from 'x'", "js", []string{"aa", "cc"}},
		{"import * as ns from 'y'", "js", []string{"ns"}},
		{"import type {Options} from './types.js';", "js", []string{"Options"}},
		{"var fs = require('fs'),", "js", []string{"fs"}},
		{"  , minimatch = require(\"minimatch\")", "js", []string{"minimatch"}},
		{"\t\"strings\"", "go", []string{"strings"}},
		{"\tyaml \"gopkg.in/yaml.v3\"", "go", []string{"yaml"}},
		{"\t\"github.com/mattn/go-isatty\"", "go", []string{"isatty"}},
		{"import \"fmt\"", "go", []string{"fmt"}},
		// Only Go reads a line that is a quoted path as an import: a
		// list's last item, a side-effect import, a continued string.
		{"    \"requests\"", "py", nil},
		{"\t\"strings\"", "js", nil},
		{"import \"./style.css\"", "js", nil},
		{"  \"usage\"", "c", nil},
		{"export const limit: number = 4", "js", []string{"limit"}},
		{"TEXT = \"a\"", "py", []string{"TEXT"}},
		{"TEXT = \"a\"", "js", nil},  // not Python: an INI or TOML key
		{"    local = 3", "py", nil}, // not at the margin
		{"if x == 3:", "py", nil},    // a comparison
		{"const fn = (a) => a", "js", []string{"fn"}},
		{"x == 3", "py", nil},
	} {
		got := binds(c.line, dialectOf(c.ext))
		slices.Sort(got)
		got = slices.Compact(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("binds(%q) in a .%s file = %q, want %q", c.line, c.ext, got, want)
		}
	}
}

// TestUsesName: a name used as a whole word, not as a member and not
// inside a string or a comment.
func TestUsesName(t *testing.T) {
	for _, c := range []struct {
		line, name string
		want       bool
	}{
		{"    logger.info(x)", "logger", true},
		{"with io.StringIO(TEXT) as f:", "TEXT", true},
		{"from datetime import time", "time", true},
		{"x = datetime.time()", "time", false},
		{"print('logger')", "logger", false},
		{"# logger here", "logger", false},
		{"mylogger.info()", "logger", false},
		{"$logger", "logger", false},
	} {
		if got := usesName(c.line, c.name); got != c.want {
			t.Errorf("usesName(%q, %q) = %v, want %v", c.line, c.name, got, c.want)
		}
	}
}
