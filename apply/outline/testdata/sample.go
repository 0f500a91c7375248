package sample

import "fmt"

// Doc for init.
func init() {}

func init() { fmt.Println() }

const (
	// A is a.
	A    = 1
	B, C = 2, 3
)

var single = 4

// List is generic.
type List[T any] struct {
	items []T
}

/*
Push appends.
*/
func (l *List[T]) Push(v T) {
	l.items = append(l.items, v)
}

type Reader interface {
	Read() error
}
