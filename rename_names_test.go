package codecortex

import (
	"testing"
	"unicode/utf8"

	"github.com/codecortex/codecortex/syntax"
)

func TestCheckNewName(t *testing.T) {
	tests := []struct {
		lang syntax.Language
		name string
		kind string
	}{
		{syntax.Go, "Put", ""},
		{syntax.Go, "π", ""},
		{syntax.Go, "func", ConflictKeyword},
		{syntax.Go, "_", ConflictIdentifier},
		{syntax.Go, "$x", ConflictIdentifier},
		{syntax.Go, "1x", ConflictIdentifier},
		{syntax.Go, "", ConflictIdentifier},
		{syntax.TypeScript, "$x", ""},
		{syntax.TypeScript, "class", ConflictKeyword},
		{syntax.Python, "None", ConflictKeyword},
		{syntax.Python, "match", ""}, // a soft keyword is a name
		{syntax.Python, "a-b", ConflictIdentifier},
		{"", "x", ""},
	}
	for _, tt := range tests {
		if kind, _ := checkNewName(tt.lang, tt.name); kind != tt.kind {
			t.Errorf("%s %q: %q, want %q", tt.lang, tt.name, kind, tt.kind)
		}
	}
}

// FuzzCheckNewName: any new name is either refused with a reason or an
// identifier of the language: valid UTF-8, bounded, no white space or
// punctuation but _ (and $ where the language allows it).
func FuzzCheckNewName(f *testing.F) {
	for _, s := range []string{"Put", "func", "a b", "\xff", "$", "_", "x.y", "名前"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		for _, lang := range []syntax.Language{syntax.Go, syntax.Python, syntax.TypeScript, syntax.Rust, ""} {
			kind, why := checkNewName(lang, name)
			if (kind == "") != (why == "") {
				t.Fatalf("%s %q: kind %q with reason %q", lang, name, kind, why)
			}
			if kind != "" {
				continue
			}
			if !utf8.ValidString(name) || name == "" || len(name) > maxNewName {
				t.Fatalf("%s: %q accepted", lang, name)
			}
			for _, r := range name {
				if r == '.' || r == ' ' || r == '-' || r == '(' || r == '\n' {
					t.Fatalf("%s: %q accepted with %q", lang, name, r)
				}
			}
		}
	})
}
