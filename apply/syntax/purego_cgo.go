//go:build cgo

package syntax

// With cgo, YAML and TOML are checked by tree-sitter (purego_nocgo.go).
var yamlChecker, tomlChecker *checker
