package graph

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/trust"
	"pgregory.net/rapid"
)

// rankFixture is a module whose Store every file uses, a helper one file
// uses, and a test that uses the helper many times.
var rankFixture = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"store/store.go": `package store

type Store struct{ n int }

func (s *Store) Get() int { return s.n }

func helper() int { return 1 }
`,
	"a/a.go": "package a\n\nimport \"example.com/m/store\"\n\nfunc A(s *store.Store) int { return s.Get() }\n\nfunc B(s *store.Store) int { return s.Get() + A(s) }\n",
	"b/b.go": "package b\n\nimport \"example.com/m/store\"\n\nfunc Use(s *store.Store) int { return s.Get() }\n",
	"c/c.go": "package c\n\nimport \"example.com/m/store\"\n\nfunc Make() *store.Store { return &store.Store{} }\n",
	"store/store_test.go": `package store

import "testing"

func TestHelper(t *testing.T) { _ = helper() + helper() + helper() + helper() }
`,
}

func rankGraph(t *testing.T) *Graph {
	t.Helper()
	needSyntax(t)
	p := New(Options{Dir: testtool.WriteTree(t, rankFixture), IndexOptions: index.Options{Budget: -1}})
	t.Cleanup(func() { p.Close() })
	g, err := p.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestRank: what most of the project uses ranks first, with its uses
// counted by file and tier; tests are not ranked; a focus lifts its files.
func TestRank(t *testing.T) {
	g := rankGraph(t)
	ranked := g.Rank(RankOptions{})
	if len(ranked) == 0 {
		t.Fatal("nothing ranked")
	}
	top := g.Nodes[ranked[0].Node]
	if top.Qualified() != "Store.Get" && top.Qualified() != "Store" {
		t.Errorf("first %s, want Store or Store.Get", top.Key())
	}
	sum := 0.0
	for _, r := range ranked {
		n := g.Nodes[r.Node]
		if n.Test || n.Kind == NodeKindFile {
			t.Errorf("ranked %s", n.Key())
		}
		if n.Qualified() == "Store.Get" && (r.UsedBy != 3 || r.Files != 2 || r.Tier != trust.InferredHigh) {
			// s.Get() through a parameter declared *store.Store: a member
			// of that type.
			t.Errorf("Store.Get: %+v, want 3 uses from 2 files at inferred_high", r)
		}
		sum += r.Score
	}
	if sum <= 0 || sum > 1+1e-9 {
		t.Errorf("scores sum to %v", sum)
	}
	focused := g.Rank(RankOptions{Focus: []string{"c"}})
	if n := g.Nodes[focused[0].Node]; n.Path != "c/c.go" && n.Qualified() != "Store" {
		t.Errorf("focused on c: first %s, want c's Make or the Store it uses", n.Key())
	}
	if at(g, focused, "Make") >= at(g, ranked, "Make") {
		t.Errorf("focus on c does not lift Make: %d, unfocused %d", at(g, focused, "Make"), at(g, ranked, "Make"))
	}
}

func at(g *Graph, ranked []Ranked, name string) int {
	for i, r := range ranked {
		if g.Nodes[r.Node].Name == name {
			return i
		}
	}
	return -1
}

// TestPropRank: on any graph, the ranked definitions are each once, in
// order of score, every score positive and the whole 1 (no file or test
// holds any).
func TestPropRank(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 12).Draw(t, "nodes")
		g := &Graph{}
		for i := range n {
			g.Nodes = append(g.Nodes, Node{Path: "f" + string(rune('a'+i%3)) + ".go", Name: "n" + string(rune('a'+i)), Kind: "function"})
		}
		for range rapid.IntRange(0, 30).Draw(t, "edges") {
			from, to := rapid.IntRange(0, n-1).Draw(t, "from"), rapid.IntRange(0, n-1).Draw(t, "to")
			m := rapid.SampledFrom([]Method{ScopeResolved, UniqueName, AmbiguousName, Exact}).Draw(t, "method")
			g.Edges = append(g.Edges, Edge{From: from, To: to, Kind: Calls, Method: m, Path: g.Nodes[from].Path, Line: 1})
		}
		g.fileNode = map[string]int32{}
		g.index()
		ranked := g.Rank(RankOptions{})
		if len(ranked) != n {
			t.Fatalf("%d ranked of %d", len(ranked), n)
		}
		seen := map[int]bool{}
		sum := 0.0
		for i, r := range ranked {
			if seen[r.Node] || r.Score <= 0 || i > 0 && r.Score > ranked[i-1].Score {
				t.Fatalf("ranked %d: %+v after %+v", i, r, ranked[max(i-1, 0)])
			}
			seen[r.Node] = true
			sum += r.Score
		}
		if math.Abs(sum-1) > 1e-6 {
			t.Fatalf("scores sum to %v", sum)
		}
	})
}

// TestRankDoubtsForeignNames: a method found by its name alone from files
// that cannot see its package (mu.Lock() on a value another module's
// function returns, linked to the project's only Lock) passes on little
// rank, though its uses are still counted; what those files import and use
// ranks above it. The TypeScript files' m.Lock() names no Go method.
func TestRankDoubtsForeignNames(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.22\n",
		"locker/locker.go":    "package locker\n\ntype Locker struct{}\n\nfunc (l *Locker) Lock() error { return nil }\n",
		"store/store.go":      "package store\n\ntype Store struct{ n int }\n\nfunc New() *Store { return &Store{} }\n",
		"a/a.go":              "package a\n\nimport \"example.com/m/store\"\n\nfunc A() *store.Store { return store.New() }\n",
		"b/b.go":              "package b\n\nimport \"example.com/m/store\"\n\nfunc B() *store.Store { return store.New() }\n",
		"web/ui/lock.ts":      "export function take(m: any) { m.Lock(); }\n",
		"web/ui/lock2.ts":     "export function give(m: any) { m.Lock(); }\n",
		"web/ui/package.json": "{}\n",
	}
	for i := range 6 {
		files[fmt.Sprintf("p%d/p%d.go", i, i)] = fmt.Sprintf("package p%d\n\nimport \"example.org/ext\"\n\nvar mu = ext.Mutex()\n\n"+
			"func F%d() { mu.Lock() }\n", i, i)
	}
	p := New(Options{Dir: testtool.WriteTree(t, files), IndexOptions: index.Options{Budget: -1}})
	t.Cleanup(func() { p.Close() })
	g, err := p.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ranked := g.Rank(RankOptions{})
	lock, store := -1, -1
	for i, r := range ranked {
		switch g.Nodes[r.Node].Qualified() {
		case "Locker.Lock":
			lock = i
			if r.Files != 6 {
				t.Errorf("Locker.Lock: %+v, want its name's uses from every Go file counted", r)
			}
		case "New":
			store = i
		}
	}
	if lock < 0 || store < 0 || store > lock {
		t.Errorf("store.New at %d, Locker.Lock at %d: want the imported New first", store, lock)
	}
}

// TestRankSameFile: a type only its neighbour in the file uses takes a
// tenth of what that neighbour passes on, not all of it.
func TestRankSameFile(t *testing.T) {
	needSyntax(t)
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"x/x.go": "package x\n\ntype Inner int\n\ntype Outer struct{ i Inner }\n",
		"a/a.go": "package a\n\nimport \"example.com/m/x\"\n\nvar A x.Outer\n",
		"b/b.go": "package b\n\nimport \"example.com/m/x\"\n\nvar B x.Outer\n",
		"c/c.go": "package c\n\nimport \"example.com/m/x\"\n\nvar C x.Outer\n",
	}
	p := New(Options{Dir: testtool.WriteTree(t, files), IndexOptions: index.Options{Budget: -1}})
	t.Cleanup(func() { p.Close() })
	g, err := p.Graph(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	score := map[string]float64{}
	for _, r := range g.Rank(RankOptions{}) {
		score[g.Nodes[r.Node].Qualified()] = r.Score
	}
	if score["Outer"] == 0 || score["Inner"] >= score["Outer"]/2 {
		t.Errorf("Inner %v, Outer %v: want Inner well below", score["Inner"], score["Outer"])
	}
}
