package gen

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/codecortex/codecortex/evidence"
)

// MaxSpan is the longest record, in lines, that counts as pointing at a
// site inside it: a record spanning a whole file names no place.
const MaxSpan = 100

// A Hit is a location an answer gave, in the order it gave them.
type Hit struct {
	Path               string
	StartLine, EndLine int
	Symbol             string
}

// HitsOf are the records an answer put in front of its reader: those
// packed into the context, in rank order.
func HitsOf(records []evidence.Record, trace []evidence.TraceEntry) []Hit {
	var out []Hit
	for _, t := range trace {
		if !t.Included || t.Rank < 1 || t.Rank > len(records) {
			continue
		}
		r := records[t.Rank-1]
		out = append(out, Hit{Path: r.Path, StartLine: r.StartLine, EndLine: r.EndLine, Symbol: r.Symbol})
	}
	return out
}

// covers reports whether h points at s.
func (h Hit) covers(s Site) bool {
	if h.Path != s.Path {
		return false
	}
	if s.Line == 0 {
		return true
	}
	return s.Line >= h.StartLine && s.Line <= h.EndLine && h.EndLine-h.StartLine <= MaxSpan
}

// An Outcome is one question's score in one mode.
type Outcome struct {
	Corpus, Language, Kind, Mode string
	Question                     string
	// Top1 is set when the first hit is at an expected site (for an absent
	// name: when no hit names it).
	Top1 bool
	// Expected sites, Found of them, Returned hits, Correct of them.
	Expected, Found, Returned, Correct int
	// Tokens is the packed context's estimate; Budget its budget; Document
	// the estimate of the whole answer as printed in JSON.
	Tokens, Budget, Document int
	Elapsed                  time.Duration
	// Hits are the first [Shown] hits, and Missed the first expected sites
	// no hit covers: what a reader of the results needs to see why an
	// answer fell short.
	Hits   []Hit  `json:",omitempty"`
	Missed []Site `json:",omitempty"`
}

// Shown bounds the hits and missed sites an Outcome keeps.
const Shown = 6

// Score scores hits against c.
func Score(c Case, hits []Hit) Outcome {
	o := Outcome{Kind: c.Kind, Question: c.Question, Expected: len(c.Sites), Returned: len(hits)}
	if c.Kind == KindAbsent {
		o.Top1 = true
		name := strings.ToLower(c.Name)
		o.Hits = hits[:min(len(hits), Shown)]
		for _, h := range hits {
			if strings.Contains(strings.ToLower(h.Symbol), name) {
				o.Top1 = false
			} else {
				o.Correct++
			}
		}
		return o
	}
	found := make([]bool, len(c.Sites))
	for i, h := range hits {
		ok := false
		for j, s := range c.Sites {
			if h.covers(s) {
				ok = true
				found[j] = true
			}
		}
		if ok {
			o.Correct++
			if i == 0 {
				o.Top1 = true
			}
		}
	}
	for j, f := range found {
		if f {
			o.Found++
		} else if len(o.Missed) < Shown {
			o.Missed = append(o.Missed, c.Sites[j])
		}
	}
	o.Hits = hits[:min(len(hits), Shown)]
	return o
}

// A Row sums outcomes.
type Row struct {
	N, Top1, Expected, Found, Returned, Correct int
	Tokens, Budget, Document, OverBudget        int
	Elapsed                                     time.Duration
}

func (r *Row) add(o Outcome) {
	r.N++
	if o.Top1 {
		r.Top1++
	}
	r.Expected += o.Expected
	r.Found += o.Found
	r.Returned += o.Returned
	r.Correct += o.Correct
	r.Tokens += o.Tokens
	r.Budget += o.Budget
	r.Document += o.Document
	if o.Budget > 0 && o.Document > o.Budget {
		r.OverBudget++
	}
	r.Elapsed += o.Elapsed
}

// Recall is the fraction of expected sites found; Precision the fraction
// of hits at an expected site.
func (r Row) Recall() float64    { return frac(r.Found, r.Expected) }
func (r Row) Precision() float64 { return frac(r.Correct, r.Returned) }

func frac(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// Summarize groups outcomes by key.
func Summarize(outs []Outcome, key func(Outcome) string) (map[string]*Row, []string) {
	m := map[string]*Row{}
	var keys []string
	for _, o := range outs {
		k := key(o)
		if m[k] == nil {
			m[k] = &Row{}
			keys = append(keys, k)
		}
		m[k].add(o)
	}
	sort.Strings(keys)
	return m, keys
}

// A Baseline is the outcome of `rg -w NAME` and reading every file it
// names, for one question.
type Baseline struct {
	Corpus, Language, Kind, Question string
	// Files is how many files rg named; Tokens their whole size's estimate.
	Files, Tokens int
	// Expected sites, Found in the files read.
	Expected, Found int
	// Right is set when the files hold every expected site (for an absent
	// name: when rg names no file).
	Right   bool
	Elapsed time.Duration
}

// ScoreBaseline scores the files rg named, with their sizes, against c.
func ScoreBaseline(c Case, files map[string]int) Baseline {
	b := Baseline{Kind: c.Kind, Question: c.Question, Files: len(files), Expected: len(c.Sites)}
	for _, size := range files {
		b.Tokens += evidence.EstimateTokens(size)
	}
	for _, s := range c.Sites {
		if _, ok := files[s.Path]; ok {
			b.Found++
		}
	}
	b.Right = b.Found == b.Expected
	if c.Kind == KindAbsent {
		b.Right = len(files) == 0
	}
	return b
}

// WriteTable writes the markdown table of outcomes by language and kind,
// one column group per mode, and the baseline's.
func WriteTable(w io.Writer, outs []Outcome, base []Baseline, modes []string, key func(lang, kind string) string) {
	type cell struct{ lang, kind string }
	rows := map[string]cell{}
	var order []string
	for _, o := range outs {
		k := key(o.Language, o.Kind)
		if _, ok := rows[k]; !ok {
			rows[k] = cell{o.Language, o.Kind}
			order = append(order, k)
		}
	}
	sort.Slice(order, func(i, j int) bool {
		a, b := rows[order[i]], rows[order[j]]
		if a.lang != b.lang {
			return a.lang < b.lang
		}
		return kindRank(a.kind) < kindRank(b.kind)
	})
	fmt.Fprintf(w, "| language | kind | n |")
	for _, m := range modes {
		fmt.Fprintf(w, " %s: top-1 | recall | precision | answer tokens (over budget) |", m)
	}
	fmt.Fprintf(w, " rg -w: every site in the files read | tokens read |\n|---|---|---|")
	for range modes {
		fmt.Fprintf(w, "---|---|---|---|")
	}
	fmt.Fprintf(w, "---|---|\n")
	for _, k := range order {
		c := rows[k]
		n := 0
		lang := c.lang
		if key("", c.kind) == k {
			lang = "all"
		}
		fmt.Fprintf(w, "| %s | %s |", lang, c.kind)
		var cells []string
		for _, m := range modes {
			var r Row
			for _, o := range outs {
				if o.Mode == m && key(o.Language, o.Kind) == k {
					r.add(o)
				}
			}
			if r.N > n {
				n = r.N
			}
			if r.N == 0 {
				cells = append(cells, " – | – | – | – |")
				continue
			}
			rec, prec := fmt.Sprintf("%.2f", r.Recall()), fmt.Sprintf("%.2f", r.Precision())
			if c.kind == KindAbsent {
				// Nothing to find; top-1 says whether nothing was claimed.
				rec, prec = "–", "–"
			}
			cells = append(cells, fmt.Sprintf(" %s | %s | %s | %d (%d) |", pct(r.Top1, r.N), rec, prec, r.Document/r.N, r.OverBudget))
		}
		fmt.Fprintf(w, " %d |%s", n, strings.Join(cells, ""))
		var right, tokens, nb int
		for _, b := range base {
			if key(b.Language, b.Kind) == k {
				nb++
				tokens += b.Tokens
				if b.Right {
					right++
				}
			}
		}
		if nb == 0 {
			fmt.Fprintf(w, " – | – |\n")
			continue
		}
		fmt.Fprintf(w, " %s | %d |\n", pct(right, nb), tokens/nb)
	}
}

func pct(a, b int) string {
	if b == 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f%%", 100*float64(a)/float64(b))
}

func kindRank(k string) int {
	for i, v := range Kinds {
		if v == k {
			return i
		}
	}
	return len(Kinds)
}
