package gen

import (
	"fmt"
	"io"
	"sort"
	"time"
)

// Report is everything one run measured.
type Report struct {
	Outcomes  []Outcome
	Baselines []Baseline
	Timings   []Timing
}

// WriteMarkdown writes the summary table (all languages, by kind), the
// full breakdown by language and kind, the whole-process times and the
// token ratio against grep-and-read.
func (rep *Report) WriteMarkdown(w io.Writer, full bool) {
	fmt.Fprintf(w, "%d questions over %d corpora.\n\n", countQuestions(rep.Baselines), countCorpora(rep.Baselines))
	fmt.Fprintf(w, "#### By kind, every language\n\n")
	WriteTable(w, rep.Outcomes, rep.Baselines, Modes, func(_, kind string) string { return "all\x00" + kind })
	if full {
		fmt.Fprintf(w, "\n#### By language and kind\n\n")
		WriteTable(w, rep.Outcomes, rep.Baselines, Modes, func(lang, kind string) string { return lang + "\x00" + kind })
	}
	fmt.Fprintf(w, "\n#### Tokens against grep-and-read, on questions answered right (top-1 for definitions, every site found otherwise)\n\n")
	fmt.Fprintf(w, "| mode | questions | cortex tokens (whole JSON answer) | rg -w + reading the files | ratio |\n|---|---|---|---|---|\n")
	base := map[string]Baseline{}
	for _, b := range rep.Baselines {
		base[b.Corpus+"\x00"+b.Question] = b
	}
	for _, m := range Modes {
		var n, ct, bt int
		for _, o := range rep.Outcomes {
			if o.Mode != m || o.Kind == KindAbsent {
				continue
			}
			right := o.Top1
			if o.Kind != KindDefinition {
				right = o.Found == o.Expected
			}
			b, ok := base[o.Corpus+"\x00"+o.Question]
			if !right || !ok {
				continue
			}
			n++
			ct += o.Document
			bt += b.Tokens
		}
		ratio := "–"
		if ct > 0 {
			ratio = fmt.Sprintf("%.1fx", float64(bt)/float64(ct))
		}
		fmt.Fprintf(w, "| %s | %d | %d | %d | %s |\n", m, n, ct, bt, ratio)
	}
	fmt.Fprintf(w, "\n#### Whole-process time of one question (the cortex binary; rg -w -l)\n\n")
	fmt.Fprintf(w, "| mode | questions | median | p90 | max |\n|---|---|---|---|---|\n")
	for _, m := range Modes {
		var d []time.Duration
		for _, t := range rep.Timings {
			if t.Mode == m {
				d = append(d, t.Elapsed)
			}
		}
		writeTimes(w, "cortex, "+m, d)
	}
	var d []time.Duration
	for _, b := range rep.Baselines {
		d = append(d, b.Elapsed)
	}
	writeTimes(w, "rg -w -l", d)
	fmt.Fprintf(w, "\nIn-process time per question (engine.Ask, warm engine):\n\n| mode | questions | median | p90 |\n|---|---|---|---|\n")
	for _, m := range Modes {
		var d []time.Duration
		for _, o := range rep.Outcomes {
			if o.Mode == m {
				d = append(d, o.Elapsed)
			}
		}
		if len(d) == 0 {
			continue
		}
		sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
		fmt.Fprintf(w, "| %s | %d | %s | %s |\n", m, len(d), ms(d[len(d)/2]), ms(d[len(d)*9/10]))
	}
}

func writeTimes(w io.Writer, label string, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	fmt.Fprintf(w, "| %s | %d | %s | %s | %s |\n", label, len(d), ms(d[len(d)/2]), ms(d[len(d)*9/10]), ms(d[len(d)-1]))
}

func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }

func countQuestions(b []Baseline) int { return len(b) }

func countCorpora(b []Baseline) int {
	m := map[string]bool{}
	for _, x := range b {
		m[x.Corpus] = true
	}
	return len(m)
}
