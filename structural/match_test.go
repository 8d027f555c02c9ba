package structural

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/codecortex/codecortex/internal/testtool"
)

// TestMultiJSONExcerpt holds multiJSON, which stops writing a multi
// capture's array once its excerpt is decided, to the excerpt of the
// whole array as json.Marshal writes it: texts that escape to more bytes
// than they hold (quotes, control bytes, <, U+2028), invalid UTF-8 and
// runes cut anywhere, and unnamed nodes, which the array leaves out.
func TestMultiJSONExcerpt(t *testing.T) {
	pieces := []string{"a", "bc", `"`, `\`, "\n", "\x01", "<&>", "\u2028", "é", "日本", "😀", "\xff", "\xe2\x82", "\x82", strings.Repeat("x", 40)}
	check := func(t interface{ Fatalf(string, ...any) }, nodes []Node, n int) {
		named := []string{}
		for _, nd := range nodes {
			if nd.Named {
				named = append(named, nd.Text)
			}
		}
		whole, err := json.Marshal(named)
		if err != nil {
			t.Fatalf("%v", err)
		}
		want := excerpt(string(whole), n)
		if got := excerpt(string(multiJSON(nil, nodes, n)), n); got != want {
			t.Fatalf("excerpt of the array at %d bytes:\n got %q\nwant %q", n, got, want)
		}
	}
	// Every cut of one piece repeated, after a short first item, so that
	// each byte of each piece's escape meets the limit.
	for _, p := range pieces {
		nodes := []Node{{Text: "q", Named: true}, {Text: strings.Repeat(p, 24), Named: true}}
		for n := range 100 {
			check(t, nodes, n)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 120).Draw(t, "n")
		var nodes []Node
		for range rapid.IntRange(0, 12).Draw(t, "nodes") {
			var text strings.Builder
			for range rapid.IntRange(0, 8).Draw(t, "pieces") {
				text.WriteString(rapid.SampledFrom(pieces).Draw(t, "piece"))
			}
			nodes = append(nodes, Node{Text: text.String(), Named: rapid.Bool().Draw(t, "named")})
		}
		check(t, nodes, n)
	})
}

// TestMultiJSONBounded checks that a multi capture costs what its excerpt
// shows, not what it spans: the array written for a megabyte of items is
// about excerptBytes long.
func TestMultiJSONBounded(t *testing.T) {
	nodes := []Node{{Text: strings.Repeat(`"x"`, 1<<18), Named: true}, {Text: "y", Named: true}}
	if got := len(multiJSON(nil, nodes, excerptBytes)); got > 2*excerptBytes {
		t.Fatalf("multiJSON wrote %d bytes for an excerpt of %d", got, excerptBytes)
	}
}

// TestAppendJSONGrowsOnce: a large match, its text real code, is written
// into one allocation rather than copied into array after larger array.
func TestAppendJSONGrowsOnce(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(testtool.GOROOT(t), "src", "strings", "strings.go"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat(string(src), 20) // about 1 MB
	half := text[:len(text)/2]
	m := Match{Path: "big.go", Language: Go, Text: text, Lines: half,
		Range: Range{StartLine: 1, EndLine: 1 << 40, EndByte: len(text)},
		Captures: []Capture{
			{Name: "F", Text: "f", Nodes: []Node{{Text: "f", Named: true}}},
			{Name: "A", Multi: true, Text: half, Nodes: []Node{{Text: half[:len(half)/2]}, {Text: ","}, {Text: half[len(half)/2:]}}},
		},
	}
	if allocs := testing.AllocsPerRun(5, func() { m.AppendJSON(nil) }); allocs != 1 {
		t.Errorf("AppendJSON(nil) of a %d-byte match: %v allocations, want 1", len(text), allocs)
	}
	if want, got := m.jsonSize(), len(m.AppendJSON(nil)); got > want {
		t.Errorf("AppendJSON wrote %d bytes, jsonSize said at most %d", got, want)
	}
}

// AppendJSON writes what json.Marshal writes, for any match: strings with
// HTML characters, control bytes, U+2028 and invalid UTF-8, captures and
// nodes absent, empty or present.
func TestAppendJSONMatchesMarshal(t *testing.T) {
	text := rapid.OneOf(
		rapid.String(),
		rapid.StringOf(rapid.SampledFrom([]rune{'a', '"', '\\', '<', '>', '&', '\n', '\t', 0, 0x1f, 0x7f, 0x2028, 0x2029, 'é', 0xfffd})),
		rapid.Custom(func(t *rapid.T) string { return string(rapid.SliceOf(rapid.Byte()).Draw(t, "bytes")) }),
	)
	rng := rapid.Custom(func(t *rapid.T) Range {
		n := rapid.IntRange(-1, 1<<40)
		return Range{StartLine: n.Draw(t, "sl"), StartColumn: n.Draw(t, "sc"), EndLine: n.Draw(t, "el"),
			EndColumn: n.Draw(t, "ec"), StartByte: n.Draw(t, "sb"), EndByte: n.Draw(t, "eb")}
	})
	node := rapid.Custom(func(t *rapid.T) Node {
		return Node{Text: text.Draw(t, "text"), Range: rng.Draw(t, "range"), Named: rapid.Bool().Draw(t, "named")}
	})
	nodes := rapid.OneOf(rapid.Just([]Node(nil)), rapid.Just([]Node{}), rapid.SliceOfN(node, 1, 3))
	capture := rapid.Custom(func(t *rapid.T) Capture {
		return Capture{Name: text.Draw(t, "name"), Multi: rapid.Bool().Draw(t, "multi"), Text: text.Draw(t, "text"), Nodes: nodes.Draw(t, "nodes")}
	})
	rapid.Check(t, func(t *rapid.T) {
		m := Match{
			Path:     text.Draw(t, "path"),
			Language: Language(text.Draw(t, "language")),
			Range:    rng.Draw(t, "range"),
			Text:     text.Draw(t, "text"),
			Captures: rapid.OneOf(rapid.Just([]Capture(nil)), rapid.Just([]Capture{}), rapid.SliceOfN(capture, 1, 3)).Draw(t, "captures"),
			Lines:    text.Draw(t, "lines"),
			Indent:   text.Draw(t, "indent"),
		}
		want, err := json.Marshal(&m)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.AppendJSON([]byte("x")); string(got) != "x"+string(want) {
			t.Fatalf("AppendJSON\n%s\njson.Marshal\n%s", got[1:], want)
		}
	})
}
