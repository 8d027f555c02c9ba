//go:build cgo

package rewrite_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
)

func exampleProject() string {
	dir, _ := os.MkdirTemp("", "rewrite-example-")
	src := "def main():\n    old_api(1, 2)\n    # old_api(3) is only mentioned\n"
	_ = os.WriteFile(filepath.Join(dir, "app.py"), []byte(src), 0o644)
	return dir
}

// A structural migration: previewed first (nothing is written), then
// applied by id as a principal.
func Example() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	r, err := rewrite.Open(rewrite.Options{Dir: dir})
	if err != nil {
		panic(err)
	}
	defer r.Close()
	ctx := context.Background()
	p, err := r.Preview(ctx, rewrite.Request{Pattern: "old_api($$$A)", Template: "new_api(ctx, $$$A)", Language: "python"})
	if err != nil {
		panic(err)
	}
	fmt.Print(p.Files[0].Diff)
	fmt.Println(p.Matches, "match, impact", p.Impact.Tier)

	res, err := r.Apply(ctx, p.ID, rewrite.Authorization{Principal: "alice", Via: "example"})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Outcome, res.FilesChanged, "file; validation", res.Validation.Status)
	b, _ := os.ReadFile(filepath.Join(dir, "app.py"))
	fmt.Print(string(b))
	// Output:
	// --- a/app.py
	// +++ b/app.py
	// @@ -1,3 +1,3 @@
	//  def main():
	// -    old_api(1, 2)
	// +    new_api(ctx, 1, 2)
	//      # old_api(3) is only mentioned
	// 1 match, impact inferred
	// applied 1 file; validation skipped
	// def main():
	//     new_api(ctx, 1, 2)
	//     # old_api(3) is only mentioned
}

// Apply refuses what it must, before anything is written.
func ExampleRewriter_Apply() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	r, _ := rewrite.Open(rewrite.Options{Dir: dir, SkipValidation: true})
	defer r.Close()
	ctx := context.Background()
	p, _ := r.Preview(ctx, rewrite.Request{Pattern: "old_api($$$A)", Template: "new_api($$$A)", Language: "python"})

	_, err := r.Apply(ctx, p.ID, rewrite.Authorization{})
	fmt.Println(errors.Is(err, rewrite.ErrUnauthorized))

	_ = os.WriteFile(filepath.Join(dir, "app.py"), []byte("def main():\n    old_api(1, 2, 3)\n"), 0o644)
	_, err = r.Apply(ctx, p.ID, rewrite.Authorization{Principal: "alice"})
	var changed *rewrite.ChangedError
	fmt.Println(errors.As(err, &changed), changed.Path)
	// Output:
	// true
	// true app.py
}

// A host's own edits go through the same preview and apply.
func ExampleRewriter_PreviewEdits() {
	dir, _ := os.MkdirTemp("", "rewrite-example-")
	defer os.RemoveAll(dir)
	_ = os.WriteFile(filepath.Join(dir, "NOTES.txt"), []byte("version 1\n"), 0o644)
	r, _ := rewrite.Open(rewrite.Options{Dir: dir, SkipValidation: true})
	defer r.Close()
	ctx := context.Background()
	p, err := r.PreviewEdits(ctx, "bump the version", []structural.Edit{
		{Path: "NOTES.txt", StartByte: 8, EndByte: 9, Old: "1", New: "2"},
	})
	if err != nil {
		panic(err)
	}
	fmt.Print(p.Files[0].Diff)
	res, _ := r.Apply(ctx, p.ID, rewrite.Authorization{Principal: "release-bot"})
	fmt.Println(res.Outcome)
	// Output:
	// --- a/NOTES.txt
	// +++ b/NOTES.txt
	// @@ -1,1 +1,1 @@
	// -version 1
	// +version 2
	// applied
}

// A rewrite larger than a limit is refused, naming the limit and the
// figure.
func ExampleLimitError() {
	dir := exampleProject()
	defer os.RemoveAll(dir)
	r, _ := rewrite.Open(rewrite.Options{Dir: dir, Limits: rewrite.Limits{MaxBytes: 10}})
	defer r.Close()
	_, err := r.Preview(context.Background(), rewrite.Request{Pattern: "old_api($$$A)", Template: "new_api($$$A)", Language: "python"})
	fmt.Println(err)
	// Output:
	// rewrite: max_rewrite_bytes is 10 but the rewrite has 26 changed bytes
}
