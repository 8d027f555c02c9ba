package validation

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Every parser of tool output is fuzzed: none panics, and every diagnostic
// keeps its promises (positions not negative, clean text, a known tool).

func checkDiagnostics(t *testing.T, ds []Diagnostic) {
	t.Helper()
	for _, d := range ds {
		if d.Line < 0 || d.Column < 0 || d.Line == 0 && d.Column != 0 {
			t.Fatalf("position %d:%d", d.Line, d.Column)
		}
		if d.Severity != "error" && d.Severity != "warning" {
			t.Fatalf("severity %q", d.Severity)
		}
		for _, s := range []string{d.Message, d.Output} {
			if !utf8.ValidString(s) || strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 && r != '\n' && r != '\t' }) {
				t.Fatalf("unclean text %q", s)
			}
		}
		if len(d.Message) > maxMessage+8 || len(d.Output) > maxOutput+8 {
			t.Fatalf("text not cut: %d, %d bytes", len(d.Message), len(d.Output))
		}
	}
}

func FuzzParseGoOutput(f *testing.F) {
	f.Add([]byte("# m/sub\nsub/a.go:4:9: undefined: x\n\thave int\nvet: main.go:6:14: bad\ngo: downloading\n"))
	f.Add([]byte("x.go:99999999999999999999:1: big\n"))
	f.Fuzz(func(t *testing.T, out []byte) { checkDiagnostics(t, ParseGoOutput(out)) })
}

func FuzzParseGoTestJSON(f *testing.F) {
	f.Add([]byte(`{"Action":"output","Package":"p","Test":"T","Output":"    a_test.go:3: bad\n"}` + "\n" + `{"Action":"fail","Package":"p","Test":"T"}` + "\n"))
	f.Add([]byte(`{"Action":"fail","Package":"p","Test":"T/a"}` + "\n" + `{"Action":"fail","Package":"p","Test":"T"}` + "\n" + `{"Action":"fail","Package":"p"}` + "\n"))
	f.Add([]byte(`{"ImportPath":"p","Action":"build-output","Output":"a.go:1:1: x\n"}` + "\n"))
	f.Add([]byte(`{"Action":"output","Package":"p","Test":"T","Output":"\t/abs/a_test.go:18 +0x28\n"}` + "\n" + `{"Action":"fail","Package":"p","Test":"T"}`))
	f.Fuzz(func(t *testing.T, out []byte) {
		ds, err := ParseGoTestJSON(out)
		if err != nil {
			return
		}
		checkDiagnostics(t, ds)
	})
}

func FuzzParseTSCOutput(f *testing.F) {
	f.Add([]byte("src/a.ts(1,7): error TS2322: Type 'string' is not assignable.\n  more\nerror TS5058: no path\n"))
	f.Add([]byte("\x1b[96msrc/a.ts\x1b[0m:\x1b[93m1\x1b[0m:\x1b[93m7\x1b[0m - \x1b[91merror\x1b[0m\x1b[90m TS2322: \x1b[0mType\n"))
	f.Fuzz(func(t *testing.T, out []byte) { checkDiagnostics(t, ParseTSCOutput(out)) })
}

func FuzzCodePointColumn(f *testing.F) {
	f.Add("s := \"é😀\" + x", 17, "go")
	f.Add("é😀x", 4, "tsc")
	f.Fuzz(func(t *testing.T, line string, col int, tool string) {
		if col < 0 || col > 1<<20 {
			return
		}
		got := codePointColumn(line, col, tool)
		if col == 0 && got != 0 || col > 0 && got < 1 {
			t.Fatalf("codePointColumn(%q, %d, %q) = %d", line, col, tool, got)
		}
	})
}
