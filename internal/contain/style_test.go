package contain

import (
	"slices"
	"testing"
)

// Paths as a Windows user or tool writes them come out as the same
// slash-separated elements that records carry, on any system; paths that
// Windows would resolve against a hidden current directory are refused.
func TestWindowsStylePaths(t *testing.T) {
	win := style{windows: true}
	tests := []struct {
		in    string
		elems []string
		abs   bool
		bad   bool
	}{
		{in: `sub\pkg\a.go`, elems: []string{"sub", "pkg", "a.go"}},
		{in: `sub/pkg\a.go`, elems: []string{"sub", "pkg", "a.go"}},
		{in: `.\sub\..\a.go`, elems: []string{"sub", "..", "a.go"}},
		{in: `sub\`, elems: []string{"sub"}},
		{in: `C:\Users\me\repo\a.go`, elems: []string{"c:", "Users", "me", "repo", "a.go"}, abs: true},
		{in: `c:/Users/me/repo`, elems: []string{"c:", "Users", "me", "repo"}, abs: true},
		{in: `\\Server\Share\repo\a.go`, elems: []string{"//server/share", "repo", "a.go"}, abs: true},
		{in: `C:a.go`, bad: true},
		{in: `C:`, bad: true},
		{in: `\a.go`, bad: true},
		{in: `\\server`, bad: true},
		{in: `a.go:stream`, bad: true},
		{in: `C:\repo\a.go:$DATA`, bad: true},
	}
	for _, tt := range tests {
		elems, abs, err := win.elements(tt.in)
		if tt.bad {
			if err == nil {
				t.Errorf("%s: accepted as %q", tt.in, elems)
			}
			continue
		}
		if err != nil || abs != tt.abs || !slices.Equal(elems, tt.elems) {
			t.Errorf("%s: %q abs=%v err=%v, want %q abs=%v", tt.in, elems, abs, err, tt.elems, tt.abs)
		}
	}
}

// A Windows root and a path under it, in any case and with either
// separator, give the path below the root; a sibling or another drive does
// not, and what remains is cleaned to a record path.
func TestWindowsStyleStrip(t *testing.T) {
	win := style{windows: true}
	root, _, _ := win.elements(`C:\Users\Me\repo`)
	tests := []struct {
		in  string
		rel string
		ok  bool
		bad bool // refused lexically, climbing out
	}{
		{in: `c:\users\me\REPO\sub\a.go`, rel: "sub/a.go", ok: true},
		{in: `C:/Users/Me/repo`, rel: ".", ok: true},
		{in: `C:\Users\Me\repo\sub\..\b.go`, rel: "b.go", ok: true},
		{in: `C:\Users\Me\repo\..\other\a.go`, ok: true, bad: true},
		{in: `C:\Users\Me\repository\a.go`},
		{in: `D:\Users\Me\repo\a.go`},
		{in: `\\host\share\Users\Me\repo\a.go`},
	}
	for _, tt := range tests {
		elems, abs, err := win.elements(tt.in)
		if err != nil || !abs {
			t.Fatalf("%s: abs=%v err=%v", tt.in, abs, err)
		}
		ok := win.hasPrefix(elems, root)
		if ok != tt.ok {
			t.Errorf("%s: under the root = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		lex, err := lexical(tt.in, elems[len(root):])
		if (err != nil) != tt.bad {
			t.Errorf("%s: lexical error %v, want one: %v", tt.in, err, tt.bad)
		}
		if err == nil && join(lex) != tt.rel {
			t.Errorf("%s: %q, want %q", tt.in, join(lex), tt.rel)
		}
	}
}

// The host's own style reads a Unix path as it always did.
func TestUnixStylePaths(t *testing.T) {
	unix := style{}
	if elems, abs, err := unix.elements("/home/me/repo/./a.go"); err != nil || !abs || !slices.Equal(elems, []string{"home", "me", "repo", "a.go"}) {
		t.Errorf("absolute: %q %v %v", elems, abs, err)
	}
	// A backslash is an ordinary character in a Unix name.
	if elems, abs, err := unix.elements(`sub\a.go`); err != nil || abs || !slices.Equal(elems, []string{`sub\a.go`}) {
		t.Errorf("backslash: %q %v %v", elems, abs, err)
	}
}
