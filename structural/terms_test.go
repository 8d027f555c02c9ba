package structural

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestTextTerms(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		// The spec's routing examples.
		{"Where is AuthService defined?", []string{"AuthService"}},
		{"Who calls refresh_token?", []string{"refresh_token"}},
		{"What changed in this file?", nil},
		{"Is this method deprecated in our installed version?", nil},
		{"Find all usages of this old API shape.", nil},
		{"Migrate all old API calls to the new shape.", nil},
		// Rule 2: spelled as code.
		{"who calls getUser and HTTPServer", []string{"getUser", "HTTPServer"}},
		{"what sets MAX_RETRIES", []string{"MAX_RETRIES"}},
		{"where is _private used", []string{"_private"}},
		{"who uses utf8 or md5sum", []string{"utf8", "md5sum"}},
		{"callers of refresh() please", []string{"refresh"}},
		{"how does Command.Find work?", []string{"Command.Find"}},
		{"what is os.Args, std::vec::Vec and self->next", []string{"os.Args", "std::vec::Vec", "self->next"}},
		{"AuthService. Then what?", []string{"AuthService"}}, // a full stop ends no chain
		{"what changed in main.go and README.md", nil},       // files, not symbols
		{"is x86 supported? and 2nd?", []string{"x86"}},
		// Rule 1: quoted code comes first, keywords left out.
		{"where is `parse` called from NewServer", []string{"parse", "NewServer"}},
		{`who calls "refresh" or 'reload'`, []string{"refresh", "reload"}},
		{"what does `func main` do", []string{"main"}},
		{"don't and it's are not quotes: 'config'", []string{"config"}},
		{"curly “quoted” and ‘single’", []string{"quoted", "single"}},
		{"`Type.Method` and `main.go`", []string{"Type.Method"}},
		{"unclosed `quote", []string{"unclosed", "quote"}}, // plain words
		// Rule 3: plain words only when nothing looks like code.
		{"where is the tokenizer initialised", []string{"tokenizer", "initialised"}},
		{"where is the Parser? and the API and HTTP", []string{"Parser"}},
		{"where is the Überträger defined", []string{"Überträger"}},
		// At most four, no repeats.
		{"aB cD eF gH iJ aB", []string{"aB", "cD", "eF", "gH"}},
		{"", nil},
	}
	for _, tc := range tests {
		t.Run(tc.text, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, TextTerms(tc.text)); diff != "" {
				t.Errorf("TextTerms (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTermWords(t *testing.T) {
	got := TermWords([]string{"Command.Find", "AuthService", "std::vec::Vec", "Find"})
	want := []string{"Find", "AuthService", "Vec", "Command", "std", "vec"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("TermWords (-want +got):\n%s", diff)
	}
}

// TestTextTermsProperty: whatever the text, the terms are few, distinct,
// non-empty, made of identifiers, and each stands in the text.
func TestTextTermsProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		pieces := []string{"where", "is", "AuthService", "refresh_token", "`", "\"", "'", ".", "::", "(", ")", " ", "?", "é", "x1", "main.go", "don't", "Type.Method", "func"}
		var b strings.Builder
		for _, i := range rapid.SliceOfN(rapid.IntRange(0, len(pieces)-1), 0, 30).Draw(t, "pieces") {
			b.WriteString(pieces[i])
		}
		text := b.String()
		terms := TextTerms(text)
		if len(terms) > maxTerms {
			t.Fatalf("%d terms", len(terms))
		}
		seen := map[string]bool{}
		for _, term := range terms {
			if term == "" || seen[term] || !strings.Contains(text, term) {
				t.Fatalf("term %q of %q: empty, repeated or not in the text", term, text)
			}
			seen[term] = true
			if toks := scanTokens(term); len(toks) != 1 || toks[0].text != term {
				t.Fatalf("term %q is not one identifier or chain", term)
			}
		}
	})
}

func FuzzTextTerms(f *testing.F) {
	for _, s := range []string{"Where is AuthService defined?", "`a.b` 'c' \"d\"", "x::y->z.w()", "‘", "“x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, term := range TextTerms(text) {
			if !strings.Contains(text, term) {
				t.Fatalf("term %q not in %q", term, text)
			}
		}
		_ = TermWords(TextTerms(text))
	})
}
