package mcp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/codecortex/codecortex/evidence"
)

// everyCall is one call of every tool, read-only ones first, with
// arguments that succeed on the fixture.
var everyCall = []struct {
	name string
	args map[string]any
}{
	{"cortex_ask", map[string]any{"question": "who calls Cart.Total?"}},
	{"cortex_navigate", map[string]any{"relation": "definition", "symbol": "Cart.Add"}},
	{"cortex_navigate", map[string]any{"relation": "references", "symbol": "Total"}},
	{"cortex_search", map[string]any{"query": "cart items"}},
	{"cortex_symbols", map[string]any{}},
	{"cortex_structural_search", map[string]any{"pattern": "$S.Add($X)", "language": "go"}},
	{"cortex_deps", map[string]any{}},
	{"cortex_docs", map[string]any{"library": "left-pad"}},
	{"cortex_doctor", map[string]any{}},
	{"cortex_history", map[string]any{"path": "cart/cart.go"}},
	{"cortex_recall", map[string]any{"query": "cart"}},
}

// TestCanaryNeverLeaves sets a canary documentation key in the
// environment, points the documentation provider at a server that echoes
// the key back in its documentation, and calls every tool, successes and
// failures, with the canary in the arguments too: no result, text or
// error carries it.
func TestCanaryNeverLeaves(t *testing.T) {
	var b [12]byte
	rand.Read(b[:])
	canary := "ctx7sk-" + hex.EncodeToString(b[:])
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		heard := r.Header.Get("Authorization") + " " + r.URL.RawQuery
		w.Header().Set("Content-Type", "application/json")
		if strings.HasSuffix(r.URL.Path, "/search") {
			fmt.Fprintf(w, `{"results":[{"id":"/left/pad","title":"left-pad %s","state":"finalized","versions":["v1.3.0"]}]}`, jsonEscape(heard))
			return
		}
		fmt.Fprintf(w, `{"infoSnippets":[{"breadcrumb":"echo","content":%q}]}`, "you sent "+heard)
	}))
	defer echo.Close()
	dir := fixture(t)
	cfg := `{"dependency_docs":{"enabled":true,"base_url":"` + echo.URL + `","api_key_env":"CANARY_DOCS_KEY"}}`
	if err := os.MkdirAll(filepath.Join(dir, ".codecortex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".codecortex", "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "CANARY_DOCS_KEY" {
			return canary
		}
		return os.Getenv(k)
	}
	s := newServer(t, dir, Options{Project: openProject(t, dir, true, getenv), Getenv: getenv, Principal: "ada"})
	cs := connect(t, s, Mutating)

	var seen strings.Builder
	record := func(res *sdk.CallToolResult) {
		seen.WriteString(text(res))
		sc, _ := json.Marshal(res.StructuredContent)
		seen.Write(sc)
	}
	docs := call(t, cs, "cortex_docs", map[string]any{"library": "left-pad", "question": "why does " + canary + " fail?"})
	d := decode[docsResult](t, "cortex_docs", docs)
	if !d.Exact && d.State != "fallback" || !strings.Contains(d.Content, "you sent") {
		t.Fatalf("the echo server was not asked: %+v", d)
	}
	record(docs)
	for _, c := range everyCall {
		record(call(t, cs, c.name, c.args))
	}
	for _, c := range []struct {
		name string
		args map[string]any
	}{
		{"cortex_search", map[string]any{"query": canary}},
		{"cortex_ask", map[string]any{"question": "where is " + canary + " defined?"}},
		{"cortex_navigate", map[string]any{"relation": "definition", "symbol": canary}},
		{"cortex_history", map[string]any{"since": canary}},
		{"cortex_symbols", map[string]any{"path": canary}},
		{"cortex_search", map[string]any{"query": "x", canary: 1}},
		{"cortex_remember", map[string]any{"type": "gotcha", "text": "the key is " + canary}},
		{"cortex_recall", map[string]any{"query": canary}},
		{"cortex_deps", map[string]any{"name": canary}},
	} {
		record(call(t, cs, c.name, c.args))
	}
	if all := seen.String(); strings.Contains(all, canary[7:]) {
		i := strings.Index(all, canary[7:])
		t.Errorf("the canary key reached a tool's output: …%s…", strings.ReplaceAll(all[max(i-300, 0):min(i+100, len(all))], canary[7:], "<CANARY>"))
	}
	if !strings.Contains(seen.String(), "[REDACTED]") {
		t.Errorf("nothing was redacted: the test did not put the canary where a result would show it")
	}
}

func jsonEscape(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}

// TestConcurrentCalls makes 20 tool calls at once on one session: every
// one answers.
func TestConcurrentCalls(t *testing.T) {
	s := newServer(t, fixture(t), Options{})
	cs := connect(t, s, ReadOnly)
	var wg sync.WaitGroup
	errs := make([]string, 20)
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := everyCall[i%len(everyCall)]
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: c.name, Arguments: c.args})
			switch {
			case err != nil:
				errs[i] = c.name + ": " + err.Error()
			case res.IsError:
				errs[i] = c.name + ": " + text(res)
			case res.StructuredContent == nil:
				errs[i] = c.name + ": no structured content"
			}
		}()
	}
	wg.Wait()
	for _, e := range errs {
		if e != "" {
			t.Error(e)
		}
	}
}

// TestMemoryBounded makes 1,000 calls on one server and measures the live
// heap after a warm-up and after the calls: it stays bounded. It logs the
// figures: the first call, the warm calls' median, and the heap.
func TestMemoryBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 calls")
	}
	dir := fixture(t)
	start := time.Now()
	s := newServer(t, dir, Options{})
	opened := time.Since(start)
	cs := connect(t, s, ReadOnly)
	first := time.Now()
	decode[askResult](t, "cortex_ask", call(t, cs, "cortex_ask", map[string]any{"question": "where is Cart.Add defined?"}))
	firstCall := time.Since(first)
	for i := range 50 {
		c := everyCall[i%len(everyCall)]
		call(t, cs, c.name, c.args)
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before := heap()
	durations := map[string][]time.Duration{}
	var all []time.Duration
	for i := range 1000 {
		c := everyCall[i%len(everyCall)]
		t0 := time.Now()
		res := call(t, cs, c.name, c.args)
		d := time.Since(t0)
		if res.IsError {
			t.Fatalf("call %d, %s: %s", i, c.name, text(res))
		}
		durations[c.name] = append(durations[c.name], d)
		all = append(all, d)
	}
	after := heap()
	growth := int64(after) - int64(before)
	t.Logf("open %s (index built), first call %s, warm p50 %s over 1,000 calls; heap %.1f MB after warm-up, %.1f MB after 1,000 calls (growth %+.1f MB)",
		opened.Round(time.Millisecond), firstCall.Round(time.Microsecond), median(all).Round(time.Microsecond),
		float64(before)/(1<<20), float64(after)/(1<<20), float64(growth)/(1<<20))
	for _, c := range everyCall {
		t.Logf("  %-26s warm p50 %s", c.name, median(durations[c.name]).Round(time.Microsecond))
	}
	// Bounded: the calls' garbage is collected, so the live heap after a
	// thousand calls is the warm heap plus caches, not a thousand answers.
	if growth > 16<<20 {
		t.Errorf("the live heap grew by %.1f MB over 1,000 calls", float64(growth)/(1<<20))
	}
}

func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// TestResultsWithinBudget calls the tools on a project with many
// definitions and a long document with the smallest and the largest
// budget: every result's JSON fits its budget, and what was left out is
// counted.
func TestResultsWithinBudget(t *testing.T) {
	dir := fixture(t)
	var big strings.Builder
	big.WriteString("package cart\n\n")
	for i := range 3000 {
		fmt.Fprintf(&big, "// Item%d is item number %d of the catalogue of items.\nfunc Item%d() int { return %d }\n\n", i, i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "cart", "items.go"), []byte(big.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, dir, Options{})
	cs := connect(t, s, ReadOnly)
	for _, budget := range []int{MinBudget, MaxBudget} {
		for _, c := range []struct {
			name string
			args map[string]any
		}{
			{"cortex_symbols", map[string]any{"limit": 5000}},
			{"cortex_search", map[string]any{"query": "item catalogue", "limit": 200}},
			{"cortex_structural_search", map[string]any{"pattern": "func $F() int { return $N }", "language": "go", "max_matches": 10000}},
			{"cortex_ask", map[string]any{"question": "catalogue items"}},
			{"cortex_map", map[string]any{}},
			{"cortex_deps", map[string]any{}},
			{"cortex_history", map[string]any{"path": "cart"}},
		} {
			t.Run(fmt.Sprintf("%s/%d", c.name, budget), func(t *testing.T) {
				args := map[string]any{"budget": budget}
				for k, v := range c.args {
					args[k] = v
				}
				res := call(t, cs, c.name, args)
				if res.IsError {
					t.Fatal(text(res))
				}
				var out struct{ Omitted omission }
				if err := json.Unmarshal([]byte(text(res)), &out); err != nil {
					t.Fatal(err)
				}
				used := evidence.EstimateTokens(len(text(res)))
				if used > budget {
					t.Errorf("the result is %d tokens, over its budget of %d", used, budget)
				}
				if budget == MinBudget && out.Omitted.Omitted == 0 && (c.name != "cortex_deps" && c.name != "cortex_history") {
					t.Errorf("nothing omitted at the smallest budget: %+v", out.Omitted)
				}
				if out.Omitted.Omitted > 0 && out.Omitted.Note == "" {
					t.Errorf("omitted without a note: %+v", out.Omitted)
				}
				if out.Omitted.BudgetTokens != budget || out.Omitted.UsedTokens != used {
					t.Errorf("omission %+v, result %d tokens", out.Omitted, used)
				}
			})
		}
	}
}
