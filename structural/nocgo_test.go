//go:build !cgo

package structural

import (
	"context"
	"errors"
	"testing"
)

func TestBuiltinUnavailableWithoutCgo(t *testing.T) {
	b := NewBuiltin(BuiltinOptions{})
	if err := b.Available(); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Available = %v, want ErrUnavailable", err)
	}
	if _, err := b.Search(context.Background(), Request{Root: t.TempDir(), Pattern: "f($X)", Language: Go}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Search = %v, want ErrUnavailable", err)
	}
	if _, err := Compile("f($X)", Go); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("Compile = %v, want ErrUnavailable", err)
	}
}

// TestCheckEditsUnavailableWithoutCgo: without grammars the rewritten
// code cannot be parsed, and edits are refused rather than let through.
func TestCheckEditsUnavailableWithoutCgo(t *testing.T) {
	root := projectWith(t, map[string]string{"a.go": "package a\nvar x = f(1)\n"})
	e := Edit{Path: "a.go", StartByte: 18, EndByte: 22, Old: "f(1)", New: "g(1"}
	if err := CheckEdits(context.Background(), root, []Edit{e}, "g($X"); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("CheckEdits = %v, want ErrUnavailable", err)
	}
}
