package index

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/codecortex/codecortex/symbols"
)

// TestCleanRefs holds cleanRefs to what it keeps and makes, and to its
// shortcut: refs kept as they are come back without a copy.
func TestCleanRefs(t *testing.T) {
	ref := func(name string, line int) symbols.Ref {
		return symbols.Ref{Name: name, Kind: symbols.Call, Line: line, Column: 1, Byte: line}
	}
	long := strings.Repeat("x", maxNameBytes+10)
	for _, tc := range []struct {
		name     string
		in, want []symbols.Ref
		copied   bool
	}{
		{"none", nil, []symbols.Ref{}, false},
		{"all kept", []symbols.Ref{ref("a", 1), ref("b", 2)}, []symbols.Ref{ref("a", 1), ref("b", 2)}, false},
		{"one dropped", []symbols.Ref{ref("a", 1), ref("", 2), ref("c", 3)}, []symbols.Ref{ref("a", 1), ref("c", 3)}, true},
		{"past the file", []symbols.Ref{ref("a", 1), ref("b", 100)}, []symbols.Ref{ref("a", 1)}, true},
		{"one cut", []symbols.Ref{ref("a", 1), ref(long, 2)}, []symbols.Ref{ref("a", 1), ref(long[:maxNameBytes], 2)}, true},
		{"invalid UTF-8", []symbols.Ref{ref("a\xff", 1)}, []symbols.Ref{ref("a\uFFFD", 1)}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := append([]symbols.Ref(nil), tc.in...)
			got := cleanRefs(tc.in, 50)
			if d := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); d != "" {
				t.Errorf("cleanRefs (-want +got):\n%s", d)
			}
			if len(got) > 0 && (&got[0] != &tc.in[0]) != tc.copied {
				t.Errorf("copied: %v, want %v", &got[0] != &tc.in[0], tc.copied)
			}
			if !cmp.Equal(before, tc.in) {
				t.Errorf("the refs given were changed")
			}
		})
	}
}

// TestCleanRefsLimit: at most symbols.MaxRefs are kept, counted among
// those kept, whether the refs are copied or not.
func TestCleanRefsLimit(t *testing.T) {
	in := make([]symbols.Ref, symbols.MaxRefs+5)
	for i := range in {
		in[i] = symbols.Ref{Name: "n", Kind: symbols.Use, Line: 1, Column: 1, Byte: i}
	}
	if got := cleanRefs(in, len(in)); len(got) != symbols.MaxRefs || got[len(got)-1].Byte != symbols.MaxRefs-1 {
		t.Errorf("all valid: %d kept, the last at %d", len(got), got[len(got)-1].Byte)
	}
	in[3].Name = ""
	if got := cleanRefs(in, len(in)); len(got) != symbols.MaxRefs || got[len(got)-1].Byte != symbols.MaxRefs {
		t.Errorf("one dropped: %d kept, the last at %d", len(got), got[len(got)-1].Byte)
	}
}
