package cli

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/redact"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/trust"
)

// TestRecordEncoderMatchesMarshal checks that the record encoder writes
// the bytes the general way (json.Marshal, redactJSON, json.Indent) does,
// for records with every field drawn, strings full of characters that
// need escaping and a redactor that finds a secret in them.
func TestRecordEncoderMatchesMarshal(t *testing.T) {
	// The second redactor's secret is one of the record's own member
	// names, which must then be masked as the general way masks it.
	reds := []func(string) string{redact.New("s3cr3t-token-value").String, redact.New("s3cr3t-token-value", "provenance").String}
	text := rapid.OneOf(
		rapid.String(),
		rapid.SampledFrom([]string{"", "a<b>&c", "\u2028\u2029", "\x00\x1f\b\f\n\r\t\"\\", "\xff\xfe", "key s3cr3t-token-value x", "é…"}),
	)
	rapid.Check(t, func(t *rapid.T) {
		red := rapid.SampledFrom(reds).Draw(t, "redactor")
		// One encoder for each form prints a few records in turn: what it
		// keeps from one must not leak into the next.
		encs := map[bool]*recordEncoder{false: {red: red, prefix: "    "}, true: {doc: true, red: red, prefix: "    "}}
		for range rapid.IntRange(1, 3).Draw(t, "records") {
			encodeOne(t, text, encs)
		}
	})
}

// encodeOne draws a record and checks both encoders print it as the
// general way does.
func encodeOne(t *rapid.T, text *rapid.Generator[string], encs map[bool]*recordEncoder) {
	r := evidence.Record{
		Kind:         evidence.Kind(text.Draw(t, "kind")),
		Provider:     text.Draw(t, "provider"),
		Provenance:   trust.Method(text.Draw(t, "provenance")),
		Trust:        rapid.SampledFrom([]trust.Tier{trust.Weak, trust.Structural, trust.Exact}).Draw(t, "trust"),
		Path:         text.Draw(t, "path"),
		StartLine:    rapid.IntRange(-2, 1<<20).Draw(t, "start_line"),
		StartColumn:  rapid.IntRange(0, 300).Draw(t, "start_column"),
		EndLine:      rapid.IntRange(0, 1<<20).Draw(t, "end_line"),
		EndColumn:    rapid.IntRange(0, 300).Draw(t, "end_column"),
		Symbol:       text.Draw(t, "symbol"),
		TargetSymbol: text.Draw(t, "target_symbol"),
		Confidence:   rapid.SampledFrom([]float64{0, 1, 0.5, 0.1234567, 1e-7, 3e21, -0.25}).Draw(t, "confidence"),
		Exact:        rapid.Bool().Draw(t, "exact"),
		Stale:        rapid.Bool().Draw(t, "stale"),
	}
	r.Metadata.Excerpt = text.Draw(t, "excerpt")
	if rapid.Bool().Draw(t, "stale_from") {
		r.Metadata.StaleFrom = trust.Structural
	}
	if n := rapid.IntRange(0, 6).Draw(t, "attributes"); n > 0 {
		r.Metadata.Attributes = map[string]string{}
		for range n {
			r.Metadata.Attributes[text.Draw(t, "key")] = text.Draw(t, "value")
		}
	}
	for _, doc := range []bool{false, true} {
		enc := encs[doc]
		want, err := enc.general(r)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := enc.appendRecord([]byte("x"), &r)
		if !ok {
			if string(got) != "x" {
				t.Fatalf("a refused record changed dst: %q", got)
			}
			continue
		}
		if diff := cmp.Diff(string(want), string(got[1:])); diff != "" {
			t.Fatalf("doc %v (-want +got):\n%s", doc, diff)
		}
	}
}

// TestMatchEncoderMatchesRecord: a structural match printed without its
// record (appendMatch) is the bytes of its record printed the general
// way, with the text from the source redacted in a stream line, for
// captures single and multiple, escapes, invalid UTF-8 and secrets, and
// with one encoder printing many matches in turn.
func TestMatchEncoderMatchesRecord(t *testing.T) {
	reds := []func(string) string{redact.New("s3cr3t-token-value").String, redact.New("s3cr3t-token-value", "engine").String}
	text := rapid.SampledFrom([]string{"", "f(x)", "a<b>&c", "\u2028", "\x00\"q\"\n", "\xff\xfe", "key s3cr3t-token-value x", "é…"})
	rapid.Check(t, func(t *rapid.T) {
		red := rapid.SampledFrom(reds).Draw(t, "redactor")
		for _, doc := range []bool{false, true} {
			enc := recordEncoder{doc: doc, red: red, prefix: "    "}
			for range rapid.IntRange(1, 3).Draw(t, "matches") {
				m := structural.Match{
					Path:     text.Draw(t, "path"),
					Language: rapid.SampledFrom([]structural.Language{structural.Go, structural.Python}).Draw(t, "language"),
					Text:     text.Draw(t, "text"),
					Range: structural.Range{StartByte: rapid.IntRange(0, 100).Draw(t, "start_byte"), EndByte: rapid.IntRange(100, 200).Draw(t, "end_byte"),
						StartLine: rapid.IntRange(1, 9).Draw(t, "start_line"), StartColumn: 1, EndLine: 9, EndColumn: 2},
				}
				for _, name := range rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"A", "ARGS", "F", "X"}), 0, 3, rapid.ID).Draw(t, "captures") {
					c := structural.Capture{Name: name, Text: text.Draw(t, "capture")}
					if c.Multi = rapid.Bool().Draw(t, "multi"); c.Multi {
						for range rapid.IntRange(0, 3).Draw(t, "nodes") {
							c.Nodes = append(c.Nodes, structural.Node{Text: text.Draw(t, "node"), Named: rapid.Bool().Draw(t, "named")})
						}
					}
					m.Captures = append(m.Captures, c)
				}
				slices.SortFunc(m.Captures, func(a, b structural.Capture) int { return strings.Compare(a.Name, b.Name) })
				pattern := text.Draw(t, "pattern")
				r := m.Record(structural.BuiltinName, pattern)
				if !doc {
					r = enc.redactSource(r)
				}
				want, err := enc.general(r)
				if err != nil {
					t.Fatal(err)
				}
				got, err := enc.appendMatch([]byte("x"), &m, structural.BuiltinName, pattern)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(string(want), string(got[1:])); diff != "" {
					t.Fatalf("doc %v (-want +got):\n%s", doc, diff)
				}
			}
		}
	})
}

// TestDocumentMatchesRender: the frame a streamed --json search prints
// around its records (appendDocument) is the document renderJSON prints
// for the same pattern, language and report with no records, escapes,
// invalid UTF-8 and secrets included, member names among the secrets.
func TestDocumentMatchesRender(t *testing.T) {
	reds := []*redact.Redactor{redact.New("s3cr3t-token-value"), redact.New("s3cr3t-token-value", "state"), redact.New("s3cr3t-token-value", "records")}
	text := rapid.OneOf(
		rapid.String(),
		rapid.SampledFrom([]string{"", "$F($$$A)", "a<b>&c", "\u2028", "\x00\"q\"\n", "\xff\xfe", "key s3cr3t-token-value x", "é…"}),
	)
	rapid.Check(t, func(t *rapid.T) {
		c := &cmd{red: rapid.SampledFrom(reds).Draw(t, "redactor")}
		pattern := text.Draw(t, "pattern")
		lang := rapid.SampledFrom([]structural.Language{"", structural.Go, structural.TSX}).Draw(t, "language")
		rep := evidence.Report{
			Provider: text.Draw(t, "provider"),
			State:    evidence.State(text.Draw(t, "state")),
			Reason:   text.Draw(t, "reason"),
			Guidance: text.Draw(t, "guidance"),
			Records:  rapid.IntRange(-1, 1<<20).Draw(t, "records"),
			Lowered:  rapid.SliceOfN(text, 0, 3).Draw(t, "lowered"),
			Dropped:  rapid.SliceOfN(text, 0, 3).Draw(t, "dropped"),
		}
		want, err := c.renderJSON(structuralJSON{Pattern: pattern, Language: lang, Records: []evidence.Record{}, Report: rep})
		if err != nil {
			t.Fatal(err)
		}
		frame := recordEncoder{doc: true, red: c.redact}
		got := frame.appendDocument([]byte("x"), pattern, lang, &rep)
		if diff := cmp.Diff(string(want), string(got[1:])); diff != "" {
			t.Fatalf("(-want +got):\n%s", diff)
		}
	})
}

// TestRecordKeysListed: every member name appendRecord writes as a
// constant is in recordKeys, which plainKeys checks against the redactor.
func TestRecordKeysListed(t *testing.T) {
	src, err := os.ReadFile("recordjson.go")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`(?:rawKey|field)\("([a-z_]+)"|\{"([a-z_]+)", (?:r|rep)\.`).FindAllSubmatch(src, -1)
	if len(names) < 10 {
		t.Fatalf("found only %d constant member names in recordjson.go", len(names))
	}
	for _, m := range names {
		k := string(m[1]) + string(m[2])
		if !slices.Contains(recordKeys, k) {
			t.Errorf("appendRecord writes %q as a constant, but recordKeys lacks it", k)
		}
	}
}

// TestRedactedRemembersRight: whatever the memo and the recent slots
// hold, redacted(s) is red(s), for strings that share a slot (same
// length, first and last bytes), repeat, are long, or are empty.
// TestRedactedCopiesWhatItKeeps: the memo answers for what a string
// holds when it is asked, even when the string is memory that changed
// since an earlier call (a source the search read the next file into):
// a secret written where a plain string was is still masked.
func TestRedactedCopiesWhatItKeeps(t *testing.T) {
	red := func(s string) string { return strings.ReplaceAll(s, "s3cr3t", "******") }
	e := &recordEncoder{red: red}
	buf := []byte("a public b")
	view := unsafe.String(&buf[0], len(buf))
	for _, step := range []struct{ holds, want string }{
		{"a public b", "a public b"},
		{"a public b", "a public b"}, // from the memo, into the recent slots
		{"a s3cr3t b", "a ****** b"}, // same length, first and last byte: same slot
		{"a s3cr3t b", "a ****** b"},
		{"a public b", "a public b"},
	} {
		copy(buf, step.holds)
		if got := e.redacted(view); got != step.want {
			t.Fatalf("redacted(%q) = %q, want %q", step.holds, got, step.want)
		}
	}
}

func TestRedactedRemembersRight(t *testing.T) {
	red := func(s string) string { return fmt.Sprintf("<%d:%s>", len(s), strings.ToUpper(s)) }
	e := &recordEncoder{red: red}
	var in []string
	for i := range 3000 {
		in = append(in, fmt.Sprintf("a%03db", i%40), fmt.Sprintf("x%dy", i), "engine", "", strings.Repeat("z", memoMaxLen+i%3))
	}
	for _, s := range in {
		if got, want := e.redacted(s), red(s); got != want {
			t.Fatalf("redacted(%q) = %q, want %q", s, got, want)
		}
	}
}
