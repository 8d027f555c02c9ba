package memory

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2024, 3, 1, 9, 0, 0, 0, time.UTC)

// A clock the test moves.
type clock struct{ now time.Time }

func (c *clock) Now() time.Time { return c.now }

func openStore(t testing.TB, dir string, c *clock) *Store {
	t.Helper()
	if c == nil {
		c = &clock{now: t0}
	}
	s, err := Open(Options{Dir: dir, Now: c.Now, Author: "ada", Seal: testSeal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestRememberWritesAReviewableEntry(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, nil)
	e, err := s.Remember(context.Background(), Entry{Type: Decision, Text: "  Use SQLite for the local index.\n",
		Reason: "no server to run", Scope: Scope{Paths: []string{"index/", "./index/store.go", "index"}, Symbols: []string{"Store.Open"}}})
	if err != nil {
		t.Fatal(err)
	}
	want := Entry{Type: Decision, Text: "Use SQLite for the local index.", Reason: "no server to run",
		Scope: Scope{Paths: []string{"index", "index/store.go"}, Symbols: []string{"Store.Open"}}, Author: "ada", Created: t0}
	want.Digest = want.ComputeDigest()
	want.ID = IDFor(want.Digest)
	if diff := cmp.Diff(want, e); diff != "" {
		t.Errorf("Remember (-want +got):\n%s", diff)
	}
	data, err := os.ReadFile(filepath.Join(dir, ".codecortex", "memory", "entries", e.ID+".json"))
	if err != nil {
		t.Fatal(err)
	}
	wantFile := `{
  "version": 1,
  "id": "` + e.ID + `",
  "digest": "` + e.Digest + `",
  "type": "decision",
  "text": "Use SQLite for the local index.",
  "reason": "no server to run",
  "scope": {
    "paths": [
      "index",
      "index/store.go"
    ],
    "symbols": [
      "Store.Open"
    ]
  },
  "author": "ada",
  "created": "2024-03-01T09:00:00Z"
}
`
	if diff := cmp.Diff(wantFile, string(data)); diff != "" {
		t.Errorf("entry file (-want +got):\n%s", diff)
	}
	// The canonical form the digest covers is documented; pin it.
	wantCanon := `{"v":1,"type":"decision","text":"Use SQLite for the local index.","reason":"no server to run","paths":["index","index/store.go"],"symbols":["Store.Open"],"author":"ada","created":"2024-03-01T09:00:00Z"}`
	if diff := cmp.Diff(wantCanon, string(e.Canonical())); diff != "" {
		t.Errorf("canonical form (-want +got):\n%s", diff)
	}
	audit, _ := os.ReadFile(filepath.Join(dir, ".codecortex", "memory", "audit.log"))
	// The line is sealed under this user's key: it binds every field.
	wantSeal, _ := testSeal.Seal("codecortex.memory.audit/1", []byte("remember"), []byte(e.ID), []byte(e.Digest),
		[]byte("decision"), []byte("ada"), []byte("2024-03-01T09:00:00Z"), nil)
	wantAudit := `{"op":"remember","id":"` + e.ID + `","digest":"` + e.Digest + `","type":"decision","who":"ada","when":"2024-03-01T09:00:00Z","seal":"` + wantSeal + `"}` + "\n"
	if diff := cmp.Diff(wantAudit, string(audit)); diff != "" {
		t.Errorf("audit log (-want +got):\n%s", diff)
	}

	// The same content again is the same entry, written once.
	again, err := s.Remember(context.Background(), Entry{Type: Decision, Text: "Use SQLite for the local index.",
		Reason: "no server to run", Scope: Scope{Paths: []string{"index/store.go", "index"}, Symbols: []string{"Store.Open"}}})
	if err != nil || again.ID != e.ID {
		t.Errorf("Remember again = %s, %v; want %s", again.ID, err, e.ID)
	}
	if audit2, _ := os.ReadFile(filepath.Join(dir, ".codecortex", "memory", "audit.log")); string(audit2) != string(audit) {
		t.Errorf("remembering the same entry again wrote the audit log:\n%s", audit2)
	}
	got, err := s.Get(e.ID)
	if err != nil || got.ID != e.ID {
		t.Errorf("Get = %+v, %v", got, err)
	}
}

func TestRememberRejects(t *testing.T) {
	s := openStore(t, t.TempDir(), nil)
	for name, e := range map[string]Entry{
		"no type":          {Text: "x"},
		"unknown type":     {Type: "rumour", Text: "x"},
		"no text":          {Type: Gotcha, Text: "  "},
		"control":          {Type: Gotcha, Text: "a\x1b[31mred"},
		"bidi":             {Type: Gotcha, Text: "a\u202eb"},
		"long":             {Type: Gotcha, Text: strings.Repeat("x", MaxText+1)},
		"escaping path":    {Type: Gotcha, Text: "x", Scope: Scope{Paths: []string{"../etc/passwd"}}},
		"absolute path":    {Type: Gotcha, Text: "x", Scope: Scope{Paths: []string{"/etc/passwd"}}},
		"unclean path":     {Type: Gotcha, Text: "x", Scope: Scope{Paths: []string{"a/../b"}}},
		"bad pattern":      {Type: Gotcha, Text: "x", Scope: Scope{Paths: []string{"a/[b"}}},
		"symbol w/ space":  {Type: Gotcha, Text: "x", Scope: Scope{Symbols: []string{"a b"}}},
		"too many symbols": {Type: Gotcha, Text: "x", Scope: Scope{Symbols: manySymbols(MaxScope + 1)}},
	} {
		if _, err := s.Remember(context.Background(), e); !errors.Is(err, ErrInvalid) {
			t.Errorf("%s: Remember = %v, want ErrInvalid", name, err)
		}
	}
	anon, err := Open(Options{Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer anon.Close()
	if _, err := anon.Remember(context.Background(), Entry{Type: Gotcha, Text: "x"}); !errors.Is(err, ErrInvalid) {
		t.Errorf("Remember without an author = %v, want ErrInvalid", err)
	}
}

func TestForgetLeavesAnAuditLineWithoutTheText(t *testing.T) {
	dir := t.TempDir()
	c := &clock{now: t0}
	s := openStore(t, dir, c)
	ctx := context.Background()
	secret, err := s.Remember(ctx, Entry{Type: Gotcha, Text: "the staging password is hunter2-correct-horse"})
	if err != nil {
		t.Fatal(err)
	}
	keep, err := s.Remember(ctx, Entry{Type: Convention, Text: "errors wrap with %w"})
	if err != nil {
		t.Fatal(err)
	}
	c.now = t0.Add(time.Hour)
	if err := s.Forget(ctx, secret.ID, "bob", "it was a secret"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Get(secret.ID); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get after Forget = %v, want ErrNotFound", err)
	}
	audit, _ := os.ReadFile(filepath.Join(dir, ".codecortex", "memory", "audit.log"))
	lines := strings.Split(strings.TrimSpace(string(audit)), "\n")
	forgetSeal, _ := testSeal.Seal("codecortex.memory.audit/1", []byte("forget"), []byte(secret.ID), []byte(secret.Digest),
		[]byte("gotcha"), []byte("bob"), []byte("2024-03-01T10:00:00Z"), []byte("it was a secret"))
	wantLast := `{"op":"forget","id":"` + secret.ID + `","digest":"` + secret.Digest + `","type":"gotcha","who":"bob","when":"2024-03-01T10:00:00Z","why":"it was a secret","seal":"` + forgetSeal + `"}`
	if len(lines) != 3 || lines[2] != wantLast {
		t.Errorf("audit log:\n%s\nwant its last line\n%s", audit, wantLast)
	}
	if strings.Contains(string(audit), "hunter2") {
		t.Errorf("the audit log holds the forgotten text:\n%s", audit)
	}
	if ms, _ := s.Recall(Query{}); len(ms) != 1 || ms[0].Entry.ID != keep.ID {
		t.Errorf("Recall after Forget = %+v, want only %s", ms, keep.ID)
	}
	for _, id := range []string{secret.ID, "m0000000000000000", "../../etc/passwd", ""} {
		if err := s.Forget(ctx, id, "bob", ""); !errors.Is(err, ErrNotFound) {
			t.Errorf("Forget(%q) = %v, want ErrNotFound", id, err)
		}
	}
	rep, err := s.Verify(ctx)
	if err != nil || !rep.OK() || rep.Entries != 1 || rep.AuditLines != 3 {
		t.Errorf("Verify after Forget = %+v, %v", rep, err)
	}
}

func TestVerifyReportsTampering(t *testing.T) {
	dir := t.TempDir()
	s := openStore(t, dir, nil)
	ctx := context.Background()
	var ids []string
	for _, text := range []string{"one", "two", "three", "four", "five"} {
		e, err := s.Remember(ctx, Entry{Type: Decision, Text: "decision " + text})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, e.ID)
	}
	if rep, err := s.Verify(ctx); err != nil || !rep.OK() || rep.Intact != 5 {
		t.Fatalf("Verify of an untouched memory = %+v, %v", rep, err)
	}
	file := func(id string) string { return filepath.Join(dir, ".codecortex", "memory", "entries", id+".json") }
	edit := func(id, from, to string) {
		data, _ := os.ReadFile(file(id))
		if err := os.WriteFile(file(id), []byte(strings.Replace(string(data), from, to, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// 0: the text changed. 1: text and digest changed consistently, so the
	// id no longer derives from the digest. 2: not JSON. 3: renamed to
	// another entry's name. 4: left alone. Plus a stray file, a forgotten
	// entry put back, and an entry nobody remembered.
	edit(ids[0], "decision one", "decision ONE")
	e1, _ := s.Get(ids[1])
	e1.Text = "decision TWO"
	forged := e1.ComputeDigest()
	edit(ids[1], "decision two", "decision TWO")
	edit(ids[1], e1.Digest, forged)
	os.WriteFile(file(ids[2]), []byte("{not json"), 0o644)
	os.Rename(file(ids[3]), file("m0123456789abcdef"))
	os.WriteFile(filepath.Join(dir, ".codecortex", "memory", "entries", "notes.txt"), []byte("x"), 0o644)
	gone, _ := s.Get(ids[4])
	goneData, _ := os.ReadFile(file(ids[4]))
	if err := s.Forget(ctx, ids[4], "ada", "obsolete"); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file(gone.ID), goneData, 0o644)
	stranger := Entry{Type: Gotcha, Text: "hand-written", Author: "eve", Created: t0}
	stranger.Digest = stranger.ComputeDigest()
	stranger.ID = IDFor(stranger.Digest)
	os.WriteFile(file(stranger.ID), encodeEntry(&stranger), 0o644)
	os.WriteFile(filepath.Join(dir, ".codecortex", "memory", "audit.log"), append(mustRead(t, filepath.Join(dir, ".codecortex", "memory", "audit.log")), "garbage\n"...), 0o644)

	rep, err := s.Verify(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type p struct{ ID, Start string }
	var got []p
	for _, pr := range rep.Problems {
		reason, _, _ := strings.Cut(pr.Reason, ":")
		got = append(got, p{pr.ID, reason})
	}
	want := []p{
		{"m0123456789abcdef", "the file holds entry " + ids[3]},
		{ids[0], "tampered"},
		{ids[1], "memory"},
		{ids[2], "memory"},
		{"", "not an entry file (entries are named <id>.json)"},
		{"", "line 7"},
		{ids[4], "the audit log says it was forgotten, but it is still here"},
		{stranger.ID, "no line of the audit log remembers it with this digest"},
	}
	// Entry problems come in directory order; sort both for the check.
	sortP := func(ps []p) {
		for i := range ps {
			for j := i + 1; j < len(ps); j++ {
				if ps[j].ID+ps[j].Start < ps[i].ID+ps[i].Start {
					ps[i], ps[j] = ps[j], ps[i]
				}
			}
		}
	}
	sortP(want)
	sortP(got)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Verify problems (-want +got):\n%s\nall: %+v", diff, rep.Problems)
	}
	if rep.Entries != 6 || rep.Intact != 2 {
		t.Errorf("Verify counted %d entries, %d intact; want 6, 2", rep.Entries, rep.Intact)
	}
	for _, pr := range rep.Problems {
		if pr.ID == ids[1] && !strings.Contains(pr.Reason, "does not derive from the digest") {
			t.Errorf("forged digest reported as %q", pr.Reason)
		}
	}
	// Recall skips what does not verify.
	ms, err := s.Recall(Query{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if m.Entry.ID == ids[0] || m.Entry.ID == ids[1] || m.Entry.ID == ids[2] {
			t.Errorf("Recall served damaged entry %s", m.Entry.ID)
		}
	}
}

func manySymbols(n int) []string {
	var out []string
	for i := range n {
		out = append(out, "S"+strings.Repeat("x", i))
	}
	return out
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The memory lives under .codecortex/memory only, and a symbolic link
// cannot lead its writes out of the project.
func TestStoreStaysInside(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".codecortex"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, ".codecortex", "memory")); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, dir, nil)
	if _, err := s.Remember(context.Background(), Entry{Type: Gotcha, Text: "x"}); err == nil {
		t.Error("Remember wrote through a symbolic link that leaves the project")
	}
	if des, _ := os.ReadDir(outside); len(des) != 0 {
		t.Errorf("files written outside the project: %v", des)
	}
}

// TestLinkedStateRefused: a repository that ships .codecortex/memory (or
// the entries under it) as a link into the tree gets nothing written
// there by remember.
func TestLinkedStateRefused(t *testing.T) {
	for _, link := range []struct{ at, to string }{
		{".codecortex/memory", "../src"},
		{".codecortex/memory/entries", "../../src"},
	} {
		t.Run(link.at, func(t *testing.T) {
			dir := t.TempDir()
			src := filepath.Join(dir, "src")
			if err := os.MkdirAll(src, 0o755); err != nil {
				t.Fatal(err)
			}
			at := filepath.Join(dir, filepath.FromSlash(link.at))
			if err := os.MkdirAll(filepath.Dir(at), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(link.to, at); err != nil {
				t.Fatal(err)
			}
			s, err := Open(Options{Dir: dir, Author: "ada", Seal: testSeal})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			_, err = s.Remember(context.Background(), Entry{Type: Convention, Text: "errors wrap with %w"})
			if err == nil || !strings.Contains(err.Error(), "symbolic link") {
				t.Errorf("Remember through a link: %v", err)
			}
			if ents, _ := os.ReadDir(src); len(ents) != 0 {
				t.Errorf("written through the link: %v", ents)
			}
		})
	}
}
