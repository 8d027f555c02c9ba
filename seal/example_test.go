package seal_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/codecortex/codecortex/seal"
)

// A layer seals what it writes and checks the seal when it reads the file
// back: a file shipped with the repository carries no seal that checks.
func Example() {
	dir, _ := os.MkdirTemp("", "seal")
	defer os.RemoveAll(dir)
	var s seal.Sealer = seal.KeyStore{Path: filepath.Join(dir, "seal.key")}

	doc := []byte(`{"files":["main.go"]}`)
	tag, _ := s.Seal("example-journal", []byte("/src/project"), doc)

	fmt.Println(s.Verify(tag, "example-journal", []byte("/src/project"), doc))
	fmt.Println(s.Verify(tag, "example-journal", []byte("/src/project"), []byte(`{"files":[".git/config"]}`)))
	fmt.Println(s.Verify("s1.planted", "example-journal", []byte("/src/project"), doc))
	// Output:
	// true
	// false
	// false
}
