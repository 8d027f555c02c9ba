package gen

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestScore(t *testing.T) {
	two := Case{Kind: KindCallers, Name: "F", Sites: []Site{{"a.go", 10}, {"b.go", 5}}}
	tests := []struct {
		name string
		c    Case
		hits []Hit
		want Outcome
	}{
		{"first hit right, second site missed", two,
			[]Hit{{Path: "a.go", StartLine: 8, EndLine: 12}, {Path: "c.go", StartLine: 1, EndLine: 1}},
			Outcome{Top1: true, Expected: 2, Found: 1, Returned: 2, Correct: 1}},
		{"both sites, the first hit wrong", two,
			[]Hit{{Path: "a.go", StartLine: 1, EndLine: 2}, {Path: "b.go", StartLine: 5, EndLine: 5}, {Path: "a.go", StartLine: 10, EndLine: 10}},
			Outcome{Expected: 2, Found: 2, Returned: 3, Correct: 2}},
		{"a record spanning more than MaxSpan lines points nowhere", two,
			[]Hit{{Path: "a.go", StartLine: 1, EndLine: 1 + MaxSpan + 1}},
			Outcome{Expected: 2, Returned: 1}},
		{"a whole-file site takes any record in the file",
			Case{Kind: KindTests, Name: "F", Sites: []Site{{Path: "a_test.go"}}},
			[]Hit{{Path: "a_test.go", StartLine: 1, EndLine: 400}},
			Outcome{Top1: true, Expected: 1, Found: 1, Returned: 1, Correct: 1}},
		{"no hit", two, nil, Outcome{Expected: 2}},
		{"an absent name answered with nothing is right",
			Case{Kind: KindAbsent, Name: "parseWidget"}, nil, Outcome{Top1: true}},
		{"an absent name answered with a record claiming it is wrong",
			Case{Kind: KindAbsent, Name: "parseWidget"},
			[]Hit{{Path: "a.go", Symbol: "pkg.ParseWidget"}, {Path: "b.go", Symbol: "parse"}},
			Outcome{Returned: 2, Correct: 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.c.Question = "q"
			tt.want.Kind, tt.want.Question = tt.c.Kind, "q"
			got := Score(tt.c, tt.hits)
			if len(got.Hits) != min(len(tt.hits), Shown) || len(got.Missed) != min(got.Expected-got.Found, Shown) {
				t.Errorf("kept %d hits and %d missed sites, want %d and %d", len(got.Hits), len(got.Missed), min(len(tt.hits), Shown), got.Expected-got.Found)
			}
			got.Hits, got.Missed = nil, nil
			if d := cmp.Diff(tt.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}

func TestScoreBaseline(t *testing.T) {
	c := Case{Kind: KindCallers, Name: "T.F", Sites: []Site{{"a.go", 1}, {"b.go", 2}}}
	c.Question = "q"
	got := ScoreBaseline(c, map[string]int{"a.go": 400, "b.go": 40, "c.go": 4000})
	want := Baseline{Kind: KindCallers, Question: "q", Files: 3, Tokens: 134 + 14 + 1334, Expected: 2, Found: 2, Right: true} // bytes/3, rounded up, as evidence.EstimateTokens
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if b := ScoreBaseline(Case{Kind: KindAbsent, Name: "x"}, map[string]int{"a.go": 4}); b.Right {
		t.Error("rg naming a file for an absent name counts as right")
	}
}

func TestRowFractions(t *testing.T) {
	var r Row
	r.add(Outcome{Top1: true, Expected: 4, Found: 3, Returned: 5, Correct: 2, Budget: 100, Document: 150})
	r.add(Outcome{Expected: 1, Found: 1, Returned: 5, Correct: 5, Budget: 100, Document: 50})
	if r.Recall() != 0.8 || r.Precision() != 0.7 || r.OverBudget != 1 || r.Top1 != 1 {
		t.Errorf("row %+v: recall %v precision %v", r, r.Recall(), r.Precision())
	}
}
