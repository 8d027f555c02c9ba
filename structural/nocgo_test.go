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
