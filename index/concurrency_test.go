package index

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/flock"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// helperEnv names the helper a re-executed test binary runs instead of
// the tests.
const helperEnv = "CODECORTEX_INDEX_TEST_HELPER"

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		// The environment, the seal key's place included, is the test's.
		os.Exit(runHelper(h))
	}
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// runHelper is a second process working on the same project as the test:
//
//   - "writer ID N": N times, rewrite one of ten files with a new token and
//     bring the index up to date; print "done".
//   - "holdlock": take the index's writer lock, print "locked", and hold it
//     until standard input closes.
//   - "build": index the project from nothing (text only) and print
//     "maxrss KB", the process's peak resident memory.
//   - "search WORDS": open the index, search (freshness check included) and
//     print the hits, as `cortex search` would.
func runHelper(h string) int {
	args := strings.Fields(h)
	dir := os.Getenv("CODECORTEX_INDEX_TEST_DIR")
	switch args[0] {
	case "noop":
		return 0
	case "phases":
		ctx := context.Background()
		t0 := time.Now()
		ix, _ := Open(Options{Dir: dir})
		t1 := time.Now()
		ix.mu.Lock()
		st, _, _, err := ix.activate(ctx)
		if text, err := st.meta(ctx, "listings"); err == nil {
			ix.walker.load(text)
		}
		t2 := time.Now()
		w, _ := ix.walker.walk(time.Time{})
		t3 := time.Now()
		rows, _, _ := st.cachedRows(ctx)
		t4 := time.Now()
		p := ix.diff(w, rows)
		t5 := time.Now()
		ix.mu.Unlock()
		res, _ := ix.Search(ctx, strings.Join(args[1:], " "), SearchOptions{})
		t6 := time.Now()
		fmt.Printf("open %v activate %v walk %v rows %v diff %v search %v err=%v changed=%d hits=%d\n", t1.Sub(t0), t2.Sub(t1), t3.Sub(t2), t4.Sub(t3), t5.Sub(t4), t6.Sub(t5), err, len(p.changed), len(res.Hits))
		return 0
	case "build", "search":
		ix, err := Open(Options{Dir: dir})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer ix.Close()
		if args[0] == "build" {
			if _, err := ix.Update(context.Background()); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Println("maxrss", testtool.PeakRSSKB())
			return 0
		}
		res, err := ix.Search(context.Background(), strings.Join(args[1:], " "), SearchOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		w := bufio.NewWriter(os.Stdout)
		for _, hit := range res.Hits {
			fmt.Fprintf(w, "%s:%d-%d %s\n", hit.Path, hit.StartLine, hit.EndLine, hit.Match)
		}
		w.Flush()
		return 0
	case "writer":
		id := args[1]
		n, _ := strconv.Atoi(args[2])
		ix, err := Open(Options{Dir: dir, Extract: fakeExtract, ExtractorVersion: "fake-1", Budget: -1})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		defer ix.Close()
		for i := range n {
			p := filepath.Join(dir, "gen", fmt.Sprintf("w%s_%d.go", id, i%10))
			os.MkdirAll(filepath.Dir(p), 0o755)
			content := fmt.Sprintf("package gen\n\n// tok%sx%d\nfunc W%s_%d() {}\n", id, i, id, i%10)
			if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if _, err := ix.Refresh(context.Background()); err != nil {
				fmt.Fprintln(os.Stderr, "refresh:", err)
				return 1
			}
		}
		fmt.Println("done")
		return 0
	case "holdlock":
		f, err := os.OpenFile(filepath.Join(dir, StorageDir, "lock"), os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		if ok, err := flock.TryLock(f); !ok || err != nil {
			fmt.Fprintln(os.Stderr, "lock not taken:", err)
			return 1
		}
		fmt.Println("locked")
		io.Copy(io.Discard, os.Stdin)
		return 0
	}
	return 2
}

// startHelper runs this test binary as a helper process.
func startHelper(t *testing.T, dir, helper string) *safeexec.Process {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p, err := safeexec.Start(context.Background(), safeexec.Invocation{
		Path: exe, Args: []string{"-test.run=^$"}, Dir: dir,
		Env: append(os.Environ(), helperEnv+"="+helper, "CODECORTEX_INDEX_TEST_DIR="+dir),
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(time.Second) })
	return p
}

// expectLine reads the helper's next output line and fails unless it is
// want.
func expectLine(t *testing.T, p *safeexec.Process, r *bufio.Reader, want string) {
	t.Helper()
	line, err := r.ReadString('\n')
	if strings.TrimSpace(line) != want {
		t.Fatalf("helper said %q (%v), want %q; stderr:\n%s", line, err, want, p.Stderr())
	}
}

// TestProcessesWriteWhileOneReads: two other processes rewrite files and
// update the index while this one searches without pause. Every search
// answers, and at the end the index holds exactly the tree.
func TestProcessesWriteWhileOneReads(t *testing.T) {
	dir := writeTree(t, project)
	ix := openTest(t, dir, nil)
	ctx := context.Background()
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	const n = 40
	var readers []*bufio.Reader
	var procs []*safeexec.Process
	for _, id := range []string{"1", "2"} {
		p := startHelper(t, dir, fmt.Sprintf("writer %s %d", id, n))
		procs = append(procs, p)
		readers = append(readers, bufio.NewReader(p.Stdout))
	}
	done := make(chan struct{})
	go func() {
		for _, p := range procs {
			<-p.Done()
		}
		close(done)
	}()
	searches := 0
	hurried := openTest(t, dir, func(o *Options) { o.Budget = 20 * time.Millisecond })
	for running := true; running; {
		select {
		case <-done:
			running = false
		default:
		}
		q := fmt.Sprintf("tok%dx%d", searches%2+1, searches%n)
		if _, err := hurried.Search(ctx, q, SearchOptions{}); err != nil {
			t.Fatalf("search %d while other processes write: %v", searches, err)
		}
		searches++
	}
	for i, p := range procs {
		expectLine(t, p, readers[i], "done")
	}
	t.Logf("%d searches while two processes wrote", searches)

	fr, err := ix.Update(ctx)
	if err != nil || fr.State != Fresh || len(fr.Diagnostics) != 0 {
		t.Fatalf("final update: %+v, %v", fr, err)
	}
	st, err := ix.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := len(project) + 20; st.Files != want {
		t.Errorf("index holds %d files, want %d", st.Files, want)
	}
	for _, id := range []string{"1", "2"} {
		for i := n - 10; i < n; i++ {
			res, err := ix.Search(ctx, fmt.Sprintf("tok%sx%d", id, i), SearchOptions{})
			want := fmt.Sprintf("gen/w%s_%d.go", id, i%10)
			if err != nil || len(res.Hits) != 1 || res.Hits[0].Path != want {
				t.Errorf("the last token %s%d: %v, %v; want one hit in %s", id, i, hitPaths(res.Hits), err, want)
			}
		}
	}
}

// TestWriterLockHeldElsewhere: while another process holds the writer
// lock, a query does not wait past its budget: it answers from the last
// committed state and says which files are pending.
func TestWriterLockHeldElsewhere(t *testing.T) {
	dir := writeTree(t, project)
	ctx := context.Background()
	ix := openTest(t, dir, func(o *Options) { o.Budget = 100 * time.Millisecond })
	if _, err := ix.Update(ctx); err != nil {
		t.Fatal(err)
	}
	p := startHelper(t, dir, "holdlock")
	expectLine(t, p, bufio.NewReader(p.Stdout), "locked")

	writeFile(t, dir, "web/server.go", project["web/server.go"]+"\n// wombat\n")
	res, err := ix.Search(ctx, "validateSession", SearchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fr := res.Freshness
	if fr.State != Partial || fr.PendingCount != 1 || fr.Pending[0] != "web/server.go" || !hasDiagnostic(fr, "writer lock") {
		t.Errorf("freshness while the lock is held elsewhere: %+v", fr)
	}
	if len(res.Hits) == 0 || res.Hits[0].Path != "auth/session.go" {
		t.Errorf("hits from the last committed state: %v", hitPaths(res.Hits))
	}
	if res, _ := ix.Search(ctx, "wombat", SearchOptions{}); len(res.Hits) != 0 {
		t.Errorf("an unindexed edit answered: %v", hitPaths(res.Hits))
	}

	p.Close(time.Second)
	res, err = ix.Search(ctx, "wombat", SearchOptions{})
	if err != nil || res.Freshness.State != Fresh || len(res.Hits) != 1 {
		t.Errorf("after the lock was released: %+v, %v", res, err)
	}
}

// TestConcurrentQueries runs queries of every kind from many goroutines,
// on two indexes of one project, while files change (run it with -race).
func TestConcurrentQueries(t *testing.T) {
	dir := writeTree(t, project)
	a := openTest(t, dir, nil)
	b := openTest(t, dir, func(o *Options) { o.Budget = 5 * time.Millisecond })
	ctx := context.Background()
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	stop := make(chan struct{})
	for g := range 6 {
		ix := a
		if g%2 == 1 {
			ix = b
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				var err error
				switch (g + i) % 4 {
				case 0:
					_, err = ix.Search(ctx, "validate session", SearchOptions{})
				case 1:
					_, err = ix.Lookup(ctx, "Session")
				case 2:
					_, err = ix.Outline(ctx, "auth")
				case 3:
					_, err = ix.Status(ctx)
				}
				if err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	for i := range 30 {
		writeFile(t, dir, fmt.Sprintf("churn/f%d.go", i%5), fmt.Sprintf("package churn\n\nfunc Churn%d() {}\n", i))
		time.Sleep(2 * time.Millisecond)
	}
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	res, err := a.Lookup(ctx, "Churn29")
	if err != nil || len(res.Definitions) != 1 || res.Freshness.State != Fresh {
		t.Errorf("after the churn: %+v, %v", res, err)
	}
}

// TestUpdateLetsQueriesIn: a query on an Index that another goroutine is
// building whole (a server indexing in the background) waits for one
// round of the build, not for all of it, and answers from the files that
// mention its name.
func TestUpdateLetsQueriesIn(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector slows indexing unevenly")
	}
	files := map[string]string{"go.mod": "module m\n"}
	filler := strings.Repeat("// filler text that is indexed as a comment chunk\n", 400)
	for i := range 400 {
		files[fmt.Sprintf("a/f%04d.go", i)] = fmt.Sprintf("package a\n\n%sfunc F%d() int { return %d }\n", filler, i, i)
	}
	files["z/needle.go"] = "package z\n\nfunc Needle() {}\n"
	dir := writeTree(t, files)
	ix := openTest(t, dir, func(o *Options) { o.Budget = 200 * time.Millisecond })
	started := make(chan struct{})
	var once sync.Once
	var firstDone, firstTotal int
	ix.opts.Progress = func(done, total int) {
		once.Do(func() { firstDone, firstTotal = done, total; close(started) })
	}
	var updated atomic.Bool
	errc := make(chan error, 1)
	var ufr Freshness
	var uerr error
	go func() {
		fr, err := ix.Update(context.Background())
		ufr, uerr = fr, err
		updated.Store(true)
		if err == nil && fr.State != Fresh {
			err = fmt.Errorf("update left the index %s, %d pending", fr.State, fr.PendingCount)
		}
		errc <- err
	}()
	<-started
	res, err := ix.Lookup(context.Background(), "Needle")
	if err != nil {
		t.Fatal(err)
	}
	if updated.Load() {
		t.Fatalf("the lookup waited for the whole update (it started after %d of %d files; update %+v, %v)", firstDone, firstTotal, ufr, uerr)
	}
	if len(res.Definitions) != 1 || res.Definitions[0].Path != "z/needle.go" {
		t.Errorf("Lookup(Needle) during the update = %+v", res.Definitions)
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}
