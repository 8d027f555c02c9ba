// Package eval runs frozen question fixtures against an engine and scores
// its answers: top-1 accuracy, top-3 recall, tier accuracy, tokens used
// against the budget, and each failure with what came first instead.
package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/route"
	"github.com/codecortex/codecortex/trust"
)

// A Fixture is a set of questions with the answers they must get.
type Fixture struct {
	// Name says what the fixture covers.
	Name string `json:"name"`
	// Budget is the token budget of every question; 0 means the engine's.
	Budget int `json:"budget,omitempty"`
	// Gate is the lowest score that passes.
	Gate Gate `json:"gate"`
	// Cases are the questions.
	Cases []Case `json:"cases"`
}

// A Gate is the fixture's pass mark, each a fraction in [0, 1].
type Gate struct {
	Top1 float64 `json:"top1"`
	Top3 float64 `json:"top3"`
	Tier float64 `json:"tier"`
}

// A Case is one question and what a right answer holds.
type Case struct {
	// Question is asked as a user would ask it.
	Question string `json:"question"`
	// Intent, when set, is passed with the question.
	Intent route.Intent `json:"intent,omitempty"`
	// Expect says which record is right.
	Expect Expect `json:"expect"`
	// Tier is the trust tier the right record must carry; empty means any.
	Tier string `json:"tier,omitempty"`
}

// Expect names the right record: its path (root-relative), a line its
// range must cover, a kind, and a text its symbol or excerpt must contain;
// each optional but for a path or a symbol. A question with many right
// answers ("who calls X?") names the symbol, and any record of the kind
// about it is right.
type Expect struct {
	Path   string        `json:"path"`
	Line   int           `json:"line,omitempty"`
	Kind   evidence.Kind `json:"kind,omitempty"`
	Symbol string        `json:"symbol,omitempty"`
}

// MaxFixtureSize bounds a fixture file.
const MaxFixtureSize = 4 << 20

// Parse reads a fixture and checks it: every case has a question and an
// expected path, tiers are known, and the gate's fractions lie in [0, 1].
func Parse(r io.Reader) (*Fixture, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFixtureSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFixtureSize {
		return nil, fmt.Errorf("eval: fixture larger than %d bytes", MaxFixtureSize)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f Fixture
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("eval: fixture: %w", err)
	}
	if dec.More() {
		return nil, errors.New("eval: fixture: data after the JSON object")
	}
	if len(f.Cases) == 0 {
		return nil, errors.New("eval: fixture has no cases")
	}
	for _, g := range []float64{f.Gate.Top1, f.Gate.Top3, f.Gate.Tier} {
		if !(g >= 0 && g <= 1) {
			return nil, fmt.Errorf("eval: gate %v is not a fraction in [0, 1]", g)
		}
	}
	if f.Budget < 0 {
		return nil, fmt.Errorf("eval: budget %d is negative", f.Budget)
	}
	for i, c := range f.Cases {
		switch {
		case strings.TrimSpace(c.Question) == "":
			return nil, fmt.Errorf("eval: case %d has no question", i+1)
		case c.Expect.Path == "" && c.Expect.Symbol == "":
			return nil, fmt.Errorf("eval: case %d (%q): expect names neither a path nor a symbol", i+1, c.Question)
		case c.Expect.Path != "" && evidence.CheckPath(c.Expect.Path) != nil:
			return nil, fmt.Errorf("eval: case %d (%q): expect.path %q is not a root-relative path", i+1, c.Question, c.Expect.Path)
		case c.Expect.Line < 0:
			return nil, fmt.Errorf("eval: case %d (%q): expect.line is negative", i+1, c.Question)
		case c.Expect.Kind != "" && !c.Expect.Kind.Valid():
			return nil, fmt.Errorf("eval: case %d (%q): unknown kind %q", i+1, c.Question, c.Expect.Kind)
		case c.Intent != "" && !c.Intent.Valid():
			return nil, fmt.Errorf("eval: case %d (%q): unknown intent %q", i+1, c.Question, c.Intent)
		}
		if c.Tier != "" {
			if _, err := trust.ParseTier(c.Tier); err != nil {
				return nil, fmt.Errorf("eval: case %d (%q): %w", i+1, c.Question, err)
			}
		}
	}
	return &f, nil
}

// A Result is a fixture's score.
type Result struct {
	Name  string `json:"name"`
	Cases int    `json:"cases"`
	// Top1 is the fraction of cases whose first record is right; Top3 the
	// fraction with a right record among the first three; Tier the
	// fraction whose first right record carries the expected tier.
	Top1 float64 `json:"top1"`
	Top3 float64 `json:"top3"`
	Tier float64 `json:"tier"`
	// TokensUsed and TokensBudget sum the packed contexts' estimates and
	// budgets over every case; TokensCited is what reading every file the
	// packed records cite, whole, would have cost (the same estimate of
	// bytes per token): the context's saving.
	TokensUsed   int `json:"tokens_used"`
	TokensBudget int `json:"tokens_budget"`
	TokensCited  int `json:"tokens_cited"`
	// Passed reports whether every fraction reached the gate.
	Passed   bool      `json:"passed"`
	Gate     Gate      `json:"gate"`
	Failures []Failure `json:"failures"`
}

// A Failure is a case that missed top-1 or its tier.
type Failure struct {
	Question string `json:"question"`
	Want     string `json:"want"`
	// Got is the first record, as location, kind, tier and provider.
	Got string `json:"got"`
	// Rank is where the right record came, 0 when it did not come at all.
	Rank int `json:"rank"`
	// Why says which check failed.
	Why string `json:"why"`
}

// Run brings the engine's indexes up to date, asks every case of f and
// scores the answers.
func Run(ctx context.Context, eng *codecortex.Engine, f *Fixture) (*Result, error) {
	if err := eng.Refresh(ctx); err != nil {
		return nil, fmt.Errorf("eval: %w", err)
	}
	res := &Result{Name: f.Name, Cases: len(f.Cases), Gate: f.Gate, Failures: []Failure{}}
	var top1, top3, tier int
	for _, c := range f.Cases {
		ans, err := eng.Ask(ctx, codecortex.Question{Text: c.Question, Intent: c.Intent, Budget: f.Budget})
		if err != nil {
			return nil, fmt.Errorf("eval: %q: %w", c.Question, err)
		}
		res.TokensUsed += ans.Context.Used
		res.TokensBudget += ans.Context.Budget
		res.TokensCited += citedTokens(eng.Project().Root, ans)
		rank := 0
		for i := range ans.Records {
			if c.Expect.matches(&ans.Records[i]) {
				rank = i + 1
				break
			}
		}
		got := "no records"
		if len(ans.Records) > 0 {
			r := ans.Records[0]
			got = fmt.Sprintf("%s %s %s from %s", r.Location(), r.Kind, r.Trust, r.Provider)
		}
		miss := Failure{Question: c.Question, Want: c.Expect.String(c.Tier), Got: got, Rank: rank}
		if rank == 1 {
			top1++
		} else {
			miss.Why = "the right record is not first"
		}
		if rank >= 1 && rank <= 3 {
			top3++
		}
		switch {
		case rank == 0:
			miss.Why = "no record is right"
		case c.Tier == "" || ans.Records[rank-1].Trust.String() == c.Tier:
			tier++
		default:
			miss.Why = strings.TrimPrefix(miss.Why+"; ", "; ") + "the right record is " + ans.Records[rank-1].Trust.String() + ", not " + c.Tier
		}
		if miss.Why != "" {
			res.Failures = append(res.Failures, miss)
		}
	}
	n := float64(len(f.Cases))
	res.Top1, res.Top3, res.Tier = float64(top1)/n, float64(top3)/n, float64(tier)/n
	res.Passed = res.Top1 >= f.Gate.Top1 && res.Top3 >= f.Gate.Top3 && res.Tier >= f.Gate.Tier
	return res, nil
}

// citedTokens estimates the tokens of the files the packed records cite,
// each file counted once.
func citedTokens(root string, ans *codecortex.Answer) int {
	seen := map[string]bool{}
	n := 0
	for _, t := range ans.Context.Trace {
		if !t.Included || t.Rank < 1 || t.Rank > len(ans.Records) {
			continue
		}
		p := ans.Records[t.Rank-1].Path
		if p == "" || seen[p] {
			continue
		}
		seen[p] = true
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			n += evidence.EstimateTokens(int(fi.Size()))
		}
	}
	return n
}

// matches reports whether r is the expected record.
func (e Expect) matches(r *evidence.Record) bool {
	if (e.Path != "" && r.Path != e.Path) || (e.Kind != "" && r.Kind != e.Kind) {
		return false
	}
	if e.Line > 0 && (e.Line < r.StartLine || e.Line > r.EndLine) {
		return false
	}
	if e.Symbol != "" && !strings.Contains(r.Symbol, e.Symbol) && !strings.Contains(r.Metadata.Excerpt, e.Symbol) {
		return false
	}
	return true
}

func (e Expect) String(tier string) string {
	s := e.Path
	if s == "" {
		s = "any location"
	}
	if e.Line > 0 {
		s += fmt.Sprintf(":%d", e.Line)
	}
	if e.Kind != "" {
		s += " " + string(e.Kind)
	}
	if e.Symbol != "" {
		s += " " + e.Symbol
	}
	if tier != "" {
		s += " (" + tier + ")"
	}
	return s
}
