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

func ExampleParser_ParseSpans() {
	src := []byte("package a\n\nfunc A() {}\n\nfunc B() { return }\n")
	p, err := syntax.NewParser(syntax.Go)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer p.Close()
	// Parse only the second function; its nodes keep their offsets.
	start := len("package a\n\nfunc A() {}\n\n")
	tree, err := p.ParseSpans(src, []syntax.Span{{Start: start, End: len(src)}})
	if err != nil {
		fmt.Println(err)
		return
	}
	for n, ok := tree.FirstChild(tree.Root()); ok; n, ok = tree.NextSibling(n) {
		fmt.Println(tree.Kind(n), tree.StartByte(n), tree.Text(n))
	}
	// Output:
	// function_declaration 24 func B() { return }
}

func ExampleDetect() {
	for _, f := range []struct{ name, src string }{
		{"list.h", "struct list { int len; };\n"},
		{"vec.h", "namespace geo {\nclass Vec {};\n}\n"},
	} {
		l, _ := syntax.Detect(f.name, []byte(f.src))
		fmt.Println(f.name, l)
	}
	// Output:
	// list.h c
	// vec.h cpp
}

func ExampleLines_Range() {
	src := []byte("héllo\nwörld\n")
	lines := syntax.NewLines(src)
	// "wörld" is bytes 7 to 13: line 2, code-point columns 1 to 6.
	fmt.Printf("%+v\n", lines.Range(7, 13))
	// Output:
	// {StartLine:2 StartColumn:1 EndLine:2 EndColumn:6 StartByte:7 EndByte:13}
}

func ExampleGrammarOf() {
	g, err := syntax.GrammarOf(syntax.Rust)
	if err != nil {
		fmt.Println(err)
		return
	}
	id, _ := g.FieldID("name")
	fmt.Println(g.Language(), g.FieldName(id), g.KindName(syntax.ErrorKind))
	// Output:
	// rust name ERROR
}
