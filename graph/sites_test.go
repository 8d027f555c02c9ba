package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
)

// TestCallerSites checks the provider's answer to "who calls X?": one
// record per call site, at the call's line, the calling definition as
// Symbol; a recursive call included; a method resolved by the receiver's
// type where the syntax shows it (inferred_high), and never to another
// type's method of that name.
func TestCallerSites(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod": "module m\n",
		"p/t.go": `package p

type T struct{}
type U struct{}

func (t *T) Run() {
	t.Run()
	t.helper()
	if true {
		t.helper()
	}
}

func (t *T) helper() {}
func (u *U) helper() {}
func (u *U) Run()    { u.helper() }
`,
		"a.py": `class A:
    def run(self):
        self.go()
        self.go()

    def go(self):
        pass


class B:
    def go(self):
        pass

    def run(self):
        def inner():
            self.go()
        inner()
`,
		"umd.js": `(function (root, factory) {
  root.lib = factory();
})(this, function () {
  function wrap(a) {
    return a;
  }
  exports.run = function () {
    wrap(1);
    wrap(2);
  };
});
`,
		"ws.js": `class Sender {
  close() {}
}
class WebSocket {
  close() {}
}
function stop(websocket, sender, other, socket, wsSender) {
  websocket.close();
  sender.close();
  other.close();
  socket.close();
  wsSender.close();
}
class ForkedTaskAPI {
  delay() {}
}
class ListenerEffectAPI {
  delay() {}
}
function effect(listenerApi, forkApi, api) {
  listenerApi.delay();
  forkApi.delay();
  api.delay();
}
`,
		"c.rb": `class C
  def call(env)
    route(env)
    check
  end

  def route(env)
    route(env.next) if env
  end

  def check
  end
end
`,
	})
	p := wholeIndexed(t, dir)
	defer p.Close()
	tests := []sitesOf{
		{"T.helper", []string{"p/t.go:8 p/t.go#T.Run inferred_high", "p/t.go:10 p/t.go#T.Run inferred_high"}},
		{"T.Run", []string{"p/t.go:7 p/t.go#T.Run inferred_high"}},
		{"U.helper", []string{"p/t.go:16 p/t.go#U.Run inferred_high"}},
		{"A.go", []string{"a.py:3 a.py#A.run inferred_high", "a.py:4 a.py#A.run inferred_high"}},
		{"B.go", []string{"a.py:16 a.py#B.run.inner inferred_high"}},
		{"wrap", []string{"umd.js:8 umd.js#run inferred_high", "umd.js:9 umd.js#run inferred_high"}},
		{"C.route", []string{"c.rb:8 c.rb#C.route inferred_high", "c.rb:3 c.rb#C.call inferred_high"}},
		{"C.check", []string{"c.rb:4 c.rb#C.call inferred_high"}},
		// A receiver named after its type (websocket, sender), or with
		// more words of one type's name than of the other's (socket,
		// wsSender, forkApi), calls that type's method; another (other,
		// api) may call either.
		{"Sender.close", []string{"ws.js:9 ws.js#stop inferred", "ws.js:10 ws.js#stop inferred", "ws.js:12 ws.js#stop inferred"}},
		{"WebSocket.close", []string{"ws.js:8 ws.js#stop inferred", "ws.js:10 ws.js#stop inferred", "ws.js:11 ws.js#stop inferred"}},
		{"ForkedTaskAPI.delay", []string{"ws.js:22 ws.js#effect inferred", "ws.js:23 ws.js#effect inferred"}},
		{"ListenerEffectAPI.delay", []string{"ws.js:21 ws.js#effect inferred", "ws.js:23 ws.js#effect inferred"}},
	}
	checkCallSites(t, p, tests)
}

// TestTestCallers checks that a caller in a test file or in a Rust test
// module is marked as a test, and another caller is not.
func TestTestCallers(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := testtool.WriteTree(t, map[string]string{
		"src/lib.rs": `pub fn fold(x: u32) -> u32 {
    x
}

pub fn user() -> u32 {
    fold(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folds() {
        assert_eq!(fold(2), 2);
    }
}
`,
		"tests/it.rs": `use lib::fold;

#[test]
fn folds_too() {
    fold(3);
}
`,
	})
	p := wholeIndexed(t, dir)
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "fold", Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range resp.Records {
		got[fmt.Sprintf("%s:%d", r.Path, r.StartLine)] = r.Metadata.Attributes["test"]
	}
	want := map[string]string{"src/lib.rs:6": "", "src/lib.rs:15": "true", "tests/it.rs:5": "true"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("callers of fold, test attribute by site (-want +got):\n%s", diff)
	}
}
