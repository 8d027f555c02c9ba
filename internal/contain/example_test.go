package contain_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/codecortex/codecortex/internal/contain"
)

func ExampleRoot_Rel() {
	dir, _ := os.MkdirTemp("", "project")
	defer os.RemoveAll(dir)
	_ = os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	_ = os.Symlink("/etc", filepath.Join(dir, "etc-link"))

	root, err := contain.Open(dir)
	if err != nil {
		panic(err)
	}
	defer root.Close()
	for _, p := range []string{"src/../main.go", filepath.Join(dir, "src"), "../x", "etc-link/passwd", "a\x00b"} {
		rel, err := root.Rel(p)
		switch {
		case errors.Is(err, contain.ErrEscape):
			fmt.Println("escape")
		case errors.Is(err, contain.ErrInvalidName):
			fmt.Println("invalid")
		default:
			fmt.Println(rel)
		}
	}
	// Output:
	// main.go
	// src
	// escape
	// escape
	// invalid
}
