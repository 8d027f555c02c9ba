//go:build cgo

package structural_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/structural"
)

func exampleProject() string {
	dir, _ := os.MkdirTemp("", "structural-example-")
	src := "def main():\n    old_api(1, 2)\n    # old_api(3) is only a comment\n"
	_ = os.WriteFile(filepath.Join(dir, "app.py"), []byte(src), 0o644)
	return dir
}

func ExampleBuiltin_Search() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	e := structural.NewBuiltin(structural.BuiltinOptions{})
	res, err := e.Search(context.Background(), structural.Request{
		Root: dir, Pattern: "old_api($$$ARGS)", Language: structural.Python,
	})
	if err != nil {
		panic(err)
	}
	for _, m := range res.Matches {
		args, _ := m.Capture("ARGS")
		fmt.Printf("%s:%d:%d %s args=%q items=%d\n", m.Path, m.Range.StartLine, m.Range.StartColumn, m.Text, args.Text, len(args.Items()))
		rec := m.Record(res.Engine, "old_api($$$ARGS)")
		fmt.Println(rec.Kind, rec.Provenance, rec.Trust)
	}
	// Output:
	// app.py:2:5 old_api(1, 2) args="1, 2" items=2
	// structural_match structural-match structural
}

func ExampleCompile() {
	_, err := structural.Compile("old_api(", structural.Python)
	var pe *structural.PatternError
	fmt.Println(errors.As(err, &pe), pe.Problem)
	_, err = structural.Compile("$$$", structural.Go)
	fmt.Println(errors.Is(err, structural.ErrInvalidPattern))
	// Output:
	// true syntax-error
	// true
}

func ExampleRewrite() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	res, _ := structural.NewBuiltin(structural.BuiltinOptions{}).Search(context.Background(),
		structural.Request{Root: dir, Pattern: "old_api($A, $B)", Language: structural.Python})
	edits, _ := structural.Rewrite(res.Matches, "if $A:\n    new_api($B)")
	src, _ := os.ReadFile(filepath.Join(dir, "app.py"))
	out, _ := structural.ApplyEdits(src, edits)
	fmt.Print(string(out))
	// Output:
	// def main():
	//     if 1:
	//         new_api(2)
	//     # old_api(3) is only a comment
}

func ExampleSearch() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	ans, _ := structural.Search(context.Background(), structural.Options{Disabled: true},
		structural.Request{Root: dir, Pattern: "old_api($X)", Language: structural.Python})
	fmt.Println(ans.Report.State, len(ans.Lexical.Hits))
	for _, r := range ans.Records() {
		fmt.Println(r.StartLine, r.Provenance, r.Trust)
	}
	// Output:
	// disabled 2
	// 2 lexical weak
	// 3 lexical weak
}

func ExampleNew() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	p := structural.New(structural.Options{Dir: dir})
	resp, err := p.Gather(context.Background(), evidence.Query{Pattern: "old_api($$$ARGS)", Language: "python"})
	if err != nil {
		panic(err)
	}
	fmt.Println(p.Name(), resp.Report.State)
	for _, r := range resp.Records {
		fmt.Println(r.Location(), r.Kind, r.Trust, r.Metadata.Excerpt)
	}
	// Output:
	// structural available
	// app.py:2:5-2:18 structural_match structural old_api(1, 2)
}

// A question in words has no pattern: the provider searches the words
// that look like code, as text, and says that this is weak evidence.
func ExampleProvider_Gather() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	p := structural.New(structural.Options{Dir: dir})
	resp, _ := p.Gather(context.Background(), evidence.Query{Text: "who calls old_api?"})
	fmt.Println(structural.TextTerms("who calls old_api?"))
	for _, r := range resp.Records {
		fmt.Println(r.Location(), r.Provenance, r.Trust)
	}
	fmt.Println(strings.Contains(resp.Report.Reason, "without structural precision"))
	// Output:
	// [old_api]
	// app.py:2:5-2:12 lexical weak
	// app.py:3:7-3:14 lexical weak
	// true
}

func ExampleProvider_Rewrite() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	p := structural.New(structural.Options{Dir: dir})
	ans, _ := p.Search(context.Background(), structural.Request{Pattern: "old_api($A, $B)", Language: structural.Python})
	edits, err := p.Rewrite(context.Background(), ans, "new_api($B, $A)")
	fmt.Println(edits[0].Old, "→", edits[0].New, err)
	_, err = p.Rewrite(context.Background(), ans, "new_api($B, $C)")
	fmt.Println(err)
	_, err = p.Rewrite(context.Background(), ans, "new_api($B,")
	var te *structural.TemplateError
	fmt.Println(errors.As(err, &te), te.Problem, te.Path, te.Line)
	// Output:
	// old_api(1, 2) → new_api(2, 1) <nil>
	// structural: replacement template "new_api($B, $C)": $C at byte 12: the pattern binds no metavariable of that name
	// true syntax-error app.py 2
}

func ExampleParseAstGrepStream() {
	line := `{"text":"f(x)","range":{"byteOffset":{"start":0,"end":4},"start":{"line":0,"column":0},"end":{"line":0,"column":4}},"file":"a.js","metaVariables":{"single":{"X":{"text":"x","range":{"byteOffset":{"start":2,"end":3},"start":{"line":0,"column":2},"end":{"line":0,"column":3}}}},"multi":{}}}`
	ms, err := structural.ParseAstGrepStream(strings.NewReader(line))
	if err != nil {
		panic(err)
	}
	x, _ := ms[0].Capture("X")
	fmt.Println(ms[0].Path, ms[0].Range.StartLine, ms[0].Range.StartColumn, x.Text)
	// Output:
	// a.js 1 1 x
}
