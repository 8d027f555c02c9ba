//go:build cgo

package symbols_test

import (
	"fmt"

	"github.com/codecortex/codecortex/symbols"
	"github.com/codecortex/codecortex/syntax"
)

func ExampleExtract() {
	src := []byte(`package shop

import "errors"

// Cart holds items.
type Cart struct{ items []string }

// Add puts an item in the cart.
func (c *Cart) Add(item string) error {
	if item == "" {
		return errors.New("empty item")
	}
	c.items = append(c.items, item)
	return nil
}
`)
	f, err := symbols.Extract("shop/cart.go", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range f.Symbols {
		fmt.Printf("%s %s.%s exported=%v line %d (doc %d): %s\n",
			s.Kind, s.Container, s.Name, s.Exported, s.NameRange.StartLine, s.DocLine, s.Signature)
	}
	for _, im := range f.Imports {
		fmt.Println("import", im.Path)
	}
	// Output:
	// struct .Cart exported=true line 6 (doc 5): type Cart struct
	// field Cart.items exported=false line 6 (doc 6): items []string
	// method Cart.Add exported=true line 9 (doc 8): func (c *Cart) Add(item string) error
	// import errors
}

func ExampleExtract_unsupported() {
	_, err := symbols.Extract("notes.txt", []byte("hello"))
	fmt.Println(err)
	// Output:
	// symbols: unsupported language: notes.txt
}

func ExampleExtractTree() {
	// One parse serves the symbols and any other reader of the tree.
	src := []byte("class Cart:\n    def add(self, item):\n        pass\n")
	tree, err := syntax.Parse(syntax.Python, src)
	if err != nil {
		fmt.Println(err)
		return
	}
	f := symbols.ExtractTree("cart.py", tree)
	for _, s := range f.Symbols {
		fmt.Println(s.Kind, s.Container, s.Name, s.Signature)
	}
	fmt.Println("nodes:", tree.Len())
	// Output:
	// class  Cart class Cart:
	// method Cart add def add(self, item):
	// nodes: 19
}
