//go:build !cgo

package symbols

import (
	"errors"
	"testing"

	"github.com/codecortex/codecortex/syntax"
)

// TestExtractWithoutCgo: a build without cgo has no grammars; Extract
// says so, and still tells an unsupported file apart.
func TestExtractWithoutCgo(t *testing.T) {
	if _, err := Extract("a.go", []byte("package a\n")); !errors.Is(err, syntax.ErrUnavailable) {
		t.Errorf("Extract(a.go) = %v, want syntax.ErrUnavailable", err)
	}
	if _, err := Extract("notes.txt", nil); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Extract(notes.txt) = %v, want ErrUnsupported", err)
	}
}
