//go:build !cgo

package syntax

// The pure-Go YAML and TOML checkers, built only without cgo: with cgo,
// tree-sitter's grammars check YAML and TOML, and leaving these parsers
// out spares every graft process their start-up (the TOML parser reads
// the local time zone when it is initialised).

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/BurntSushi/toml"
	"go.yaml.in/yaml/v3"
)

var yamlChecker = &checker{
	name:      "yaml",
	diagnose:  diagnoseYAML,
	firstOnly: true,
	window:    true,
}

var yamlLine = lazyRegexp(`^yaml: line (\d+): (.*)$`)

// diagnoseYAML decodes every document of src. The YAML parser reports only a
// line, and that is where the construct holding the error begins.
func diagnoseYAML(src []byte) ([]diag, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	for {
		var n yaml.Node
		err := dec.Decode(&n)
		if err == io.EOF {
			return nil, nil
		}
		if err == nil {
			continue
		}
		msg, at := err.Error(), 0
		if m := yamlLine().FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			msg = m[2]
			at = lineStart(src, line)
		}
		return []diag{{start: at, end: at, key: msg, msg: msg}}, nil
	}
}

// lineStart returns the offset of the start of 1-based line n of src, or
// len(src) when src has fewer lines.
func lineStart(src []byte, n int) int {
	off := 0
	for ; n > 1; n-- {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return off
}

var tomlChecker = &checker{
	name: "toml",
	diagnose: func(src []byte) ([]diag, error) {
		var v map[string]any
		_, err := toml.Decode(string(src), &v)
		var pe toml.ParseError
		if !errors.As(err, &pe) {
			return nil, err
		}
		at := pe.Position.Start
		return []diag{{start: at, end: at + pe.Position.Len, key: pe.Message, msg: pe.Message}}, nil
	},
	firstOnly: true,
	window:    true,
}
