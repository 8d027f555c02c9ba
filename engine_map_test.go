package codecortex

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/mermaid"
	"github.com/codecortex/codecortex/internal/testtool"
)

// mapProject is a module of a dozen packages that all use one Store, and
// a few of them one another.
func mapProject(t *testing.T) string {
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"store/store.go": "package store\n\n// Store keeps values.\ntype Store struct{ n int }\n\n" +
			"// Get returns the value.\nfunc (s *Store) Get() int { return s.n }\n\nfunc New() *Store { return &Store{} }\n",
	}
	for i := range 12 {
		files[fmt.Sprintf("p%d/p%d.go", i, i)] = fmt.Sprintf("package p%d\n\nimport \"example.com/m/store\"\n\n"+
			"func Run%d() int { s := store.New(); return s.Get() }\n\nfunc helper%d() {}\n", i, i, i)
	}
	return testtool.WriteTree(t, files)
}

// TestMap: the map ranks what every package uses first, holds its budget
// in each form, and refuses a format it cannot print and a focus outside
// the project.
func TestMap(t *testing.T) {
	e := openEngine(t, mapProject(t), Options{})
	ctx := context.Background()
	m, err := e.Map(ctx, MapRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Files) == 0 || m.Files[0].Path != "store/store.go" {
		t.Fatalf("files %+v, want store/store.go first", m.Files)
	}
	var names []string
	for _, en := range m.Files[0].Entries {
		names = append(names, en.Name)
		if err := en.Record.Validate(); err != nil {
			t.Errorf("%s: invalid record: %v", en.Name, err)
		}
	}
	if !strings.Contains(strings.Join(names, ","), "New") || !m.Files[0].Entries[0].MostUsed && !m.Files[0].Entries[1].MostUsed {
		t.Errorf("store's entries %+v", m.Files[0].Entries)
	}
	for _, format := range []string{MapText, MapJSON, MapMermaid} {
		for _, budget := range []int{120, 300, 1000} {
			m, err := e.Map(ctx, MapRequest{Budget: budget, Format: format})
			if err != nil {
				t.Fatal(err)
			}
			out := m.Render()
			if n := evidence.EstimateTokens(len(out)); n > budget || n != m.Used {
				t.Errorf("%s at %d tokens: printed %d, says %d", format, budget, n, m.Used)
			}
			if format == MapJSON && json.Unmarshal(out, &struct{}{}) != nil {
				t.Errorf("json map does not parse: %s", out)
			}
			if c, err := mermaid.Parse(string(out)); format == MapMermaid && (err != nil || len(c.Nodes) != len(m.Files) || len(c.Edges) != len(m.Links)) {
				t.Errorf("mermaid map: %v: %s", err, out)
			}
			if budget == 1000 && format == MapText && len(m.Files) < 10 {
				t.Errorf("%s at %d tokens: %d files", format, budget, len(m.Files))
			}
		}
	}
	if _, err := e.Map(ctx, MapRequest{Format: MapJSON, Budget: 20}); !errors.Is(err, ErrMapBudget) {
		t.Errorf("20 tokens: %v, want ErrMapBudget", err)
	}
	if _, err := e.Map(ctx, MapRequest{Format: "svg"}); !errors.Is(err, ErrMapFormat) {
		t.Errorf("svg: %v, want ErrMapFormat", err)
	}
	if _, err := e.Map(ctx, MapRequest{Path: "../elsewhere"}); err == nil {
		t.Error("a focus outside the project was accepted")
	}
	focused, err := e.Map(ctx, MapRequest{Path: "p7", Budget: 200})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range focused.Files {
		found = found || f.Path == "p7/p7.go"
	}
	if !found {
		t.Errorf("focused on p7, files %+v", focused.Files)
	}
	empty, err := openEngine(t, t.TempDir(), Options{}).Map(ctx, MapRequest{})
	if err != nil || len(empty.Files) != 0 || empty.Ranked != 0 {
		t.Errorf("empty project: %+v, %v", empty, err)
	}
}

// TestMapBuildVariants: a Go type each of two files of a package defines,
// for its build constraints, is one entry of the map, with its signature.
func TestMapBuildVariants(t *testing.T) {
	files := map[string]string{
		"go.mod":           "module example.com/m\n\ngo 1.22\n",
		"box/box_a.go":     "//go:build a\n\npackage box\n\ntype Box struct{ n int }\n",
		"box/box_other.go": "//go:build !a\n\npackage box\n\ntype Box struct{ m int }\n",
	}
	for i := range 4 {
		files[fmt.Sprintf("p%d/p%d.go", i, i)] = fmt.Sprintf("package p%d\n\nimport \"example.com/m/box\"\n\nfunc Use%d(b box.Box) {}\n", i, i)
	}
	e := openEngine(t, testtool.WriteTree(t, files), Options{})
	m, err := e.Map(context.Background(), MapRequest{})
	if err != nil {
		t.Fatal(err)
	}
	boxes := 0
	for _, f := range m.Files {
		for _, en := range f.Entries {
			if en.Name == "Box" {
				boxes++
				if !strings.HasPrefix(en.Signature, "type Box struct") || en.Record.Metadata.Excerpt != en.Signature {
					t.Errorf("Box: signature %q, excerpt %q", en.Signature, en.Record.Metadata.Excerpt)
				}
			}
		}
	}
	if boxes != 1 {
		t.Errorf("Box in the map %d times, want once:\n%s", boxes, m.Render())
	}
}

// FuzzMapMermaid: whatever its files and definitions are called, the
// mermaid map is one node per file and one edge per link.
func FuzzMapMermaid(f *testing.F) {
	f.Add("a/b.go", "Store", "c.go")
	f.Add(`x"]; evil["y`, "T\n  end", "a|b<br/>")
	f.Fuzz(func(t *testing.T, p1, name, p2 string) {
		if p1 == p2 {
			return
		}
		m := &RepoMap{Format: MapMermaid, Files: []MapFile{
			{Path: p1, Entries: []MapEntry{{Name: name, Files: 2}}},
			{Path: p2, Entries: []MapEntry{{Name: name + "2"}}},
		}, Links: []MapLink{{From: p1, To: p2, Uses: 3}}}
		c, err := mermaid.Parse(string(m.Render()))
		if err != nil {
			t.Fatalf("%v\n%s", err, m.Render())
		}
		if len(c.Nodes) != 2 || len(c.Edges) != 1 || c.Edges[0].Label != "3" {
			t.Fatalf("%+v\n%s", c, m.Render())
		}
	})
}
