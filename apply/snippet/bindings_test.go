package snippet

import (
	"slices"
	"testing"
)

// TestBinds reads the names lines bind at the top level, in the forms
// bindingsLost knows; what no form matches binds nothing.
func TestBinds(t *testing.T) {
	for _, c := range []struct {
		line   string
		python bool
		want   []string
	}{
		{"import os", true, []string{"os"}},
		{"import os.path as osp, sys", true, []string{"osp", "sys"}},
		{"from a.b import cc as dd, ee", true, []string{"dd", "ee"}},
		{"import chalk from '../source'", false, []string{"chalk"}},
		{"import {aa, bb as cc} from 'x'", false, []string{"aa", "cc"}},
		{"import * as ns from 'y'", false, []string{"ns"}},
		{"import type {Options} from './types.js';", false, []string{"Options"}},
		{"var fs = require('fs'),", false, []string{"fs"}},
		{"  , minimatch = require(\"minimatch\")", false, []string{"minimatch"}},
		{"\t\"strings\"", false, []string{"strings"}},
		{"\tyaml \"gopkg.in/yaml.v3\"", false, []string{"yaml"}},
		{"\t\"github.com/mattn/go-isatty\"", false, []string{"isatty"}},
		{"export const limit: number = 4", false, []string{"limit"}},
		{"TEXT = \"a\"", true, []string{"TEXT"}},
		{"TEXT = \"a\"", false, nil}, // not Python: an INI or TOML key
		{"    local = 3", true, nil}, // not at the margin
		{"if x == 3:", true, nil},    // a comparison
		{"const fn = (a) => a", false, []string{"fn"}},
		{"x == 3", true, nil},
	} {
		got := binds(c.line, c.python)
		slices.Sort(got)
		got = slices.Compact(got)
		want := slices.Clone(c.want)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("binds(%q, %v) = %q, want %q", c.line, c.python, got, want)
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
