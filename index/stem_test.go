package index

import (
	"context"
	"database/sql"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestStemAgreesWithSQLite holds porterStem to SQLite's own porter
// tokenizer, the oracle the index used before it stemmed words itself:
// every word of this module's sources and documentation (English and
// code, some thousands), and words chosen for each step of the algorithm.
func TestStemAgreesWithSQLite(t *testing.T) {
	words := map[string]bool{}
	for _, w := range strings.Fields(`caresses ponies ties caress cats feed agreed plastered bled motoring sing
		conflated troubled sized hopping tanned falling hissing fizzed failing filing happy sky
		relational conditional rational valenci hesitanci digitizer conformabli radicalli differentli
		vileli analogousli vietnamization predication operator feudalism decisiveness hopefulness
		callousness formaliti sensitiviti sensibiliti triplicate formative formalize electriciti
		electrical hopeful goodness revival allowance inference airliner gyroscopic adjustable
		defensible irritant replacement adjustment dependent adoption homologou communism activate
		angulariti homologous effective bowdlerize probate rate cease controll roll generalizations
		oscillators archaeology apology analogies utf8 x86 md5sum 1234 abc3ing`) {
		words[w] = true
	}
	word := regexp.MustCompile(`[A-Za-z0-9]+`)
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != ".." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return fs.SkipDir
		}
		if !strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, ".md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, w := range word.FindAllString(string(data), -1) {
			if w = strings.ToLower(w); len(w) >= minStemmed && len(w) <= maxStemmed {
				words[w] = true
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	list := slices.Sorted(func(yield func(string) bool) {
		for w := range words {
			if !yield(w) {
				return
			}
		}
	})
	if len(list) < 3000 {
		t.Fatalf("%d words to compare, too few", len(list))
	}
	sqlite := sqliteStems(t, list)
	bad := 0
	for i, w := range list {
		buf := make([]byte, len(w), len(w)+1)
		copy(buf, w)
		if got := string(porterStem(buf)); got != sqlite[i] {
			if bad++; bad <= 20 {
				t.Errorf("porterStem(%q) = %q, SQLite's porter %q", w, got, sqlite[i])
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d words stemmed otherwise", bad, len(list))
	}
}

// sqliteStems returns the stem SQLite's porter tokenizer gives each word.
func sqliteStems(t *testing.T, words []string) []string {
	t.Helper()
	ctx := context.Background()
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, q := range []string{
		`CREATE VIRTUAL TABLE w USING fts5(x, tokenize = 'porter unicode61 remove_diacritics 2')`,
		`CREATE VIRTUAL TABLE v USING fts5vocab(w, instance)`,
	} {
		if _, err := db.ExecContext(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range words {
		if _, err := tx.ExecContext(ctx, `INSERT INTO w(rowid, x) VALUES(?, ?)`, i+1, w); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(words))
	rs, err := db.QueryContext(ctx, `SELECT doc, term FROM v`)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	for rs.Next() {
		var doc int
		var term string
		if err := rs.Scan(&doc, &term); err != nil {
			t.Fatal(err)
		}
		out[doc-1] = term
	}
	if err := rs.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestStemText(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Checkpoints are created when the WAL grows", "checkpoint ar creat when the wal grow"},
		{"validate_session(ctx)", "valid_session(ctx)"},
		{"x := connections[i]; // running", "x := connect[i]; // run"},
		{"naïve cafés running", "naïve cafés run"},                       // a word with another letter is left to the tokenizer
		{"tokenisé-running", "tokenisé-run"},                             // split where the tokenizer splits
		{"abc abcs", "abc abc"},                                          // words of fewer than three bytes stay
		{strings.Repeat("ab", 33) + "s", strings.Repeat("ab", 33) + "s"}, // and of more than 64
		{"", ""},
	}
	for _, tt := range tests {
		if got := stemText(tt.in); got != tt.want {
			t.Errorf("stemText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// FuzzStemText: stemming changes the words, never what lies between
// them: the tokenizer finds as many words, at the same places in order.
func FuzzStemText(f *testing.F) {
	for _, s := range []string{"Checkpoints are created", "naïve cafés", "a_b-c", "\xff\xfe running"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := stemText(s)
		if len(got) > len(s)+len(s)/2+1 {
			t.Fatalf("stemText(%q) = %q: longer than a word's stem can make it", s, got)
		}
		if a, b := separators(s), separators(got); a != b {
			t.Fatalf("stemText(%q) = %q: the text between words changed (%q, %q)", s, got, a, b)
		}
	})
}

// separators returns s with each run of word bytes (as stemText reads
// them) replaced by one "w".
func separators(s string) string {
	var b strings.Builder
	in := false
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		word := r < utf8.RuneSelf && isASCIIWordByte(byte(r)) || r >= utf8.RuneSelf && r != utf8.RuneError && unicode.In(r, unicode.L, unicode.N, unicode.M, unicode.Co)
		if word && !in {
			b.WriteByte('w')
		}
		if !word {
			b.WriteString(s[i : i+n])
		}
		in = word
		i += n
	}
	return b.String()
}

// TestSearchFindsOtherFormsOfAWord: a search finds a chunk by another
// form of its words (the stems the workers wrote and the query's agree),
// a phrase by its words' forms in order, and a word with a letter of
// another script as written.
func TestSearchFindsOtherFormsOfAWord(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"wal/checkpoint.go": "package wal\n\n// Checkpoints are created when the log grows past its limit.\nfunc Checkpoint() {}\n",
		"notes/cafe.md":     "# Menu\n\nThe naïve café opens early.\n",
		"other/x.go":        "package other\n\nfunc Unrelated() {}\n",
	})
	ix := openTest(t, dir, nil)
	ctx := context.Background()
	for _, q := range []struct{ query, path string }{
		{"where are checkpoints creating", "wal/checkpoint.go"},
		{"checkpoint created", "wal/checkpoint.go"},
		{`"log growing"`, "wal/checkpoint.go"},
		{"naïve", "notes/cafe.md"},
		{"café opening", "notes/cafe.md"},
	} {
		res, err := ix.Search(ctx, q.query, SearchOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 || res.Hits[0].Path != q.path {
			t.Errorf("search %q: %+v, want %s first", q.query, res.Hits, q.path)
		}
	}
}
