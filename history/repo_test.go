package history

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/internal/testtool"
)

// A testRepo is a git repository built by a test with the git binary.
type testRepo struct {
	t    testing.TB
	git  string
	dir  string
	tick int // commits so far: each gets the next minute as its date
}

func newTestRepo(t testing.TB) *testRepo {
	t.Helper()
	r := &testRepo{t: t, git: testtool.Require(t, "git", "apt-get install git"), dir: t.TempDir()}
	r.run("init", "-q", "-b", "main")
	return r
}

// env is a plain environment for the test's own git commands: no user or
// system configuration, a fixed identity and clock.
func (r *testRepo) env() []string {
	date := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(r.tick) * time.Minute).Format(time.RFC3339)
	return []string{
		"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME=" + r.dir,
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE=" + date, "GIT_COMMITTER_DATE=" + date,
		"PATH=" + os.Getenv("PATH"), "LC_ALL=C",
	}
}

// run runs git in the repository and returns its output; a failure fails
// the test.
func (r *testRepo) run(args ...string) string {
	r.t.Helper()
	return r.runIn(r.dir, nil, args...)
}

func (r *testRepo) runIn(dir string, extraEnv []string, args ...string) string {
	r.t.Helper()
	return r.runStdin(dir, extraEnv, "", args...)
}

func (r *testRepo) runStdin(dir string, extraEnv []string, stdin string, args ...string) string {
	r.t.Helper()
	res, err := safeexec.Run(context.Background(), safeexec.Invocation{
		Path: r.git, Args: args, Dir: dir, Env: append(r.env(), extraEnv...), Timeout: time.Minute,
		Stdin: strings.NewReader(stdin)})
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, res.Stderr)
	}
	return string(res.Stdout)
}

// write writes files (slash-separated path → content) into the work tree.
func (r *testRepo) write(files map[string]string) {
	r.t.Helper()
	testtool.WriteFiles(r.t, r.dir, files)
}

// commit stages everything and commits it with msg, as author.
func (r *testRepo) commit(msg string, author ...string) string {
	r.t.Helper()
	r.run("add", "-A")
	return r.commitStaged(msg, author...)
}

func (r *testRepo) commitStaged(msg string, author ...string) string {
	r.t.Helper()
	r.tick++
	var env []string
	if len(author) > 0 {
		env = []string{"GIT_AUTHOR_NAME=" + author[0], "GIT_AUTHOR_EMAIL=" + strings.ToLower(author[0]) + "@example.com"}
	}
	r.runIn(r.dir, env, "commit", "-q", "--allow-empty", "-m", msg)
	return r.head()
}

func (r *testRepo) head() string {
	r.t.Helper()
	return strings.TrimSpace(r.run("rev-parse", "HEAD"))
}

// merge merges branch into the current branch with a merge commit whose
// message is msg.
func (r *testRepo) merge(branch, msg string) string {
	r.t.Helper()
	r.tick++
	r.run("merge", "-q", "--no-ff", "-m", msg, branch)
	return r.head()
}

// date is the date of the n-th commit (one-based) the repository made.
func date(n int) time.Time {
	return time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(n) * time.Minute)
}

func (r *testRepo) open(t testing.TB, opts Options) *Repo {
	t.Helper()
	if opts.Dir == "" {
		opts.Dir = r.dir
	}
	repo, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { repo.Close() })
	return repo
}

func (r *testRepo) path(rel string) string { return filepath.Join(r.dir, filepath.FromSlash(rel)) }

func lines(n int, prefix string) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%s %d\n", prefix, i)
	}
	return b.String()
}
