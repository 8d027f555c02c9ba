package graph

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/trust"
)

// calleeFiles are small files of three languages whose functions call
// functions of the project, of the standard library, of themselves and
// of functions nested in them.
var calleeFiles = map[string]string{
	"go.mod": "module example.com/c\n\ngo 1.22\n",
	"srv/srv.go": `package srv

import "fmt"

type Server struct{ name string }

func (s *Server) Start() error {
	s.init()
	if err := helper(s.name); err != nil {
		return fmt.Errorf("start: %w", err)
	}
	go func() {
		s.loop()
	}()
	_ = len(s.name)
	_ = Name(s.name)
	return nil
}

type Name string

func (s *Server) init() {}
func (s *Server) loop() { s.loop() }
func helper(n string) error { return nil }
`,
	"app.py": `import os


class Job:
    def run(self):
        self.prepare()
        path = os.path.join("a", "b")

        def inner():
            cleanup()

        inner()
        return path

    def prepare(self):
        pass


def cleanup():
    pass
`,
	"lib.js": `function outer() {
  step();
  function nested() {
    finish();
  }
  console.log("x");
}

function step() {}
function finish() {}
`,
}

// callees asks p what sym calls and returns each record as
// "path:line → target", with "?" after a target not resolved.
func callees(t *testing.T, p *Provider, sym string) ([]string, evidence.Response) {
	t.Helper()
	resp := gathered(t, p, evidence.Query{Symbol: sym, Kinds: []evidence.Kind{evidence.Call}, Outgoing: true})
	var out []string
	for _, r := range resp.Records {
		s := fmt.Sprintf("%s:%d → %s", r.Path, r.StartLine, r.TargetSymbol)
		if r.Metadata.Attributes["resolved"] != "true" {
			s += " ?"
			if r.Trust != trust.Structural {
				t.Errorf("%s: an unresolved call at %s, not structural", s, r.Trust)
			}
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return out, resp
}

// TestCallees checks what a function calls, in Go, Python and
// JavaScript: each call written in its body, in a closure too, resolved
// where the graph resolves it and as written where not (the standard
// library); not the calls of a function nested in it, not Go's builtins
// or conversions; a recursive call is the function's own. Read from a
// whole graph and from the snapshot's part, the answers are the same.
func TestCallees(t *testing.T) {
	needSyntax(t)
	cases := []struct {
		sym  string
		want []string
	}{
		{"Server.Start", []string{
			"srv/srv.go:10 → fmt.Errorf ?",
			"srv/srv.go:13 → srv/srv.go#Server.loop",
			"srv/srv.go:8 → srv/srv.go#Server.init",
			"srv/srv.go:9 → srv/srv.go#helper",
		}},
		{"Server.loop", []string{"srv/srv.go:23 → srv/srv.go#Server.loop"}},
		{"Job.run", []string{
			"app.py:12 → app.py#Job.run.inner",
			"app.py:6 → app.py#Job.prepare",
			"app.py:7 → os.….join ?",
		}},
		{"inner", []string{"app.py:10 → app.py#cleanup"}},
		{"outer", []string{
			"lib.js:2 → lib.js#step",
			"lib.js:6 → console.log ?",
		}},
	}
	ix := snapshotted(t, calleeFiles) // files dated back: the snapshot stays current
	whole := New(Options{Index: ix})
	if _, err := whole.Graph(context.Background()); err != nil {
		t.Fatal(err)
	}
	part := New(Options{Index: ix}) // holds no graph: reads the snapshot's part
	for _, c := range cases {
		for name, p := range map[string]*Provider{"whole": whole, "part": part} {
			got, _ := callees(t, p, c.sym)
			if !slices.Equal(got, c.want) {
				t.Errorf("%s, what does %s call?\n got %q\nwant %q", name, c.sym, got, c.want)
			}
			if name == "part" && p.snapshot != "read in part" {
				t.Errorf("what does %s call? read the snapshot %q, not in part", c.sym, p.snapshot)
			}
		}
	}
	for _, sym := range []string{"Server", "Nope"} {
		got, resp := callees(t, whole, sym)
		if len(got) != 0 || resp.Report.Reason == "" {
			t.Errorf("what does %s call? %v, %q: want nothing, and why", sym, got, resp.Report.Reason)
		}
	}
}
