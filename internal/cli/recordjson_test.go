package cli

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/redact"
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
			enc := recordEncoder{doc: doc, red: red, prefix: "    "}
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
	})
}

// TestRecordKeysListed: every member name appendRecord writes as a
// constant is in recordKeys, which plainKeys checks against the redactor.
func TestRecordKeysListed(t *testing.T) {
	src, err := os.ReadFile("recordjson.go")
	if err != nil {
		t.Fatal(err)
	}
	names := regexp.MustCompile(`(?:rawKey|field)\("([a-z_]+)"|\{"([a-z_]+)", r\.`).FindAllSubmatch(src, -1)
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
