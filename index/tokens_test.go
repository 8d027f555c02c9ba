package index

import (
	"os"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestSubTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"validateSession", []string{"validate", "session"}},
		{"ValidateSession", []string{"validate", "session"}},
		{"HTTPServer", []string{"http", "server"}},
		{"getHTTPServer", []string{"get", "http", "server"}},
		{"validate_session", []string{"validate", "session"}},
		{"VALIDATE_SESSION", []string{"validate", "session"}},
		{"__init__", []string{"init"}},
		{"kebab-case-name", []string{"kebab", "case", "name"}},
		{"utf8Decode", []string{"utf", "8", "decode"}},
		{"sha256sum", []string{"sha", "256", "sum"}},
		{"Base64URL", []string{"base", "64", "url"}},
		{"v2", []string{"v", "2"}},
		{"x", []string{"x"}},
		{"ID", []string{"id"}},
		{"userID", []string{"user", "id"}},
		{"parseJSONToMap", []string{"parse", "json", "to", "map"}},
		{"ÉtéChaud", []string{"été", "chaud"}},
		{"straßeName", []string{"straße", "name"}},
		{"名前Value", []string{"名前", "value"}},
		{"", nil},
		{"___", nil},
		{"a.b::c", []string{"a", "b", "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, SubTokens(tt.in)); diff != "" {
				t.Errorf("SubTokens(%q) (-want +got):\n%s", tt.in, diff)
			}
		})
	}
}

// identifier draws identifier-like strings: mostly ASCII words in camel,
// Pascal, snake and upper case with digits, sometimes other letters.
func identifier() *rapid.Generator[string] {
	part := rapid.OneOf(
		rapid.StringMatching(`[a-z]{1,6}`),
		rapid.StringMatching(`[A-Z][a-z]{0,5}`),
		rapid.StringMatching(`[A-Z]{1,4}`),
		rapid.StringMatching(`[0-9]{1,3}`),
		rapid.SampledFrom([]string{"_", "__", "-", "é", "Ü", "ß", "名", "ǅ", "İ", "ϒ", "\u0301"}),
	)
	return rapid.Custom(func(t *rapid.T) string {
		return strings.Join(rapid.SliceOfN(part, 1, 6).Draw(t, "parts"), "")
	})
}

func TestSubTokensProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		id := rapid.OneOf(identifier(), rapid.String()).Draw(t, "ident")
		words := SubTokens(id)
		// The words spell the identifier's word characters, in order, in
		// lower case: nothing is lost, added or reordered (a combining mark
		// with no letter before it belongs to no word).
		var kept strings.Builder
		inWord := false
		for _, r := range id {
			switch c := classOf(r); {
			case c == sep:
				inWord = false
			case c == mark && !inWord:
			default:
				kept.WriteRune(r)
				inWord = true
			}
		}
		if got, want := strings.Join(words, ""), strings.ToLower(kept.String()); got != want {
			t.Fatalf("words %q of %q spell %q, want %q", words, id, got, want)
		}
		for _, w := range words {
			if w == "" {
				t.Fatalf("empty word in %q", words)
			}
			if strings.ContainsAny(w, "_- ") {
				t.Fatalf("word %q of %q holds a separator", w, id)
			}
			// A word is letters (with marks) or digits, never both.
			letters := strings.ContainsFunc(w, unicode.IsLetter)
			digits := strings.ContainsFunc(w, unicode.IsDigit)
			if letters && digits {
				t.Fatalf("word %q of %q mixes letters and digits", w, id)
			}
			// Splitting a word again gives the word: words are atoms.
			if again := SubTokens(w); len(again) != 1 || again[0] != w {
				t.Fatalf("SubTokens(%q) = %q, a word of %q should be one word", w, again, id)
			}
		}
		// Joined with underscores (snake case), the words split the same.
		if again := SubTokens(strings.Join(words, "_")); len(words) > 0 && !cmp.Equal(again, words) {
			t.Fatalf("snake case %q splits into %q, want %q", strings.Join(words, "_"), again, words)
		}
	})
}

func TestMatchText(t *testing.T) {
	tests := []struct {
		name  string
		chunk string
		want  string
	}{
		{"camel", "func validateSession(s *Session) {}", "func validateSession(s *Session) {}\nvalidate session\n"},
		{"acronym and snake", "srv := NewHTTPServer(max_conns)", "srv := NewHTTPServer(max_conns)\nnew http server\nmax conns\n"},
		{"repeats once", "validateSession(); validateSession(); ValidateSession()", "validateSession(); validateSession(); ValidateSession()\nvalidate session\n"},
		{"plain words add nothing", "the quick fox", "the quick fox\n"},
		{"short identifiers skipped", "aB x1", "aB x1\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, matchText(tt.chunk)); diff != "" {
				t.Errorf("matchText (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMatchTextBounded(t *testing.T) {
	var b strings.Builder
	for i := range 5000 {
		b.WriteString("someLongIdentifierNumber")
		b.WriteString(strings.Repeat("X", i%7+1))
		b.WriteString(string(rune('a' + i%26)))
		b.WriteString(string(rune('a' + i/26%26)))
		b.WriteString(string(rune('a' + i/676%26)))
		b.WriteString(" ")
	}
	chunk := b.String()
	got := matchText(chunk)
	if !strings.HasPrefix(got, chunk) {
		t.Fatal("the chunk's own text is not kept whole at the start")
	}
	extra := got[len(chunk):]
	if len(extra) > maxExpandedBytes+1 {
		t.Errorf("appended %d bytes, want at most %d", len(extra), maxExpandedBytes+1)
	}
	if n := strings.Count(extra, "\n") - 1; n > maxExpandedIdents {
		t.Errorf("appended %d identifiers, want at most %d", n, maxExpandedIdents)
	}
}

func FuzzSubTokens(f *testing.F) {
	for _, s := range []string{"validateSession", "HTTPServer", "utf8Decode", "a_b-c", "ÉtéChaud", "İx", "\u0301a", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		words := SubTokens(s)
		for _, w := range words {
			if w == "" {
				t.Fatalf("empty word from %q", s)
			}
		}
		mt := matchText(s)
		if !strings.HasPrefix(mt, s) {
			t.Fatalf("matchText(%q) does not start with the text", s)
		}
	})
}

// matchTextPlain is matchText written plainly, without its shortcuts: the
// reference FuzzMatchText holds it to.
func matchTextPlain(chunk string) string {
	var b strings.Builder
	b.WriteString(chunk)
	b.WriteString("\n")
	seen, added := map[string]bool{}, map[string]bool{}
	for i := 0; i < len(chunk); {
		r, n := utf8.DecodeRuneInString(chunk[i:])
		if !isWordRune(r) {
			i += n
			continue
		}
		j := i + n
		for j < len(chunk) {
			r, n := utf8.DecodeRuneInString(chunk[j:])
			if !isWordRune(r) {
				break
			}
			j += n
		}
		ident := chunk[i:j]
		i = j
		if seen[ident] || len(ident) < 3 {
			continue
		}
		seen[ident] = true
		words := SubTokens(ident)
		if len(words) < 2 {
			continue
		}
		phrase := strings.Join(words, " ")
		if added[phrase] {
			continue
		}
		if len(added) >= maxExpandedIdents || b.Len()-len(chunk)+len(phrase)+1 > maxExpandedBytes {
			break
		}
		added[phrase] = true
		b.WriteString(phrase + "\n")
	}
	return b.String()
}

func FuzzMatchText(f *testing.F) {
	for _, s := range []string{"func validateSession(s *Session) {}", "srv := NewHTTPServer(max_conns)", "utf8 x1y2 abc_def",
		"ÉtéChaud étéChaud é\u0301t", "İxYz", "\xff\xfeabcDef", "lower only words here", "a1b2c3 ABC abc1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := matchText(s), matchTextPlain(s); got != want {
			t.Fatalf("matchText(%q) = %q, want %q", s, got, want)
		}
	})
}

// BenchmarkMatchText reads this package's own source as chunks of code.
func BenchmarkMatchText(b *testing.B) {
	var chunks []string
	for _, name := range []string{"refresh.go", "search.go", "store.go", "walk.go"} {
		data, err := os.ReadFile(name)
		if err != nil {
			b.Fatal(err)
		}
		for part := range strings.SplitSeq(string(data), "\n\n") {
			chunks = append(chunks, part)
		}
	}
	size := 0
	for _, c := range chunks {
		size += len(c)
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range chunks {
			matchText(c)
		}
	}
}
