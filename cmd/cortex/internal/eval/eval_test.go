package eval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/internal/testtool"
)

func TestParse(t *testing.T) {
	ok := `{"name": "n", "gate": {"top1": 0.5, "top3": 1, "tier": 0}, "cases": [{"question": "q?", "expect": {"path": "a.go", "line": 3, "kind": "definition"}, "tier": "exact"}]}`
	if _, err := Parse(strings.NewReader(ok)); err != nil {
		t.Fatalf("a valid fixture: %v", err)
	}
	for _, bad := range []struct{ name, in, msg string }{
		{"not JSON", `{`, "fixture"},
		{"unknown field", `{"name": "n", "gates": {}, "cases": []}`, "unknown field"},
		{"no cases", `{"name": "n", "gate": {}, "cases": []}`, "no cases"},
		{"trailing data", ok + `{}`, "after the JSON object"},
		{"gate above one", strings.Replace(ok, `"top3": 1`, `"top3": 2`, 1), "fraction"},
		{"absolute path", strings.Replace(ok, `"a.go"`, `"/etc/passwd"`, 1), "root-relative"},
		{"neither path nor symbol", strings.Replace(ok, `"path": "a.go", `, ``, 1), "neither a path nor a symbol"},
		{"escaping path", strings.Replace(ok, `"a.go"`, `"../a.go"`, 1), "root-relative"},
		{"no question", strings.Replace(ok, `"q?"`, `" "`, 1), "no question"},
		{"bad tier", strings.Replace(ok, `"exact"`, `"certain"`, 1), "tier"},
		{"bad kind", strings.Replace(ok, `"definition"`, `"guess"`, 1), "kind"},
		{"negative line", strings.Replace(ok, `"line": 3`, `"line": -3`, 1), "negative"},
		{"too large", `{"name": "` + strings.Repeat("x", MaxFixtureSize) + `"}`, "larger"},
	} {
		if _, err := Parse(strings.NewReader(bad.in)); err == nil || !strings.Contains(err.Error(), bad.msg) {
			t.Errorf("%s: %v, want an error saying %q", bad.name, err, bad.msg)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"name": "n", "gate": {"top1": 0.5}, "cases": [{"question": "q?", "expect": {"path": "a.go"}}]}`))
	f.Add([]byte(`{"cases": [{"question": "q", "expect": {"path": "a/../b"}, "tier": "weak"}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := Parse(strings.NewReader(string(data)))
		if err != nil {
			return
		}
		if len(fx.Cases) == 0 || fx.Gate.Top1 < 0 || fx.Gate.Top1 > 1 {
			t.Fatalf("Parse accepted an invalid fixture: %+v", fx)
		}
		for _, c := range fx.Cases {
			if (c.Expect.Path == "" && c.Expect.Symbol == "") || strings.HasPrefix(c.Expect.Path, "/") || strings.TrimSpace(c.Question) == "" {
				t.Fatalf("Parse accepted an invalid case: %+v", c)
			}
		}
	})
}

// Run scores a fixture: the right first records count, a wrong one is a
// failure naming what came first, and the gate decides.
func TestRun(t *testing.T) {
	scipGo := testtool.Require(t, "scip-go", "bash .ci/install-precision.sh")
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod":  "module example.com/e\n\ngo 1.22\n",
		"e.go":    "package e\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n\nvar _ = Add(1, 2)\n",
		"go.work": "", // not a workspace: removed below
	})
	os.Remove(filepath.Join(dir, "go.work"))
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "e.go"), old, old)
	cmd := exec.Command(scipGo, "--output", "index.scip")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scip-go: %v\n%s", err, out)
	}
	acceptIndex(t, dir)
	eng, err := codecortex.Open(dir, codecortex.Options{Project: config.ProjectOptions{Trust: config.TrustNever}})
	if err != nil {
		t.Fatal(err)
	}
	defer eng.Close()
	fx := &Fixture{Name: "t", Gate: Gate{Top1: 0.5, Top3: 0.5, Tier: 0.5}, Cases: []Case{
		{Question: "where is Add defined?", Expect: Expect{Path: "e.go", Line: 4, Kind: "definition"}, Tier: "exact"},
		{Question: "who calls Add?", Expect: Expect{Path: "e.go", Line: 6}, Tier: "exact"},
		{Question: "where is Add defined?", Expect: Expect{Path: "e.go", Line: 4}, Tier: "weak"},
		{Question: "where is Add defined?", Expect: Expect{Path: "other.go"}},
	}}
	res, err := Run(context.Background(), eng, fx)
	if err != nil {
		t.Fatal(err)
	}
	if res.Top1 != 0.75 || res.Top3 != 0.75 || res.Tier != 0.5 || !res.Passed || len(res.Failures) != 2 {
		t.Errorf("result %+v", res)
	}
	if res.TokensUsed == 0 || res.TokensUsed > res.TokensBudget {
		t.Errorf("tokens %d of %d", res.TokensUsed, res.TokensBudget)
	}
	fx.Gate.Top1 = 0.8
	if res, _ := Run(context.Background(), eng, fx); res.Passed {
		t.Error("a result below the gate passed")
	}
}
