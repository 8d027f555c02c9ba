package evidence

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/codecortex/codecortex/trust"
	"pgregory.net/rapid"
)

type promptDoc struct {
	Evidence []map[string]any `json:"evidence"`
	Omitted  int              `json:"omitted"`
}

// The budget is hard: over random records and budgets the prompt's estimate
// never exceeds the budget, the prompt is valid JSON, every included record
// is whole, and the counts add up.
func TestPropPackBudget(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		recs := rapid.SliceOfN(genRecord(), 0, 40).Draw(t, "records")
		budget := rapid.IntRange(-5, 600).Draw(t, "budget")
		ctx := Pack(recs, budget)
		if est := EstimateTokens(len(ctx.Prompt)); est > max(budget, 0) {
			t.Fatalf("prompt of %d bytes (~%d tokens) exceeds budget %d", len(ctx.Prompt), est, budget)
		}
		if ctx.Used != EstimateTokens(len(ctx.Prompt)) {
			t.Fatalf("Used = %d, prompt estimate %d", ctx.Used, EstimateTokens(len(ctx.Prompt)))
		}
		if ctx.Included+ctx.Omitted != len(recs) || len(ctx.Trace) != len(recs) {
			t.Fatalf("included %d + omitted %d, trace %d, records %d", ctx.Included, ctx.Omitted, len(ctx.Trace), len(recs))
		}
		if len(ctx.Prompt) == 0 {
			if ctx.Included != 0 {
				t.Fatal("records included in an empty prompt")
			}
			return
		}
		var doc promptDoc
		if err := json.Unmarshal(ctx.Prompt, &doc); err != nil {
			t.Fatalf("prompt is not JSON: %v\n%s", err, ctx.Prompt)
		}
		if len(doc.Evidence) != ctx.Included || doc.Omitted != ctx.Omitted {
			t.Fatalf("prompt has %d records and omitted %d; context says %d and %d", len(doc.Evidence), doc.Omitted, ctx.Included, ctx.Omitted)
		}
		// Every id in the prompt is unique and names, through the trace,
		// the record ranked there.
		ranked := Rank(append([]Record(nil), recs...))
		byID := map[string]Record{}
		for i, te := range ctx.Trace {
			if _, dup := byID[te.ID]; dup {
				t.Fatalf("id %s appears twice in the trace", te.ID)
			}
			byID[te.ID] = ranked[i]
		}
		for _, item := range doc.Evidence {
			r, ok := byID[item["id"].(string)]
			if !ok {
				t.Fatalf("prompt item with unknown id %v", item["id"])
			}
			if item["kind"] != string(r.Kind) || item["trust"] != r.Trust.String() || item["via"] != string(r.Provenance) {
				t.Fatalf("prompt item %v does not match record %+v", item, r)
			}
			if r.HasLocation() && item["loc"] != r.Location() {
				t.Fatalf("prompt item location %v, record %s", item["loc"], r.Location())
			}
			if r.Metadata.Excerpt != "" && item["excerpt"] != shorten(r.Metadata.Excerpt, MaxExcerptRunes) {
				t.Fatalf("excerpt %q, want %q", item["excerpt"], r.Metadata.Excerpt)
			}
		}
	})
}

// With a budget that fits everything, nothing is omitted, and the prompt
// lists records in rank order.
func TestPackFitsAll(t *testing.T) {
	recs := []Record{goodRecord(), goodRecord()}
	recs[1].Provenance, recs[1].Trust, recs[1].Exact, recs[1].Provider = trust.Lexical, trust.Weak, false, "grep"
	recs[1].StartLine, recs[1].EndLine = 40, 40
	recs[1].Metadata.Excerpt = `say "hi"` + "\n\ttab"
	ctx := Pack(recs, 10000)
	if ctx.Omitted != 0 || ctx.Included != 2 {
		t.Fatalf("included %d, omitted %d", ctx.Included, ctx.Omitted)
	}
	var doc promptDoc
	if err := json.Unmarshal(ctx.Prompt, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Evidence[0]["trust"] != "exact" || doc.Evidence[1]["excerpt"] != recs[1].Metadata.Excerpt {
		t.Errorf("prompt = %s", ctx.Prompt)
	}
	if !ctx.Trace[0].Included || ctx.Trace[0].Rank != 1 || !strings.Contains(ctx.Trace[1].Reason(), "weak") {
		t.Errorf("trace = %+v", ctx.Trace)
	}
}

// A record too large for the budget is skipped whole, and a smaller weaker
// one after it still fits.
func TestPackSkipsWholeRecords(t *testing.T) {
	big := goodRecord()
	big.Metadata.Excerpt = strings.Repeat("x", 300)
	small := goodRecord()
	small.Provenance, small.Trust, small.Exact, small.Provider = trust.Lexical, trust.Weak, false, "grep"
	small.StartLine, small.EndLine = 9, 9
	ctx := Pack([]Record{small, big}, 90) // 270 bytes: the small one fits, the big one does not
	if ctx.Included != 1 || ctx.Omitted != 1 || ctx.Trace[0].Included || ctx.Trace[0].Omission != "budget" || !ctx.Trace[1].Included {
		t.Fatalf("included %d omitted %d trace %+v\n%s", ctx.Included, ctx.Omitted, ctx.Trace, ctx.Prompt)
	}
	if !strings.Contains(string(ctx.Prompt), `"omitted":1`) {
		t.Errorf("prompt does not say what was omitted: %s", ctx.Prompt)
	}
}

// Regression (found by rapid, testdata/rapid/TestPropPackBudget): two
// location-less records with one identity and different excerpts get
// distinct ids, so the reader can tell them apart.
func TestPackDistinctIDs(t *testing.T) {
	a := Record{Kind: Validation, Provider: "ci", Provenance: trust.ValidationRun, Trust: trust.Structural,
		Symbol: "local 1", Metadata: Metadata{Excerpt: "go test: ok"}}
	b := a
	b.Metadata.Excerpt = "go vet: 1 finding"
	b.Confidence = 0.5
	ctx := Pack([]Record{a, b}, 1000)
	var doc promptDoc
	if err := json.Unmarshal(ctx.Prompt, &doc); err != nil {
		t.Fatal(err)
	}
	if got := []any{doc.Evidence[0]["id"], doc.Evidence[1]["id"]}; got[0] != a.ID() || got[1] != a.ID()+"~2" {
		t.Errorf("ids %v, want %s and %s~2", got, a.ID(), a.ID())
	}
	if doc.Evidence[0]["excerpt"] != "go vet: 1 finding" || ctx.Trace[1].ID != a.ID()+"~2" {
		t.Errorf("prompt %s, trace %+v", ctx.Prompt, ctx.Trace)
	}
}

func TestPackHugeBudget(t *testing.T) {
	ctx := Pack([]Record{goodRecord()}, math.MaxInt)
	if ctx.Included != 1 || ctx.Omitted != 0 {
		t.Errorf("a huge budget included %d, omitted %d", ctx.Included, ctx.Omitted)
	}
}

func TestPackTinyBudget(t *testing.T) {
	for _, budget := range []int{-1, 0, 1, 5, 9} {
		ctx := Pack([]Record{goodRecord()}, budget)
		if EstimateTokens(len(ctx.Prompt)) > max(budget, 0) || ctx.Included != 0 || ctx.Omitted != 1 {
			t.Errorf("budget %d: prompt %q included %d", budget, ctx.Prompt, ctx.Included)
		}
	}
}

func TestShorten(t *testing.T) {
	long := strings.Repeat("日", MaxExcerptRunes+5)
	got := shorten(long, MaxExcerptRunes)
	if utf8.RuneCountInString(got) != MaxExcerptRunes || !strings.HasSuffix(got, "…") || !utf8.ValidString(got) {
		t.Errorf("shorten gave %d runes", utf8.RuneCountInString(got))
	}
	if shorten("short", 10) != "short" {
		t.Error("short text changed")
	}
}

// appendString must agree with encoding/json on every string.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "plain", `q"b\s`, "\x00\x1f\x7f", "\u2028\u2029", "日本😀", "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := appendString(nil, s)
		var back string
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%q encoded as invalid JSON %s: %v", s, got, err)
		}
		want, _ := json.Marshal(s)
		var wantBack string
		_ = json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Fatalf("%q round-trips as %q, encoding/json gives %q", s, back, wantBack)
		}
	})
}
