package history

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// benchRepo builds, once per process, a repository of prometheus v0.308.0
// (the module cache copy has no .git) with a synthetic history of
// benchCommits commits: the first adds every file, each later one appends a
// line to three files, every fifth changes tsdb/head.go, every twentieth
// is a branch merged with a pull-request merge commit, every third has a
// squash subject "(#N)", and commit 150 renames tsdb/headstate.go to
// tsdb/head.go. It is built with git fast-import, so building takes
// seconds, not minutes.
const benchCommits = 400

var benchDir string

func benchRepo(b *testing.B) string { return benchRepoT(b) }

func benchRepoT(b testing.TB) string {
	b.Helper()
	if benchDir != "" {
		return benchDir
	}
	git := testtool.Require(b, "git", "apt-get install git")
	src := testtool.ModuleDir(b, "github.com/prometheus/prometheus@v0.308.0")
	dir, err := os.MkdirTemp("", "history-bench-")
	if err != nil {
		b.Fatal(err)
	}
	files := map[string][]byte{}
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(src, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		b.Fatal(err)
	}
	files["tsdb/headstate.go"] = files["tsdb/head.go"]
	delete(files, "tsdb/head.go")
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)

	var s bytes.Buffer
	when := time.Date(2023, 1, 1, 0, 0, 0, 0, time.UTC)
	commit := func(mark, from, merge int, msg string, changes func()) {
		when = when.Add(time.Hour)
		fmt.Fprintf(&s, "commit refs/heads/main\nmark :%d\n", mark)
		for _, who := range []string{"author", "committer"} {
			fmt.Fprintf(&s, "%s Dev %d <dev%d@example.com> %d +0000\n", who, mark%7, mark%7, when.Unix())
		}
		fmt.Fprintf(&s, "data %d\n%s\n", len(msg), msg)
		if from > 0 {
			fmt.Fprintf(&s, "from :%d\n", from)
		}
		if merge > 0 {
			fmt.Fprintf(&s, "merge :%d\n", merge)
		}
		changes()
	}
	put := func(p string) {
		fmt.Fprintf(&s, "M 100644 inline %s\ndata %d\n", p, len(files[p]))
		s.Write(files[p])
		s.WriteByte('\n')
	}
	touch := func(p string, i int) {
		files[p] = append(files[p], fmt.Sprintf("\n// change %d\n", i)...)
		put(p)
	}
	commit(1, 0, 0, "Import prometheus v0.308.0", func() {
		for _, p := range paths {
			put(p)
		}
	})
	head := "tsdb/headstate.go"
	prev, mark := 1, 1
	for i := 2; i <= benchCommits; i++ {
		some := []string{paths[(i*7919)%len(paths)], paths[(i*104729)%len(paths)], paths[(i*1299709)%len(paths)]}
		msg := fmt.Sprintf("Change %d", i)
		if i%3 == 0 {
			msg = fmt.Sprintf("Improve part %d (#%d)", i, 1000+i)
		}
		switch {
		case i == 150:
			mark++
			commit(mark, prev, 0, "Rename headstate.go to head.go (#900)", func() {
				files["tsdb/head.go"] = files[head]
				delete(files, head)
				fmt.Fprintf(&s, "D %s\n", head)
				head = "tsdb/head.go"
				put(head)
			})
		case i%20 == 0:
			mark++
			side := mark
			commit(side, prev, 0, msg, func() {
				touch(head, i)
				touch(some[0], i)
			})
			mark++
			commit(mark, prev, side, fmt.Sprintf("Merge pull request #%d from dev/branch-%d\n\nBranch %d's work", 2000+i, i, i), func() {
				put(head)
				put(some[0])
			})
		default:
			mark++
			commit(mark, prev, 0, msg, func() {
				for _, p := range some {
					if p != head {
						touch(p, i)
					}
				}
				if i%5 == 0 {
					touch(head, i)
				}
			})
		}
		prev = mark
	}
	run := func(stdin []byte, args ...string) {
		res, err := safeexec.Run(context.Background(), safeexec.Invocation{Path: git, Args: args, Dir: dir,
			Env: []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + dir}, Stdin: bytes.NewReader(stdin), Timeout: 5 * time.Minute})
		if err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, res.Stderr)
		}
	}
	run(nil, "init", "-q", "-b", "main")
	run(s.Bytes(), "fast-import", "--quiet")
	run(nil, "reset", "-q", "--hard", "main")
	// As in a checkout that is not brand new: the index is newer than
	// every file, so git need not hash "racily clean" files on each diff.
	time.Sleep(1100 * time.Millisecond)
	run(nil, "update-index", "-q", "--refresh")
	benchDir = dir
	return dir
}

// TestTraceBench prints what each git command of the benchmarks costs,
// when HISTORY_TRACE is set.
func TestTraceBench(t *testing.T) {
	if os.Getenv("HISTORY_TRACE") == "" {
		t.Skip("set HISTORY_TRACE=1 to trace the benchmarks' git commands")
	}
	dir := benchRepoT(t)
	traceGit = func(args []string, d time.Duration) {
		t.Logf("%8.1f ms git %v", float64(d.Microseconds())/1000, args[:min(len(args), 6)])
	}
	defer func() { traceGit = nil }()
	p := New(Options{Dir: dir})
	for _, q := range []evidence.Query{{Path: "tsdb/head.go", Line: 1200}, {Text: "what changed?"}} {
		start := time.Now()
		if _, err := p.Gather(context.Background(), q); err != nil {
			t.Fatal(err)
		}
		t.Logf("%+v: %v", q, time.Since(start))
	}
}

func TestMain(m *testing.M) {
	code := m.Run()
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

// BenchmarkFileHistory is what one history question about a file costs:
// open the repository (version check cached, rev-parse, config) and read
// the file's last 20 commits, following its rename, with pull requests.
func BenchmarkFileHistory(b *testing.B) {
	dir := benchRepo(b)
	ctx := context.Background()
	for b.Loop() {
		repo, err := Open(ctx, Options{Dir: dir})
		if err != nil {
			b.Fatal(err)
		}
		h, err := repo.Log(ctx, "tsdb/head.go")
		if err != nil || len(h.Entries) != DefaultLimit {
			b.Fatalf("Log = %d entries, %v", len(h.Entries), err)
		}
		repo.Close()
	}
}

// BenchmarkFileHistoryAll reads the file's whole history (about a hundred
// commits, across the rename).
func BenchmarkFileHistoryAll(b *testing.B) {
	dir := benchRepo(b)
	ctx := context.Background()
	for b.Loop() {
		repo, err := Open(ctx, Options{Dir: dir, Limit: 1000})
		if err != nil {
			b.Fatal(err)
		}
		h, err := repo.Log(ctx, "tsdb/head.go")
		if err != nil || len(h.Entries) < 80 || h.Entries[len(h.Entries)-1].Path != "tsdb/headstate.go" {
			b.Fatalf("Log = %d entries, %v", len(h.Entries), err)
		}
		repo.Close()
	}
}

// BenchmarkProviderFileLine is the provider's answer to a position: the
// file's history and the blame of one line.
func BenchmarkProviderFileLine(b *testing.B) {
	dir := benchRepo(b)
	p := New(Options{Dir: dir})
	ctx := context.Background()
	for b.Loop() {
		resp, err := p.Gather(ctx, evidence.Query{Path: "tsdb/head.go", Line: 1200})
		if err != nil || len(resp.Records) < 20 {
			b.Fatalf("Gather = %d records, %v", len(resp.Records), err)
		}
	}
}

// BenchmarkWhatChanged is the provider's answer to "what changed?":
// uncommitted changes and the recent commits.
func BenchmarkWhatChanged(b *testing.B) {
	dir := benchRepo(b)
	p := New(Options{Dir: dir})
	ctx := context.Background()
	for b.Loop() {
		if _, err := p.Gather(ctx, evidence.Query{Text: "what changed?"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCheckConfig is what Open adds before its first git command:
// finding the repository and reading and judging its configuration, for
// a clone's configuration and for one of 1 MiB (the most it reads).
func BenchmarkCheckConfig(b *testing.B) {
	clone := "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true\n" +
		"[remote \"origin\"]\n\turl = https://github.com/prometheus/prometheus.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n" +
		"[branch \"main\"]\n\tremote = origin\n\tmerge = refs/heads/main\n"
	big := clone + "[branch \"x\"]\n" + strings.Repeat("\tdescription = 0123456789012345678901234567890123456789\n", (1<<20-len(clone)-20)/57)
	for _, tc := range []struct{ name, config string }{{"clone", clone}, {"1MiB", big}} {
		b.Run(tc.name, func(b *testing.B) {
			dir := b.TempDir()
			for _, d := range []string{".git/objects", ".git/refs", "a/b/c"} {
				if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
					b.Fatal(err)
				}
			}
			os.WriteFile(filepath.Join(dir, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
			os.WriteFile(filepath.Join(dir, ".git", "config"), []byte(tc.config), 0o644)
			b.SetBytes(int64(len(tc.config)))
			for b.Loop() {
				c, err := CheckConfig(filepath.Join(dir, "a", "b", "c"))
				if err != nil || len(c.Risks) != 0 {
					b.Fatal(c, err)
				}
			}
		})
	}
}
