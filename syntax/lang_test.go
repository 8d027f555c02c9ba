package syntax

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLanguage(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Language
	}{
		{"go", Go}, {"Golang", Go}, {" py ", Python}, {"js", JavaScript}, {"jsx", JavaScript},
		{"ts", TypeScript}, {"tsx", TSX}, {"rs", Rust}, {"java", Java}, {"c", C}, {"c++", Cpp},
		{"cxx", Cpp}, {"C#", CSharp}, {"cs", CSharp}, {"rb", Ruby}, {"php", PHP}, {"sh", Bash},
		{"zsh", Bash}, {"kt", Kotlin}, {"json", JSON},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ParseLanguage(tc.name)
			if err != nil || got != tc.want {
				t.Fatalf("ParseLanguage(%q) = %q, %v; want %q", tc.name, got, err, tc.want)
			}
		})
	}
	if _, err := ParseLanguage("cobol"); !errors.Is(err, ErrUnknownLanguage) {
		t.Errorf("ParseLanguage(cobol) = %v, want ErrUnknownLanguage", err)
	}
}

func TestLanguageOf(t *testing.T) {
	for _, tc := range []struct {
		file string
		want Language
		ok   bool
	}{
		{"a/b/main.go", Go, true},
		{"x.pyi", Python, true},
		{"lib.mjs", JavaScript, true},
		{"a.d.ts", TypeScript, true},
		{"App.tsx", TSX, true},
		{"k.h", C, true},
		{"k.hpp", Cpp, true},
		{"Prog.cs", CSharp, true},
		{"Rakefile.rake", Ruby, true},
		{"build.gradle.kts", Kotlin, true},
		{"package.json", JSON, true},
		{"x.GO", "", false}, // extensions are case-sensitive
		{"Makefile", "", false},
		{"notes.txt", "", false},
		{"dir.go/README", "", false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			got, ok := LanguageOf(tc.file)
			if got != tc.want || ok != tc.ok {
				t.Fatalf("LanguageOf(%q) = %q, %v; want %q, %v", tc.file, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// TestLanguageTable: every language is valid, has extensions that lead
// back to it and aliases that parse to it, its canonical name first.
func TestLanguageTable(t *testing.T) {
	ls := Languages()
	if len(ls) != 15 {
		t.Fatalf("%d languages, want 15", len(ls))
	}
	for _, l := range ls {
		if !l.Valid() {
			t.Errorf("%s: not valid", l)
		}
		if a := l.Aliases(); len(a) == 0 || a[0] != string(l) {
			t.Errorf("%s: aliases %v do not start with its name", l, a)
		}
		for _, a := range l.Aliases() {
			if got, err := ParseLanguage(a); got != l || err != nil {
				t.Errorf("%s: alias %q parses to %q, %v", l, a, got, err)
			}
		}
		for _, e := range l.Extensions() {
			if got, ok := LanguageOf("f." + e); got != l || !ok {
				t.Errorf("%s: extension %q reads as %q", l, e, got)
			}
		}
	}
	if Language("cobol").Valid() {
		t.Error("cobol is valid")
	}
	if diff := cmp.Diff([]string(nil), Language("cobol").Extensions()); diff != "" {
		t.Errorf("cobol extensions (-want +got):\n%s", diff)
	}
}

func TestDetect(t *testing.T) {
	for _, tc := range []struct {
		file, src string
		want      Language
	}{
		{"a.h", "#include <stdio.h>\nint f(void);\nstruct s { int x; };\n", C},
		{"a.h", "#pragma once\n#include <cstdint>\n", Cpp},
		{"a.h", "namespace n {\nint f();\n}\n", Cpp},
		{"a.h", "class Widget : public Base {\n};\n", Cpp},
		{"a.h", "template <typename T>\nT max(T a, T b);\n", Cpp},
		{"a.h", "struct s {\n public:\n  int x;\n};\n", Cpp},
		{"a.h", "int x = std::max(1, 2);\n", Cpp},
		{"a.h", "/* a class of bugs */\nint f(void);\n", C},
		{"a.c", "namespace n {}\n", C}, // only headers are sniffed
		{"a.hpp", "int f(void);\n", Cpp},
		{"a.go", "package a\n", Go},
	} {
		t.Run(tc.file+" "+tc.src, func(t *testing.T) {
			got, ok := Detect(tc.file, []byte(tc.src))
			if !ok || got != tc.want {
				t.Errorf("Detect = %q, %v; want %q", got, ok, tc.want)
			}
		})
	}
	if _, ok := Detect("notes.txt", nil); ok {
		t.Error("notes.txt detected")
	}
}
