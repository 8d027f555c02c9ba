package memory

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
)

// checkAll verifies that the memory holds exactly the texts want and that
// every audit line is whole.
func checkAll(t *testing.T, dir string, want map[string]bool) {
	t.Helper()
	s := openStore(t, dir, nil)
	all, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, e := range all {
		got[e.Text] = true
	}
	for text := range want {
		if !got[text] {
			t.Errorf("entry %q was lost", text)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d entries, want %d", len(got), len(want))
	}
	rep, err := s.Verify(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Intact != len(want) || rep.AuditLines != len(want) {
		t.Errorf("Verify = %d intact, %d audit lines, problems %v, unreviewed %v; want %d, %d, none", rep.Intact, rep.AuditLines, rep.Problems, rep.Unreviewed, len(want), len(want))
	}
	audit, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(AuditLog)))
	for i, ln := range bytes.Split(bytes.TrimSuffix(audit, []byte("\n")), []byte("\n")) {
		if _, err := parseAuditLine(ln); err != nil {
			t.Errorf("audit line %d is torn: %v: %q", i+1, err, ln)
		}
	}
}

// Goroutines writing at once, through one store and through several,
// lose nothing.
func TestConcurrentGoroutines(t *testing.T) {
	dir := t.TempDir()
	shared := openStore(t, dir, nil)
	const writers, each = 8, 25
	want := map[string]bool{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range writers {
		s := shared
		if w%2 == 1 {
			s = openStore(t, dir, nil) // a store of its own
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				text := fmt.Sprintf("writer %d entry %d", w, i)
				if _, err := s.Remember(context.Background(), Entry{Type: Gotcha, Text: text, Author: "w" + strconv.Itoa(w)}); err != nil {
					t.Error(err)
					return
				}
				if i%5 == 0 {
					_, _ = s.Recall(Query{Text: "entry"}) // readers meanwhile
				}
				mu.Lock()
				want[text] = true
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	checkAll(t, dir, want)
}

// TestHelperWriter is a writer process for TestConcurrentProcesses; it does
// nothing unless that test started it.
func TestHelperWriter(t *testing.T) {
	dir, id := os.Getenv("MEMORY_HELPER_DIR"), os.Getenv("MEMORY_HELPER_ID")
	if dir == "" {
		t.Skip("a helper process of TestConcurrentProcesses")
	}
	n, _ := strconv.Atoi(os.Getenv("MEMORY_HELPER_N"))
	s, err := Open(Options{Dir: dir, Author: "process " + id, Seal: testSeal})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// Start together: wait for the go file.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "go")); err == nil {
			break
		}
	}
	for i := range n {
		if _, err := s.Remember(context.Background(), Entry{Type: Failure, Text: fmt.Sprintf("process %s entry %d", id, i)}); err != nil {
			t.Fatal(err)
		}
	}
}

// Separate processes writing the same memory at once lose nothing.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	const procs, each = 4, 40
	var wg sync.WaitGroup
	errs := make([]error, procs)
	outs := make([][]byte, procs)
	for p := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := safeexec.Run(context.Background(), safeexec.Invocation{
				Path: exe, Args: []string{"-test.run=^TestHelperWriter$", "-test.count=1"}, Dir: dir,
				Env: append(safeexec.Environ("TMPDIR", "GOCOVERDIR"), "MEMORY_HELPER_DIR="+dir,
					"MEMORY_HELPER_ID="+strconv.Itoa(p), "MEMORY_HELPER_N="+strconv.Itoa(each)),
				Timeout: 2 * time.Minute,
			})
			errs[p], outs[p] = err, append(res.Stdout, res.Stderr...)
		}()
	}
	time.Sleep(200 * time.Millisecond) // let them all start
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	for p := range procs {
		if errs[p] != nil {
			t.Fatalf("writer process %d: %v\n%s", p, errs[p], outs[p])
		}
	}
	want := map[string]bool{}
	for p := range procs {
		for i := range each {
			want[fmt.Sprintf("process %d entry %d", p, i)] = true
		}
	}
	checkAll(t, dir, want)
}
