package mcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/scip-code/scip/bindings/go/scip"
	"google.golang.org/protobuf/proto"

	"github.com/codecortex/codecortex"
	"github.com/codecortex/codecortex/cmd/cortex/internal/cli"
	"github.com/codecortex/codecortex/cmd/cortex/internal/mcp"
	"github.com/codecortex/codecortex/config"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/precision"
)

// parityMain defines Greet on line 3 and calls it on line 5.
const parityMain = "package main\n\nfunc Greet() string { return \"hi\" }\n\nfunc main() { println(Greet()) }\n"

// TestCLIAndMCPAgree: the CLI's def, refs, impl, callers, search and
// symbols and the MCP server's cortex_navigate, cortex_search and
// cortex_symbols are two front ends of one engine method each, so they
// answer the same question with the same records, hits or definitions,
// whether a fresh precision index resolves it or the name written at a
// position is looked up in the local index or the project graph.
func TestCLIAndMCPAgree(t *testing.T) {
	for _, withIndex := range []bool{false, true} {
		name := "local index only"
		if withIndex {
			name = "accepted precision index"
		}
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, dir, "go.mod", "module example.com/p\n\ngo 1.22\n")
			writeFile(t, dir, "main.go", parityMain)
			if withIndex {
				writeParityIndex(t, dir)
			}
			project, err := config.OpenProject(dir, config.ProjectOptions{Trust: config.TrustNever})
			if err != nil {
				t.Fatal(err)
			}
			srv, err := mcp.New(mcp.Options{Project: project})
			if err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			if err := srv.WaitIndexed(ctx); err != nil {
				t.Fatal(err)
			}
			cs := connectTo(t, srv)
			for _, tc := range []struct {
				cmd, tool string
				cli       []string
				args      map[string]any
			}{
				{"def", "cortex_navigate", []string{"main.go:5:24"}, map[string]any{"relation": "definition", "path": "main.go", "line": 5, "column": 24}},
				{"def", "cortex_navigate", []string{"Greet"}, map[string]any{"relation": "definition", "symbol": "Greet"}},
				{"refs", "cortex_navigate", []string{"Greet"}, map[string]any{"relation": "references", "symbol": "Greet", "include_declaration": true}},
				{"refs", "cortex_navigate", []string{"main.go:3:6"}, map[string]any{"relation": "references", "path": "main.go", "line": 3, "column": 6, "include_declaration": true}},
				{"impl", "cortex_navigate", []string{"Greet"}, map[string]any{"relation": "implementations", "symbol": "Greet"}},
				{"callers", "cortex_navigate", []string{"Greet"}, map[string]any{"relation": "callers", "symbol": "Greet"}},
				{"callers", "cortex_navigate", []string{"main.go:5:24"}, map[string]any{"relation": "callers", "path": "main.go", "line": 5, "column": 24}},
				{"search", "cortex_search", []string{"greet"}, map[string]any{"query": "greet"}},
				{"symbols", "cortex_symbols", nil, map[string]any{}},
				{"symbols", "cortex_symbols", []string{"main.go"}, map[string]any{"path": "main.go"}},
			} {
				var out, errs bytes.Buffer
				code := cli.Run(ctx, append([]string{"-C", dir, tc.cmd, "--json"}, tc.cli...),
					&cli.Env{Stdout: &out, Stderr: &errs, Getenv: os.Getenv})
				res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tc.tool, Arguments: tc.args})
				if err != nil {
					t.Fatal(err)
				}
				fromMCP, _ := json.Marshal(res.StructuredContent)
				want, got, err := parityKeys(tc.cmd, out.Bytes(), fromMCP)
				if err != nil {
					t.Fatalf("cortex %s %v: exit %d: %v\n%s%s\n%s: %s", tc.cmd, tc.cli, code, err, out.String(), errs.String(), tc.tool, fromMCP)
				}
				if len(want) == 0 && tc.cmd != "impl" {
					t.Errorf("cortex %s %v answered nothing", tc.cmd, tc.cli)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("cortex %s %v and %s %v disagree (-cli +mcp):\n%s", tc.cmd, tc.cli, tc.tool, tc.args, diff)
				}
				if withIndex && (tc.cmd == "def" || tc.cmd == "refs" || tc.cmd == "callers") && !slices.ContainsFunc(want, func(k string) bool { return strings.HasSuffix(k, " exact") }) {
					t.Errorf("cortex %s %v: no exact record from the accepted index: %v", tc.cmd, tc.cli, want)
				}
			}
		})
	}
}

// parityKeys reads what the CLI printed with --json and what the MCP tool
// returned for the same question, and returns what identifies each answer
// in order: a record's id and tier, a hit's lines and match class, a
// definition's line, kind and name.
func parityKeys(cmd string, fromCLI, fromMCP []byte) (want, got []string, err error) {
	switch cmd {
	case "search":
		type hits struct {
			Hits []struct {
				Path      string `json:"path"`
				StartLine int    `json:"start_line"`
				EndLine   int    `json:"end_line"`
				Match     string `json:"match"`
			} `json:"hits"`
		}
		var c, m hits
		if err := errors.Join(json.Unmarshal(fromCLI, &c), json.Unmarshal(fromMCP, &m)); err != nil {
			return nil, nil, err
		}
		for _, h := range c.Hits {
			want = append(want, fmt.Sprintf("%s:%d-%d %s", h.Path, h.StartLine, h.EndLine, h.Match))
		}
		for _, h := range m.Hits {
			got = append(got, fmt.Sprintf("%s:%d-%d %s", h.Path, h.StartLine, h.EndLine, h.Match))
		}
	case "symbols":
		var c index.OutlineResult
		var m struct {
			Definitions []struct {
				Path string `json:"path"`
				Line int    `json:"line"`
				Kind string `json:"kind"`
				Name string `json:"name"`
			} `json:"definitions"`
		}
		if err := errors.Join(json.Unmarshal(fromCLI, &c), json.Unmarshal(fromMCP, &m)); err != nil {
			return nil, nil, err
		}
		for _, d := range c.Definitions {
			want = append(want, fmt.Sprintf("%s:%d %s %s", d.Path, d.NameRange.StartLine, d.Kind, d.Name))
		}
		for _, d := range m.Definitions {
			got = append(got, fmt.Sprintf("%s:%d %s %s", d.Path, d.Line, d.Kind, d.Name))
		}
	default:
		var c codecortex.Located
		var m struct {
			Records []struct {
				ID    string `json:"id"`
				Trust string `json:"trust"`
			} `json:"records"`
		}
		if err := errors.Join(json.Unmarshal(fromCLI, &c), json.Unmarshal(fromMCP, &m)); err != nil {
			return nil, nil, err
		}
		for _, r := range c.Records {
			want = append(want, r.ID()+" "+r.Trust.String())
		}
		for _, r := range m.Records {
			got = append(got, r.ID+" "+r.Trust)
		}
	}
	return want, got, nil
}

// writeParityIndex writes a SCIP index of parityMain and accepts it as
// its user would.
func writeParityIndex(t *testing.T, dir string) {
	t.Helper()
	sym := "scip-go gomod example.com/p v1.0.0 `example.com/p`/Greet()."
	ix := &scip.Index{
		Metadata: &scip.Metadata{ToolInfo: &scip.ToolInfo{Name: "scip-go", Version: "0.1.26"}},
		Documents: []*scip.Document{{RelativePath: "main.go", Occurrences: []*scip.Occurrence{
			{Range: []int32{2, 5, 10}, Symbol: sym, SymbolRoles: int32(scip.SymbolRole_Definition)},
			{Range: []int32{4, 22, 27}, Symbol: sym, SymbolRoles: int32(scip.SymbolRole_ReadAccess)},
		}}},
	}
	b, err := proto.Marshal(ix)
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	os.Chtimes(filepath.Join(dir, "main.go"), old, old)
	writeFile(t, dir, "index.scip", string(b))
	p := precision.New(precision.Options{Dir: dir, NoSnapshot: true})
	defer p.Close()
	if _, err := p.Accept(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func writeFile(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// connectTo connects a client to the read-only surface of srv.
func connectTo(t *testing.T, srv *mcp.Server) *sdk.ClientSession {
	t.Helper()
	s, err := srv.MCP(mcp.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	st, ct := sdk.NewInMemoryTransports()
	ss, err := s.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}
