package syntax_test

import (
	"fmt"

	"github.com/graftdev/graft/apply/syntax"
)

func ExampleCheck() {
	before := []byte("package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n")
	after := []byte("package main\n\nfunc main() {\n\tprintln(\"hi\"\n}\n")
	r, err := syntax.Check("main.go", before, after)
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Language, r.Checked, r.OK(), r.AddedCount > 0)
	// Output: go true false true
}

func ExampleCheck_alreadyBroken() {
	// The file already misses a brace; renaming the function adds no
	// error, so the edit is accepted.
	before := []byte("package main\n\nfunc main() {\n\tprintln(\"hi\")\n")
	after := []byte("package main\n\nfunc run() {\n\tprintln(\"hi\")\n")
	r, _ := syntax.Check("main.go", before, after)
	fmt.Println(r.OK())
	// Output: true
}

func ExampleDetect() {
	fmt.Println(syntax.Detect("src/app.tsx", nil))
	fmt.Println(syntax.Detect("Gemfile", nil))
	fmt.Println(syntax.Detect("bin/tool", []byte("#!/usr/bin/env python3\n")))
	fmt.Printf("%q\n", syntax.Detect("notes.txt", nil))
	// Output:
	// tsx
	// ruby
	// python
	// ""
}
