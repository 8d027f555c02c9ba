package memory_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/memory"
)

// Confidence halves every half-life; conventions never decay; below 30 %
// an entry is stale.
func ExampleDecay() {
	for _, t := range memory.Types() {
		fmt.Printf("%-10s half-life %3d days, after 180 days %.2f\n", t, t.HalfLife()/(24*time.Hour), memory.Decay(t, 180*24*time.Hour))
	}
	// Output:
	// convention half-life   0 days, after 180 days 1.00
	// decision   half-life 180 days, after 180 days 0.50
	// gotcha     half-life  90 days, after 180 days 0.25
	// failure    half-life  90 days, after 180 days 0.25
}

// Remember a decision, recall it by a file it covers, forget it, and
// verify what is left.
func ExampleStore() {
	dir, err := os.MkdirTemp("", "memory-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	now := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	s, err := memory.Open(memory.Options{Dir: dir, Author: "ada", Now: func() time.Time { return now }})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()

	e, err := s.Remember(ctx, memory.Entry{
		Type: memory.Decision, Text: "Use SQLite for the local index", Reason: "no server to run",
		Scope: memory.Scope{Paths: []string{"index"}}, Created: now.AddDate(0, 0, -180),
	})
	if err != nil {
		log.Fatal(err)
	}
	ms, err := s.Recall(memory.Query{Path: "index/store.go"})
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range ms {
		fmt.Printf("%s %q confidence %.2f stale %v via %v\n", m.Entry.Type, m.Entry.Text, m.Confidence, m.Stale, m.Why)
	}

	if err := s.Forget(ctx, e.ID, "bob", "we moved to Postgres"); err != nil {
		log.Fatal(err)
	}
	rep, err := s.Verify(ctx)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("entries", rep.Entries, "audit lines", rep.AuditLines, "ok", rep.OK())
	// Output:
	// decision "Use SQLite for the local index" confidence 0.50 stale false via [path]
	// entries 0 audit lines 2 ok true
}

// The memories whose scope covers what an answer cites are added to it.
func ExampleStore_Attach() {
	dir, err := os.MkdirTemp("", "memory-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s, err := memory.Open(memory.Options{Dir: dir, Author: "ada"})
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Remember(context.Background(), memory.Entry{Type: memory.Gotcha,
		Text: "Refreshing tokens in a loop locks accounts", Scope: memory.Scope{Symbols: []string{"refresh_token"}}}); err != nil {
		log.Fatal(err)
	}
	answer := []evidence.Record{{Kind: evidence.Definition, Provider: "precision", Symbol: "AuthService.refresh_token",
		Path: "auth/service.py", StartLine: 40, StartColumn: 9, EndLine: 40, EndColumn: 22}}
	recs, err := s.Attach(context.Background(), answer)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range recs {
		fmt.Println(r.Kind, r.Trust, r.Metadata.Attributes["type"], r.Metadata.Attributes["attached_to"], r.Metadata.Attributes["decay"])
	}
	// Output:
	// memory inferred gotcha AuthService.refresh_token fresh
}
