//go:build cgo

package structural

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		lang    Language
		pattern string
		want    PatternProblem // "" means valid
	}{
		{Go, "", ProblemEmpty},
		{Go, "   \n\t", ProblemEmpty},
		{JavaScript, "foo(", ProblemSyntax},
		{JavaScript, "foo(1", ProblemSyntax},
		{JavaScript, "function f() { return 1", ProblemMissing},
		{Python, "def (:", ProblemSyntax},
		{JavaScript, "a; b", ProblemMultiple},
		{Go, "$$$", ProblemBareMulti},
		{JavaScript, "$$$ARGS", ProblemBareMulti},
		{Language("cobol"), "x", ProblemLanguage},
		{JavaScript, `import $D, { $$$N } from $M`, ProblemSyntax}, // ast-grep matches with this broken pattern
		{Go, "foo($X)", ""},
		{Java, "throw new $E($$$)", ""},      // the missing ";" is tolerated
		{Rust, "impl $T for $S { $$$ }", ""}, // $$$ where an item belongs
		{Python, "print($$$ARGS)", ""},
		{TSX, "<$C $$$P />", ""},
		{C, "$P = malloc($N)", ""},
		{JSON, `{"a": $X}`, ProblemSyntax}, // ast-grep runs this one anyway
		{JSON, `[$$$ITEMS]`, ""},
	}
	for _, tc := range tests {
		t.Run(string(tc.lang)+"/"+tc.pattern, func(t *testing.T) {
			_, err := Compile(tc.pattern, tc.lang)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				return
			}
			var pe *PatternError
			if !errors.As(err, &pe) {
				t.Fatalf("Compile error = %v, want a *PatternError", err)
			}
			if !errors.Is(err, ErrInvalidPattern) {
				t.Errorf("error does not match ErrInvalidPattern")
			}
			if diff := cmp.Diff(tc.want, pe.Problem); diff != "" {
				t.Errorf("problem (-want +got):\n%s\n%v", diff, err)
			}
		})
	}
}

func TestCompileOffsetsAreInTheOriginalPattern(t *testing.T) {
	// µ is two bytes; the offset must count the $ the user wrote.
	_, err := Compile("$A + $B +", Go)
	var pe *PatternError
	if !errors.As(err, &pe) {
		t.Fatalf("want PatternError, got %v", err)
	}
	if pe.Offset < 0 || pe.Offset > len("$A + $B +") {
		t.Errorf("offset %d outside the pattern", pe.Offset)
	}
}

func TestPatternLiteralsAndVars(t *testing.T) {
	p, err := Compile("old_api($X, $$$REST, $X)", Python)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"REST", "X"}, p.Vars()); diff != "" {
		t.Errorf("vars (-want +got):\n%s", diff)
	}
	if !p.mayMatch([]byte("x = old_api(1)")) || p.mayMatch([]byte("x = new_api(1)")) {
		t.Errorf("literal prefilter wrong: %q", p.literals)
	}
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{"foo($X)", "$$$", "$A == $A", "fn $F($$$P) { $$$B }", "", "µ$$", "$$$_X($$Y)", "<$C $$$P />", "import $X from '$M'"} {
		f.Add(s, uint8(0))
	}
	langs := Languages()
	f.Fuzz(func(t *testing.T, pattern string, li uint8) {
		lang := langs[int(li)%len(langs)]
		p, err := Compile(pattern, lang)
		if err != nil {
			var pe *PatternError
			if !errors.As(err, &pe) {
				t.Fatalf("Compile(%q, %s) returned an untyped error: %v", pattern, lang, err)
			}
			if pe.Offset < -1 || pe.Offset > len(pattern) {
				t.Fatalf("Compile(%q, %s): offset %d outside the pattern", pattern, lang, pe.Offset)
			}
			return
		}
		if _, ok := p.root.ellipsis(); ok {
			t.Fatalf("bare multi metavariable accepted: %q", pattern)
		}
		// A valid pattern must be usable on its own source without panics.
		g, _ := grammarOf(lang)
		ps, err := newParser(g)
		if err != nil {
			t.Fatal(err)
		}
		defer ps.Close()
		src := []byte(pattern)
		tr, ok := ps.parse(src, nil, nil)
		if !ok {
			return
		}
		var m matcher
		searchTree(&m, p, tr, "f", 1000, new(matchScratch))
	})
}
