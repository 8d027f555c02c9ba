//go:build cgo

package structural

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// sumPattern is the pattern: terms x joined by +, a binary
// expression nested as deep as it is long.
func sumPattern(terms int) string {
	return strings.TrimSuffix(strings.Repeat("x+", terms), "+")
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestCompileLinear: compiling the nested pattern allocates in proportion
// to its size. Each level used to copy its whole text and compile its own
// chain, so four times the terms allocated more than five times the
// bytes; now it is four times.
func TestCompileLinear(t *testing.T) {
	compile := func(terms int) func() {
		return func() {
			if _, err := Compile(sumPattern(terms), Go); err != nil {
				t.Fatal(err)
			}
		}
	}
	p, err := Compile(sumPattern(1000), Go) // and the grammar's tables are built
	if err != nil {
		t.Fatal(err)
	}
	// One chain a level, all alike: kept once, and never more than a few.
	if len(p.chains) > maxChains {
		t.Errorf("%d chains, more than %d", len(p.chains), maxChains)
	}
	small, large := allocated(compile(5000)), allocated(compile(20000))
	if ratio := float64(large) / float64(small); ratio > 4.8 {
		t.Errorf("4x the terms allocate %.1fx the bytes (%d, then %d): compiling is not linear", ratio, small, large)
	}
}

func TestCompileRefusesLargePatterns(t *testing.T) {
	var vars []string
	for i := range MaxPatternVars + 1 {
		vars = append(vars, fmt.Sprintf("$V%d", i))
	}
	tests := []struct {
		name    string
		pattern string
		lang    Language
		refused bool
	}{
		{"the issue's 20000 terms fit", sumPattern(20000), Go, false},
		{"the issue's 60000 terms do not", sumPattern(60000), Go, true},
		{"just over the byte limit", "f(" + strings.Repeat(" ", MaxPatternBytes) + ")", JavaScript, true},
		{"as many metavariables as allowed", "f(" + strings.Join(vars[:MaxPatternVars], ", ") + ")", Python, false},
		{"one metavariable too many", "f(" + strings.Join(vars, ", ") + ")", Python, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(tc.pattern, tc.lang)
			if !tc.refused {
				if err != nil {
					t.Fatalf("Compile: %v", err)
				}
				return
			}
			var pe *PatternError
			if !errors.As(err, &pe) || pe.Problem != ProblemTooLarge || !errors.Is(err, ErrInvalidPattern) {
				t.Fatalf("Compile error = %v, want a too-large PatternError", err)
			}
			if msg := err.Error(); len(msg) > 400 || !strings.Contains(msg, Cut) {
				t.Errorf("the message quotes too much of the pattern, or does not say it cut it (%d bytes): %.200s", len(msg), msg)
			}
		})
	}
}

// TestSearchRefusesLargePatterns: the size limit holds for every engine
// and the fallback, so no answer is computed for a pattern Compile
// refuses.
func TestSearchRefusesLargePatterns(t *testing.T) {
	root := projectWith(t, map[string]string{"a.go": "package a\n"})
	huge := sumPattern(60000)
	for _, opts := range []Options{{}, {Disabled: true}, {Command: fakeAstGrep(t, "ast-grep "+AstGrepVersion, "", "", 1)}} {
		_, err := Search(t.Context(), opts, Request{Root: root, Pattern: huge, Language: Go})
		var pe *PatternError
		if !errors.As(err, &pe) || pe.Problem != ProblemTooLarge {
			t.Errorf("Search(%+v) error = %v, want a too-large PatternError", opts, err)
		}
	}
}
