package memory

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// rememberAll stores entries, each at its own time (now minus age).
func rememberAll(t testing.TB, s *Store, c *clock, entries []aged) map[string]string {
	t.Helper()
	ids := map[string]string{}
	for _, a := range entries {
		a.e.Created = c.now.Add(-a.age)
		e, err := s.Remember(context.Background(), a.e)
		if err != nil {
			t.Fatal(err)
		}
		ids[a.name] = e.ID
	}
	return ids
}

type aged struct {
	name string
	age  time.Duration
	e    Entry
}

const day = 24 * time.Hour

func TestRecall(t *testing.T) {
	c := &clock{now: t0}
	s := openStore(t, t.TempDir(), c)
	ids := rememberAll(t, s, c, []aged{
		{"sqlite", 10 * day, Entry{Type: Decision, Text: "Use SQLite for the local index", Reason: "no server to run",
			Scope: Scope{Paths: []string{"index"}}}},
		{"wrap", 900 * day, Entry{Type: Convention, Text: "Errors wrap their cause with %w",
			Scope: Scope{Paths: []string{"*.go"}}}},
		{"clock", 200 * day, Entry{Type: Gotcha, Text: "The fixture clock is UTC, not local time",
			Scope: Scope{Paths: []string{"testdata/clock.go"}, Symbols: []string{"Clock.Now"}}}},
		{"retry", 5 * day, Entry{Type: Failure, Text: "Refreshing tokens in a loop locked accounts",
			Scope: Scope{Symbols: []string{"AuthService.refresh_token"}}}},
		{"migrate", 30 * day, Entry{Type: Decision, Text: "Migrations run before the server starts",
			Scope: Scope{Paths: []string{"db/migrations/*.sql"}}}},
	})
	type row struct {
		Name string
		Why  []string
	}
	name := map[string]string{}
	for n, id := range ids {
		name[id] = n
	}
	for _, tc := range []struct {
		desc string
		q    Query
		want []row
	}{
		{"a file in a directory scope, and a pattern on its base name",
			Query{Path: "index/store.go"}, []row{{"wrap", []string{"path"}}, {"sqlite", []string{"path"}}}},
		{"a pattern with a directory",
			Query{Path: "db/migrations/001_init.sql"}, []row{{"migrate", []string{"path"}}}},
		{"a directory holding a scoped file",
			Query{Path: "testdata"}, []row{{"clock", []string{"path"}}}},
		{"a symbol, exactly",
			Query{Symbol: "Clock.Now"}, []row{{"clock", []string{"symbol"}}}},
		{"a symbol by its last part",
			Query{Symbol: "refresh_token"}, []row{{"retry", []string{"symbol"}}}},
		{"a longer symbol the scope ends",
			Query{Symbol: "fixtures.Clock.Now"}, []row{{"clock", []string{"symbol"}}}},
		{"words, stop words ignored, stems by prefix",
			Query{Text: "why did we decide on sqlite for indexing?"}, []row{{"sqlite", []string{"text"}}}},
		{"words in an identifier",
			Query{Text: "token refresh"}, []row{{"retry", []string{"text"}}}},
		{"types",
			Query{Types: []Type{Decision}}, []row{{"sqlite", []string{"all"}}, {"migrate", []string{"all"}}}},
		{"everything, by decayed confidence",
			Query{}, []row{{"wrap", []string{"all"}}, {"retry", []string{"all"}}, {"sqlite", []string{"all"}},
				{"migrate", []string{"all"}}, {"clock", []string{"all"}}}},
		// The gotcha matches best but is 200 days old (confidence 0.21);
		// the convention matches by pattern (0.9) and never decays.
		{"a path and words: either may match, both count, decay ranks",
			Query{Path: "testdata/clock.go", Text: "UTC clock"}, []row{{"wrap", []string{"path"}}, {"clock", []string{"path", "text"}}}},
		{"only small words", Query{Text: "why did we"}, []row{}},
		{"a path outside the project", Query{Path: "../elsewhere.go"}, []row{}},
		{"limit", Query{Limit: 1}, []row{{"wrap", []string{"all"}}}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			ms, err := s.Recall(tc.q)
			if err != nil {
				t.Fatal(err)
			}
			got := []row{}
			for _, m := range ms {
				got = append(got, row{name[m.Entry.ID], m.Why})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("Recall(%+v) (-want +got):\n%s", tc.q, diff)
			}
		})
	}

	// The gotcha is 200 days old: 0.5^(200/90) ≈ 0.214, stale; the
	// decision 10 days old: 0.5^(10/180) ≈ 0.962.
	ms, _ := s.Recall(Query{Symbol: "Clock.Now"})
	if m := ms[0]; !m.Stale || !near(m.Confidence, 0.2143) || m.Score != m.Confidence*m.Relevance {
		t.Errorf("200-day gotcha: confidence %v stale %v score %v", m.Confidence, m.Stale, m.Score)
	}
	ms, _ = s.Recall(Query{Path: "index"})
	if m := ms[0]; m.Stale || !near(m.Confidence, 0.9622) {
		t.Errorf("10-day decision: confidence %v stale %v", m.Confidence, m.Stale)
	}
}

func near(a, b float64) bool { return a-b < 1e-4 && b-a < 1e-4 }

// Another process's entries are seen on the next recall; a forgotten one
// is gone.
func TestRecallSeesOtherWriters(t *testing.T) {
	dir := t.TempDir()
	a := openStore(t, dir, nil)
	b := openStore(t, dir, nil)
	if ms, _ := a.Recall(Query{}); len(ms) != 0 {
		t.Fatalf("empty memory recalled %d", len(ms))
	}
	e, err := b.Remember(context.Background(), Entry{Type: Convention, Text: "tabs, not spaces"})
	if err != nil {
		t.Fatal(err)
	}
	if ms, _ := a.Recall(Query{Text: "tabs"}); len(ms) != 1 {
		t.Errorf("another store's entry not recalled: %d", len(ms))
	}
	if err := b.Forget(context.Background(), e.ID, "ada", ""); err != nil {
		t.Fatal(err)
	}
	if ms, _ := a.Recall(Query{Text: "tabs"}); len(ms) != 0 {
		t.Errorf("a forgotten entry is still recalled")
	}
}
