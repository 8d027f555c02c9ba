//go:build cgo

package syntax_test

import (
	"fmt"

	"github.com/codecortex/codecortex/syntax"
)

func ExampleParse() {
	src := []byte("package shop\n\nfunc (c *Cart) Add(item string) {}\n")
	tree, err := syntax.Parse(syntax.Go, src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for n, ok := tree.FirstChild(tree.Root()); ok; n, ok = tree.NextSibling(n) {
		if tree.Kind(n) != "method_declaration" {
			continue
		}
		name, _ := tree.ChildByField(n, "name")
		recv, _ := tree.ChildByField(n, "receiver")
		r := tree.Range(name)
		fmt.Printf("%s %s at %d:%d\n", tree.Text(recv), tree.Text(name), r.StartLine, r.StartColumn)
	}
	// Output:
	// (c *Cart) Add at 3:16
}

func ExampleTree_Walk() {
	tree, err := syntax.Parse(syntax.Python, []byte("def f(x):\n    return x\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree.Walk(tree.Root(), func(n syntax.NodeID, depth int) bool {
		if tree.Named(n) {
			fmt.Printf("%*s%s\n", 2*depth, "", tree.Kind(n))
		}
		return true
	})
	// Output:
	// module
	//   function_definition
	//     identifier
	//     parameters
	//       identifier
	//     block
	//       return_statement
	//         identifier
}

func ExampleLanguageOf() {
	for _, f := range []string{"main.go", "app.tsx", "README.md"} {
		l, ok := syntax.LanguageOf(f)
		fmt.Println(f, l, ok)
	}
	// Output:
	// main.go go true
	// app.tsx tsx true
	// README.md  false
}
