// Package syntax checks that an edit adds no syntax error.
package syntax
