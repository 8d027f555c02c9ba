package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestBuiltinMethodNames checks that a call of a name the language's
// built-in types define (dict.update, Map.has), on a receiver whose type
// the syntax does not show, is not linked to the project's only method of
// that name, while one through self, this or a receiver named after the
// type still is.
func TestBuiltinMethodNames(t *testing.T) {
	needSyntax(t)
	dir := testtool.WriteTree(t, map[string]string{
		"bar.py": `class ProgressBar:
    def update(self, n):
        pass

    def step(self):
        self.update(1)


def run(progress_bar, env, ctx):
    progress_bar.update(2)
    env.update({})
    ctx.params.update({})
`,
		"map.js": `class ObservableMap {
  has(k) {
    return this.data_.has(k);
  }
  check(k) {
    return this.has(k);
  }
}
function use(observableMap, seen) {
  observableMap.has(1);
  seen.has(2);
}
`,
	})
	p := wholeIndexed(t, dir)
	defer p.Close()
	tests := []struct {
		symbol string
		want   []string
	}{
		{"ProgressBar.update", []string{"bar.py:10 bar.py#run", "bar.py:6 bar.py#ProgressBar.step"}},
		{"ObservableMap.has", []string{"map.js:10 map.js#use", "map.js:6 map.js#ObservableMap.check"}},
	}
	for _, tt := range tests {
		resp, err := p.Gather(context.Background(), evidence.Query{Symbol: tt.symbol, Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range resp.Records {
			got = append(got, fmt.Sprintf("%s:%d %s", r.Path, r.StartLine, r.Symbol))
		}
		if diff := cmp.Diff(tt.want, got, cmpopts.SortSlices(func(a, b string) bool { return a < b })); diff != "" {
			t.Errorf("callers of %s (-want +got):\n%s", tt.symbol, diff)
		}
	}
}
