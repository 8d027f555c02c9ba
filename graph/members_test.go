package graph

import (
	"context"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
)

// TestCallNamesNoField checks that in Java a call x.f() names a method,
// never a field: fields called f in other classes do not make the call
// too ambiguous to link (two methods and three fields share the name).
func TestCallNamesNoField(t *testing.T) {
	needSyntax(t)
	dir := testtool.WriteTree(t, map[string]string{
		"src/Dom.java": `package x;
public class Dom {
    private boolean aware = true;
    public boolean aware() {
        return aware;
    }
    public Dom aware(boolean on) {
        this.aware = on;
        return this;
    }
    static class Builder {
        private boolean aware;
    }
}
`,
		"src/Other.java": `package x;
class Other {
    boolean aware;
}
`,
		"src/DomTest.java": `package x;
public class DomTest {
    void disables() {
        Dom d = new Dom();
        check(d.aware());
        d.aware(false);
    }
}
`,
	})
	p := wholeIndexed(t, dir)
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "Dom.aware", Kinds: []evidence.Kind{evidence.Call}})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range resp.Records {
		got[fmt.Sprintf("%s:%d %s", r.Path, r.StartLine, r.Symbol)] = true
	}
	want := map[string]bool{"src/DomTest.java:5 src/DomTest.java#DomTest.disables": true, "src/DomTest.java:6 src/DomTest.java#DomTest.disables": true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("calls of Dom.aware (-want +got):\n%s", diff)
	}
}
