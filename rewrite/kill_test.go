package rewrite

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// helperEnv names the helper a re-executed test binary runs instead of
// the tests.
const helperEnv = "CODECORTEX_REWRITE_TEST_HELPER"

var killTrials = flag.Int("rewrite.kill-trials", 0, "trials of TestKillDuringApply (default 20, 5 with -short; also CODECORTEX_REWRITE_KILL_TRIALS)")

func TestMain(m *testing.M) {
	if h := os.Getenv(helperEnv); h != "" {
		os.Exit(runHelper(strings.Fields(h)))
	}
	cleanup := testtool.IsolateUserConfig()
	code := m.Run()
	cleanup()
	os.Exit(code)
}

// runHelper is a second process working on a project:
//
//   - "apply DIR ID": open DIR, print "ready PID", apply preview ID and
//     print "done OUTCOME" (or "error ...").
func runHelper(args []string) int {
	switch args[0] {
	case "apply":
		r, err := Open(Options{Dir: args[1], SkipValidation: true})
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		testHook = func(event string) { fmt.Println(event) }
		fmt.Printf("ready %d\n", os.Getpid())
		res, err := r.Apply(context.Background(), args[2], Authorization{Principal: "helper", Via: "test"})
		if err != nil {
			fmt.Println("error", err)
			return 1
		}
		fmt.Println("done", res.Outcome)
		return 0
	}
	fmt.Fprintln(os.Stderr, "unknown helper", args)
	return 2
}

// startHelper runs this test binary as a helper process.
func startHelper(t testing.TB, args ...string) *safeexec.Process {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	p, err := safeexec.Start(context.Background(), safeexec.Invocation{
		Path: exe, Args: []string{"-test.run=^$"}, Dir: filepath.Dir(exe),
		Env: append(os.Environ(), helperEnv+"="+strings.Join(args, " ")),
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// phase says how far an apply got, from what it left in the journal
// directory.
func phase(t testing.TB, dir string) string {
	t.Helper()
	ents, _ := os.ReadDir(filepath.Join(dir, JournalDir))
	if len(ents) == 0 {
		return "no journal (before replacing, or after)"
	}
	name := ents[0].Name()
	if _, _, ok := retired(name); ok {
		return "journal retired, not removed"
	}
	jd := filepath.Join(dir, JournalDir, name)
	if _, err := os.Stat(filepath.Join(jd, committedName)); err == nil {
		return "committed"
	}
	if _, err := os.Stat(filepath.Join(jd, journalName)); err == nil {
		return "journal written, replacing"
	}
	return "writing the journal"
}

// TestKillDuringApply kills, with SIGKILL at a random moment, a process
// applying a preview of 50 files, then opens the project as the next
// process would: Open's recovery must leave every file old or every file
// new, never a mix, with no temporary file or journal left, and say which.
// The number of trials is -rewrite.kill-trials (or
// CODECORTEX_REWRITE_KILL_TRIALS); the phases the kills landed in are
// logged.
func TestKillDuringApply(t *testing.T) {
	trials := 20
	if testing.Short() {
		trials = 5
	}
	if n, err := strconv.Atoi(os.Getenv("CODECORTEX_REWRITE_KILL_TRIALS")); err == nil && n > 0 {
		trials = n
	}
	if *killTrials > 0 {
		trials = *killTrials
	}
	ctx := context.Background()
	// On disk, so that replacing takes the time its syncs take.
	base := t.TempDir()
	old, new, edits := txnProject(t, base, 50, 2000, 400)
	r0 := openTest(t, base, func(o *Options) { o.Limits = Limits{MaxMatches: 1 << 20, MaxBytes: 1 << 30} })
	p, err := r0.PreviewEdits(ctx, "old_value to new_value", edits)
	if err != nil {
		t.Fatal(err)
	}
	r0.Close()

	// One apply left alone says how long applying takes, from "ready" to
	// the end, and how long replacing the files (step 8) takes.
	calibrate := func() (total, replace time.Duration) {
		dir := copyProject(t, base)
		h := startHelper(t, "apply", dir, p.ID)
		defer h.Close(time.Second)
		out := bufio.NewReader(h.Stdout)
		var ready, begin time.Time
		for {
			line, err := out.ReadString('\n')
			switch {
			case strings.HasPrefix(line, "ready "):
				ready = time.Now()
			case line == "replace-begin\n":
				begin = time.Now()
			case line == "replace-end\n":
				replace = time.Since(begin)
			case strings.HasPrefix(line, "done applied"):
				total = time.Since(ready)
				if s := treeState(t, dir, old, new); s != "new" {
					t.Fatalf("an apply left alone left the tree %s", s)
				}
				return total, replace
			case err != nil || strings.HasPrefix(line, "error"):
				t.Fatalf("helper: %q %v %s", line, err, h.Stderr())
			}
		}
	}
	total, replace := calibrate()
	t.Logf("an apply of %d files takes %v in the helper, replacing the files %v", len(p.Files), total, replace)

	seed := time.Now().UnixNano()
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	phases := map[string]int{}
	mixed := 0
	outcomes := map[string]int{}
	for trial := range trials {
		dir := copyProject(t, base)
		h := startHelper(t, "apply", dir, p.ID)
		out := bufio.NewReader(h.Stdout)
		line, _ := out.ReadString('\n')
		pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(line, "ready ")))
		if err != nil {
			t.Fatalf("helper: %q %s", line, h.Stderr())
		}
		// Most kills land while the files are replaced: a random moment
		// after the helper says it begins; the others anywhere in the apply.
		var delay time.Duration
		if rng.IntN(5) > 0 {
			line, _ = out.ReadString('\n')
			if line != "replace-begin\n" {
				t.Fatalf("helper: %q %s", line, h.Stderr())
			}
			delay = time.Duration(rng.Int64N(int64(replace + replace/5 + 1)))
		} else {
			delay = time.Duration(rng.Int64N(int64(total + total/10 + 1)))
		}
		time.Sleep(delay)
		if p, err := os.FindProcess(pid); err == nil {
			_ = p.Kill()
		}
		<-h.Done()
		h.Close(0)
		ph := phase(t, dir)
		phases[ph]++
		if s := treeState(t, dir, old, new); s != "old" && s != "new" {
			mixed++ // what the kill left, before recovery
		}

		r, err := Open(Options{Dir: dir, SkipValidation: true})
		if err != nil {
			t.Fatal(err)
		}
		recs, rerr := r.Recover(context.Background())
		r.Close()
		state := treeState(t, dir, old, new)
		if rerr != nil || (state != "old" && state != "new") {
			t.Fatalf("trial %d (seed %d, killed after %v, %s): recovery %v left the tree %s", trial, seed, delay, ph, rerr, state)
		}
		for _, rec := range recs {
			if want := map[Outcome]string{RolledBack: "old", Completed: "new"}[rec.Outcome]; want != state {
				t.Fatalf("trial %d (seed %d, %s): recovery says %s, the tree is %s", trial, seed, ph, rec.Outcome, state)
			}
		}
		if ents, _ := os.ReadDir(filepath.Join(dir, JournalDir)); len(ents) != 0 {
			t.Fatalf("trial %d: journal left after recovery: %v", trial, ents)
		}
		how := state
		if len(recs) > 0 {
			how += " (recovered: " + string(recs[0].Outcome) + ")"
		}
		outcomes[how]++
		os.RemoveAll(dir)
	}
	t.Logf("%d trials (seed %d); killed while: %s; %d left files mixed or temporary files behind; after recovery: %s",
		trials, seed, counts(phases), mixed, counts(outcomes))
}

// counts prints a tally.
func counts(m map[string]int) string {
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
