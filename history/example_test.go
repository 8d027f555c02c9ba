package history_test

import (
	"context"
	"fmt"
	"log"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/history"
)

// Pull requests are recovered from the messages hosts write when they
// merge one.
func ExampleParsePullRequest() {
	for _, m := range [][2]string{
		{"Merge pull request #123 from ada/retry", "Retry refreshes that time out"},
		{"Retry refreshes that time out (#124)", ""},
		{"Merge branch 'retry' into 'main'", "Retry refreshes\n\nSee merge request team/api!17"},
		{"Fix the flaky test", ""},
	} {
		pr, ok := history.ParsePullRequest(m[0], m[1])
		if !ok {
			fmt.Println("none")
			continue
		}
		fmt.Printf("%s %s %q\n", pr.Ref(), pr.Via, pr.Title)
	}
	// Output:
	// #123 merge "Retry refreshes that time out"
	// #124 squash "Retry refreshes that time out"
	// !17 gitlab-merge "Retry refreshes"
	// none
}

// A question in words is answered with recent changes only when it asks
// about them; "since" names the base.
func ExampleAsksWhatChanged() {
	for _, q := range []string{"what changed since v0.3.0?", "where is Login defined?"} {
		fmt.Printf("%v %q\n", history.AsksWhatChanged(q), history.SinceRevision(q))
	}
	// Output:
	// true "v0.3.0"
	// false ""
}

// Open the repository around the working directory and read a file's
// history, who last changed its first lines, and what changed since main.
func ExampleOpen() {
	ctx := context.Background()
	repo, err := history.Open(ctx, history.Options{})
	if err != nil {
		log.Fatal(err) // errors.Is(err, history.ErrNotRepository), ErrNoGit...
	}
	defer repo.Close()

	h, err := repo.Log(ctx, "engine.go")
	if err != nil {
		log.Fatal(err) // history.ErrShallow in a shallow clone
	}
	for _, e := range h.Entries {
		fmt.Println(e.Short(), e.Date.Format("2006-01-02"), e.Author, e.Status, e.Path, e.Subject)
		if e.PR != nil {
			fmt.Println("  from", e.PR.Ref(), e.PR.Title)
		}
	}

	hunks, err := repo.Blame(ctx, "engine.go", 1, 10)
	if err != nil {
		log.Fatal(err)
	}
	for _, hk := range hunks {
		fmt.Printf("%d-%d %s %s\n", hk.StartLine, hk.EndLine, hk.Commit.Short(), hk.Commit.Author)
	}

	cs, err := repo.Changes(ctx, "main")
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range cs.Changes {
		fmt.Printf("%s %s +%d -%d\n", c.Status, c.Path, c.Added, c.Deleted)
	}
}

// The provider answers evidence queries: a path, or a question in words.
func ExampleNew() {
	p := history.New(history.Options{Dir: "."})
	resp, err := p.Gather(context.Background(), evidence.Query{Path: "engine.go", Line: 42})
	if err != nil {
		log.Fatal(err) // an *evidence.UnavailableError with a reason and guidance
	}
	for _, r := range resp.Records {
		fmt.Println(r.Location(), r.Metadata.Excerpt)
	}
}
