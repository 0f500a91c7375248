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

func TestRubyBlocks(t *testing.T) {
	for _, c := range []struct {
		line string
		want int
	}{
		{"  def call(env)", 1},
		{"  def self.call(env) = new.call(env)", 0},
		{"  def ==(other)", 1},
		{"  def name=(v)", 1},
		{"  def x; end", 0},
		{"  end", -1},
		{"  end)", -1},
		{"  end.freeze", -1},
		{"  class Pool < Persisted", 1},
		{"  class << self", 1},
		{"  module Rack", 1},
		{"  obj.class", 0},
		{"  return if env.nil?", 0},
		{"  x = y if z", 0},
		{"  x = if z", 1},
		{"  @value ||= begin", 1},
		{"  if a then b else c end", 0},
		{"  items.each do |x|", 1},
		{"  it 'parses' do", 1},
		{"  loop do", 1},
		{"  foo do x end", 0},
		{"  while x do", 1},
		{"  for a in b do", 1},
		{"  case kind", 1},
		{"  when :end then 1", 0},
		{"  h = { end: 1, do: 2 }", 0},
		{"  r.end", 0},
		{`  puts "the end if do"`, 0},
		{"  x.each { |y| y.end }  # do it", 0},
		{"=begin", 0},
		{"  unless ok?", 1},
		{"  until done", 1},
		{"  foo(if x then 1 else 2 end)", 0},
	} {
		if got := rubyBlocks(c.line); got != c.want {
			t.Errorf("rubyBlocks(%q) = %d, want %d", c.line, got, c.want)
		}
	}
}
