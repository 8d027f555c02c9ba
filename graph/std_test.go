package graph

import (
	"context"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/testtool"
	"github.com/codecortex/codecortex/syntax"
)

// TestStandardLibraryModule: in the Go source tree (go.mod says "module
// std") packages import each other by their directory alone, and a call
// through such an import is a caller.
func TestStandardLibraryModule(t *testing.T) {
	if !syntax.Available {
		t.Skip("no tree-sitter in this build (cgo disabled)")
	}
	dir := testtool.WriteTree(t, map[string]string{
		"go.mod": "module std\n\ngo 1.26\n",
		"io/io.go": `package io

func ReadFull(b []byte) int { return len(b) }
`,
		"bufio/bufio.go": `package bufio

import "io"

func Fill(b []byte) int { return io.ReadFull(b) }
`,
	})
	p := wholeIndexed(t, dir)
	defer p.Close()
	resp, err := p.Gather(context.Background(), evidence.Query{Symbol: "ReadFull",
		Kinds: []evidence.Kind{evidence.Reference, evidence.Call}})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Records) != 1 || resp.Records[0].Path != "bufio/bufio.go" || resp.Records[0].StartLine != 5 {
		t.Fatalf("callers of io.ReadFull: %+v, want bufio.Fill at bufio/bufio.go:5", resp.Records)
	}
	if got := resp.Records[0].Provenance; got != "graph-relation" {
		t.Errorf("resolved by %s, want through the import (graph-relation)", got)
	}
}
