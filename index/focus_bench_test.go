package index

// Benchmarks of the first question on a new clone (see focus.go), on the
// same prometheus tree as bench_test.go:
//
//	go test ./index/ -run '^$' -bench 'Focus|FirstLookup|RipgrepList' -benchtime 10x

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// focusNames are names of prometheus v0.308.0, from one file to hundreds.
var focusNames = []string{"NewInstantQuery", "Appender", "newScrapePool", "QueueManager", "Labels"}

// BenchmarkFocusScan is the pre-filter alone: every file the walk lists
// read for a name, ignoring case, and ranked, with the memo emptied each
// time so that every file is read. Compare BenchmarkRipgrepList.
func BenchmarkFocusScan(b *testing.B) {
	dir := benchTree(b)
	ix, err := Open(Options{Dir: dir})
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	w, _ := ix.walker.walk(time.Time{})
	tm := timer{b: b}
	matched := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		ix.memo = focusMemo{}
		tm.begin()
		f := ix.focus(w.files, focusTerms([]string{focusNames[i%len(focusNames)]}), time.Now().Add(time.Minute))
		tm.end()
		if f.focus.Matched == 0 || f.focus.Unread != 0 {
			b.Fatalf("focus(%s): %+v", focusNames[i%len(focusNames)], f.focus)
		}
		matched += f.focus.Matched
	}
	tm.report()
	b.ReportMetric(float64(len(w.files)), "files")
	b.ReportMetric(float64(matched)/float64(b.N), "matched/op")
}

// BenchmarkRipgrepList runs `rg -l -i -F NAME` over the same tree for the
// same names: the text search the pre-filter stands beside.
func BenchmarkRipgrepList(b *testing.B) {
	rg := testtool.Require(b, "rg", "apt-get install ripgrep")
	dir := benchTree(b)
	var times []time.Duration
	for i := range b.N {
		start := time.Now()
		res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: rg,
			Args: []string{"-l", "-i", "-F", "--", focusNames[i%len(focusNames)], "."}, Dir: dir})
		times = append(times, time.Since(start))
		var ee *safeexec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.Code == 1) {
			b.Fatalf("rg: %v\n%s", err, res.Stderr)
		}
	}
	b.ReportMetric(medianMS(times), "p50-ms")
}

// BenchmarkFirstLookup is the first question on a new clone, in process:
// open an index of a fresh copy (no database yet) and look a name up
// within the default budget, with the syntax floor's symbols. The
// definition must be found.
func BenchmarkFirstLookup(b *testing.B) {
	tm := timer{b: b}
	indexed := 0
	for i := range b.N {
		b.StopTimer()
		dir := benchTree(b)
		b.StartTimer()
		name := focusNames[i%len(focusNames)]
		tm.begin()
		ix, err := Open(Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		res, err := ix.Lookup(context.Background(), name)
		tm.end()
		ix.Close()
		if err != nil || len(res.Definitions) == 0 {
			b.Fatalf("Lookup(%s) = %d definitions, %v; freshness %+v", name, len(res.Definitions), err, res.Freshness.Focus)
		}
		indexed += res.Freshness.Indexed
	}
	tm.report()
	b.ReportMetric(float64(indexed)/float64(b.N), "indexed/op")
}
