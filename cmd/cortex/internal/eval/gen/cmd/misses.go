package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/codecortex/codecortex/cmd/cortex/internal/eval/gen"
)

// A selection narrows a run, or the misses shown, to some kinds and modes.
type selection struct {
	kinds, modes map[string]bool
}

func set(list string) map[string]bool {
	m := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			m[s] = true
		}
	}
	return m
}

func (s selection) kind(k string) bool { return len(s.kinds) == 0 || s.kinds[k] }

// mode matches a mode by the first word of its name: first, indexed, scip.
func (s selection) mode(m string) bool {
	if len(s.modes) == 0 {
		return true
	}
	w, _, _ := strings.Cut(strings.ToLower(m), " ")
	return s.modes[strings.TrimSuffix(w, ",")]
}

func (s selection) cases(cs []gen.Case) []gen.Case {
	var out []gen.Case
	for _, c := range cs {
		if s.kind(c.Kind) {
			out = append(out, c)
		}
	}
	return out
}

// misses prints every selected outcome that fell short (top-1 wrong, a
// site missed, or a hit that covers none), with its first hits and the
// sites it missed.
func misses(results string, sel selection, w io.Writer) error {
	b, err := os.ReadFile(results)
	if err != nil {
		return err
	}
	var rep gen.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		return fmt.Errorf("%s: %w", results, err)
	}
	n := 0
	for _, o := range rep.Outcomes {
		if !sel.kind(o.Kind) || !sel.mode(o.Mode) {
			continue
		}
		if o.Top1 && o.Found == o.Expected && o.Correct == o.Returned {
			continue
		}
		n++
		fmt.Fprintf(w, "%s · %s · %s · %q: top-1 %v, found %d/%d, correct %d/%d hits, %d tokens\n",
			o.Corpus, o.Mode, o.Kind, o.Question, o.Top1, o.Found, o.Expected, o.Correct, o.Returned, o.Document)
		for _, h := range o.Hits {
			fmt.Fprintf(w, "    hit   %s:%d-%d %s\n", h.Path, h.StartLine, h.EndLine, h.Symbol)
		}
		for _, s := range o.Missed {
			fmt.Fprintf(w, "    miss  %s:%d\n", s.Path, s.Line)
		}
	}
	fmt.Fprintf(w, "%d answers fell short\n", n)
	return nil
}
