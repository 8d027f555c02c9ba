package index

import (
	"strings"
	"testing"
)

// TestUsedAt: a name written in a comment after code is mentioned, not
// used; quotes, URLs in strings, decrements and closed block comments
// before it leave it in code.
func TestUsedAt(t *testing.T) {
	for _, c := range []struct {
		line string
		used bool // at the last "Add" of the line
	}{
		{"\tbyUser map[string]struct{} // Watches added with Watcher.Add()", false},
		{"x = 1  # calls Add later", false},
		{"int n; /* Add is called below", false},
		{"/* the Add */ w.Add(p)", true},
		{`url := "http://example.com/" + w.Add(p)`, true},
		{`s := "a # b"; w.Add(p)`, true},
		{`log("it's") ; w.Add(p)`, true},
		{"i--; w.Add(p)", true},
		{"fn f<'a>(x: &'a T) { x.Add() }", true},
		{"#[derive(Debug)] Add", true},
		{"w.Adder(p) // Add", false},
		{`call("Add")`, true},
	} {
		want := -1
		if c.used {
			want = strings.LastIndex(c.line, "Add")
		}
		if got := usedAt(c.line, "Add"); got != want {
			t.Errorf("%q: used at %d, want %d", c.line, got, want)
		}
	}
	if got := usedAt(strings.Repeat("'x ", 10000)+"Add", "Add"); got != 30000 {
		t.Errorf("after unclosed quotes: %d", got)
	}
}

// FuzzUsedAt: on any line, usedAt returns -1 or the offset of the name as a
// whole word.
func FuzzUsedAt(f *testing.F) {
	for _, s := range []string{"w.Add(p) // Add", `"/*" Add`, "a /* b */ Add # c", "'\\'Add", "\xffAdd"} {
		f.Add(s, "Add")
	}
	f.Fuzz(func(t *testing.T, line, name string) {
		k := usedAt(line, name)
		if k >= 0 && !wordIs(line, name, k) {
			t.Fatalf("usedAt(%q, %q) = %d, not the name as a word", line, name, k)
		}
	})
}
