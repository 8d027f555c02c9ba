package structural

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestExtractMetaVar(t *testing.T) {
	tests := []struct {
		in   string
		want metaVar
		ok   bool
	}{
		{"$X", metaVar{kind: mvCapture, name: "X", named: true}, true},
		{"$$X", metaVar{kind: mvCapture, name: "X"}, true},
		{"$_", metaVar{kind: mvDropped, named: true}, true},
		{"$_NAME", metaVar{kind: mvDropped, named: true}, true},
		{"$$$", metaVar{kind: mvMulti}, true},
		{"$$$ARGS", metaVar{kind: mvMultiCap, name: "ARGS"}, true},
		{"$$$_", metaVar{kind: mvMulti}, true},
		{"$A1_B", metaVar{kind: mvCapture, name: "A1_B", named: true}, true},
		{"$1A", metaVar{}, false},
		{"$abc", metaVar{}, false},
		{"$", metaVar{}, false},
		{"X", metaVar{}, false},
		{"$$$$A", metaVar{}, false},
	}
	for _, tc := range tests {
		got, ok := extractMetaVar(tc.in, '$')
		if ok != tc.ok || got != tc.want {
			t.Errorf("extractMetaVar(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestPreprocess(t *testing.T) {
	tests := []struct{ in, want string }{
		{"foo($X)", "foo(µX)"},
		{"$$$", "µµµ"},
		{"f($$$ARGS, $$B)", "f(µµµARGS, µµB)"},
		{`"$5" + $x`, `"$5" + $x`},
		{"$", "$"},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, preprocess(tc.in, 'µ')); diff != "" {
			t.Errorf("preprocess(%q) (-want +got):\n%s", tc.in, diff)
		}
	}
	if got := preprocess("foo($X)", '$'); got != "foo($X)" {
		t.Errorf("preprocess with $ changed the pattern: %q", got)
	}
}

func TestMatchGlob(t *testing.T) {
	tests := []struct {
		glob, name string
		want       bool
	}{
		{"**/*.go", "a/b/c.go", true},
		{"**/*.go", "c.go", true},
		{"*.go", "a/c.go", false},
		{"src/**/x_*.py", "src/a/b/x_1.py", true},
		{"src/**/x_*.py", "lib/x_1.py", false},
	}
	for _, tc := range tests {
		if got := matchGlob(tc.glob, tc.name); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v", tc.glob, tc.name, got)
		}
	}
}
