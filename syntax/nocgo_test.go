//go:build !cgo

package syntax

import (
	"errors"
	"testing"
)

func TestUnavailableWithoutCgo(t *testing.T) {
	if Available {
		t.Fatal("Available without cgo")
	}
	if _, err := Parse(Go, []byte("package a")); !errors.Is(err, ErrUnavailable) {
		t.Errorf("Parse = %v, want ErrUnavailable", err)
	}
	if _, err := NewParser(Python); !errors.Is(err, ErrUnavailable) {
		t.Errorf("NewParser = %v, want ErrUnavailable", err)
	}
	if _, err := GrammarOf(Rust); !errors.Is(err, ErrUnavailable) {
		t.Errorf("GrammarOf = %v, want ErrUnavailable", err)
	}
	if _, err := Parse("cobol", nil); !errors.Is(err, ErrUnknownLanguage) {
		t.Errorf("Parse(cobol) = %v, want ErrUnknownLanguage", err)
	}
	// The language table needs no grammar.
	if l, ok := LanguageOf("a.go"); !ok || l != Go {
		t.Errorf("LanguageOf(a.go) = %q, %v", l, ok)
	}
}
