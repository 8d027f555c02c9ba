package safeexec

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Programs under test. /bin/sh appears only as such a program, given by
// absolute path with an explicit argv, to build process trees to kill.
const (
	sh  = "/bin/sh"
	cat = "/bin/cat"
	env = "/usr/bin/env"
)

func need(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			if os.Getenv("CI") == "true" { // testtool.InCI, which would import this package
				t.Fatalf("%s is required in CI: %v", p, err)
			}
			t.Skipf("%s not on this machine: %v", p, err)
		}
	}
}

// gone waits until pid no longer runs (absent, or a zombie nobody reaped),
// and fails the test if it still runs after a generous wait.
func gone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		// The state follows the parenthesised command name.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			return
		}
		if time.Now().After(deadline) {
			killPid(pid)
			t.Fatalf("process %d still runs: %s", pid, stat)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// killPid kills the process pid, if it still runs.
func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}

func readPid(t *testing.T, file string) int {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("pid file: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("pid file %q: %v", b, err)
	}
	return pid
}

func TestInvalidInvocations(t *testing.T) {
	need(t, sh)
	dir := t.TempDir()
	marker := filepath.Join(dir, "ran")
	script := ": > " + marker
	tests := []struct {
		name string
		inv  Invocation
		want error
	}{
		{"bare name", Invocation{Path: "sh", Args: []string{"-c", script}}, ErrNotAbsolute},
		{"relative path", Invocation{Path: "./sh", Args: []string{"-c", script}}, ErrNotAbsolute},
		{"empty path", Invocation{Path: "", Args: []string{"-c", script}}, ErrNotAbsolute},
		{"NUL in an argument", Invocation{Path: sh, Args: []string{"-c", script, "a\x00b"}}, ErrInvalid},
		{"NUL in the path", Invocation{Path: sh + "\x00x", Args: []string{"-c", script}}, ErrInvalid},
		{"NUL in the directory", Invocation{Path: sh, Args: []string{"-c", script}, Dir: dir + "\x00"}, ErrInvalid},
		{"NUL in the environment", Invocation{Path: sh, Args: []string{"-c", script}, Env: []string{"A=b\x00c"}}, ErrInvalid},
		{"environment entry without =", Invocation{Path: sh, Args: []string{"-c", script}, Env: []string{"A"}}, ErrInvalid},
		{"environment entry without name", Invocation{Path: sh, Args: []string{"-c", script}, Env: []string{"=x"}}, ErrInvalid},
		{"relative directory", Invocation{Path: sh, Args: []string{"-c", script}, Dir: "sub"}, ErrInvalid},
		{"negative timeout", Invocation{Path: sh, Args: []string{"-c", script}, Timeout: -1}, ErrInvalid},
		{"negative cap", Invocation{Path: sh, Args: []string{"-c", script}, MaxStdout: -1}, ErrInvalid},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tc.inv); !errors.Is(err, tc.want) {
				t.Errorf("Run: %v, want %v", err, tc.want)
			}
			if _, err := Start(context.Background(), tc.inv); !errors.Is(err, tc.want) {
				t.Errorf("Start: %v, want %v", err, tc.want)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatal("the program ran")
			}
		})
	}
}

func TestArgumentsAreNotShellSyntax(t *testing.T) {
	need(t, "/bin/echo")
	dir := t.TempDir()
	arg := "$(touch " + filepath.Join(dir, "pwned") + "); `id` | > " + filepath.Join(dir, "x") + " && *"
	res, err := Run(context.Background(), Invocation{Path: "/bin/echo", Args: []string{arg}})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(arg+"\n", string(res.Stdout)); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("the argument was interpreted: %v", entries)
	}
}

func TestEnvironmentIsEmptyUnlessGiven(t *testing.T) {
	need(t, env)
	t.Setenv("SAFEEXEC_PARENT_SECRET", "leak")
	tests := []struct {
		name string
		inv  Invocation
		want string
	}{
		{"nil", Invocation{Path: env}, ""},
		{"nil with a directory", Invocation{Path: env, Dir: t.TempDir()}, ""},
		{"given", Invocation{Path: env, Env: []string{"A=1", "B=two words"}}, "A=1\nB=two words\n"},
		{"passed through by name", Invocation{Path: env, Env: Environ("SAFEEXEC_PARENT_SECRET", "SAFEEXEC_UNSET")}, "SAFEEXEC_PARENT_SECRET=leak\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), tc.inv)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, string(res.Stdout)); diff != "" {
				t.Errorf("environment (-want +got):\n%s", diff)
			}
		})
	}
}

func TestDirAndStdin(t *testing.T) {
	need(t, "/bin/pwd", cat)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), Invocation{Path: "/bin/pwd", Args: []string{"-P"}, Dir: dir})
	if err != nil || strings.TrimSpace(string(res.Stdout)) != dir {
		t.Errorf("pwd = %q, %v; want %q", res.Stdout, err, dir)
	}
	res, err = Run(context.Background(), Invocation{Path: cat, Stdin: strings.NewReader("from stdin")})
	if err != nil || string(res.Stdout) != "from stdin" {
		t.Errorf("cat = %q, %v", res.Stdout, err)
	}
}

func TestExitStatus(t *testing.T) {
	need(t, sh)
	tests := []struct {
		name     string
		script   string
		wantCode int // -1: killed by a signal; 0: success
		wantOut  string
	}{
		{"success", "echo ok", 0, "ok\n"},
		{"exit 1", "echo partial; exit 1", 1, "partial\n"},
		{"exit 3", "exit 3", 3, ""},
		{"exit 255", "exit 255", 255, ""},
		{"killed by a signal", "kill -KILL $$", -1, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), Invocation{Path: sh, Args: []string{"-c", tc.script}})
			if res.ExitCode != tc.wantCode {
				t.Errorf("ExitCode = %d, want %d", res.ExitCode, tc.wantCode)
			}
			if diff := cmp.Diff(tc.wantOut, string(res.Stdout)); diff != "" {
				t.Errorf("stdout (-want +got):\n%s", diff)
			}
			if tc.wantCode == 0 {
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				return
			}
			var ee *ExitError
			if !errors.As(err, &ee) {
				t.Fatalf("err = %v (%T), want *ExitError", err, err)
			}
			if diff := cmp.Diff(&ExitError{Path: sh, Code: tc.wantCode}, ee); diff != "" {
				t.Errorf("ExitError (-want +got):\n%s", diff)
			}
			if errors.Is(err, ErrTimeout) {
				t.Error("an exit reads as a timeout")
			}
		})
	}
}

func TestMissingExecutable(t *testing.T) {
	_, err := Run(context.Background(), Invocation{Path: "/nonexistent/program"})
	var ee *ExitError
	if err == nil || errors.As(err, &ee) || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("err = %v, want a start error matching os.ErrNotExist", err)
	}
	if _, err := Start(context.Background(), Invocation{Path: "/nonexistent/program"}); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("Start err = %v", err)
	}
}

func TestTimeoutInterruptsFirst(t *testing.T) {
	need(t, sh)
	// The program finishes cleanly on the interrupt, within the grace
	// period: its last words are kept and the run still reads as a timeout.
	res, err := Run(context.Background(), Invocation{
		Path:    sh,
		Args:    []string{"-c", `trap 'echo interrupted; exit 0' INT; echo started; while :; do /bin/sleep 1; done`},
		Timeout: 300 * time.Millisecond,
		Grace:   20 * time.Second,
	})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if diff := cmp.Diff("started\ninterrupted\n", string(res.Stdout)); diff != "" {
		t.Errorf("stdout (-want +got):\n%s", diff)
	}
}

func TestTimeoutKillsGroupWhenInterruptIgnored(t *testing.T) {
	need(t, sh, "/bin/sleep")
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "grandchild")
	// The shell ignores SIGINT, and so does its background grandchild (a
	// non-interactive shell starts background jobs with SIGINT ignored).
	script := `trap '' INT; /bin/sleep 300 & echo $! > "$1"; echo waiting; wait`
	res, err := Run(context.Background(), Invocation{
		Path:    sh,
		Args:    []string{"-c", script, "sh", pidFile},
		Timeout: 300 * time.Millisecond,
		Grace:   200 * time.Millisecond,
	})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	if res.ExitCode != -1 {
		t.Errorf("ExitCode = %d, want -1 (killed)", res.ExitCode)
	}
	if string(res.Stdout) != "waiting\n" {
		t.Errorf("stdout = %q", res.Stdout)
	}
	gone(t, readPid(t, pidFile))
}

func TestTrappedInterruptStillDies(t *testing.T) {
	need(t, sh)
	// The program notes the interrupt and carries on; the kill follows.
	res, err := Run(context.Background(), Invocation{
		Path:    sh,
		Args:    []string{"-c", `trap 'echo got INT' INT; echo $$; while :; do /bin/sleep 0.05; done`},
		Timeout: 300 * time.Millisecond,
		Grace:   300 * time.Millisecond,
	})
	if !errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want ErrTimeout", err)
	}
	lines := strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	if len(lines) < 2 || lines[1] != "got INT" {
		t.Fatalf("stdout = %q, want the pid then the interrupt noted", res.Stdout)
	}
	pid, err := strconv.Atoi(lines[0])
	if err != nil {
		t.Fatal(err)
	}
	gone(t, pid)
}

func TestCallerCancellation(t *testing.T) {
	need(t, sh, "/bin/sleep")
	pidFile := filepath.Join(t.TempDir(), "grandchild")
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		// The shell creates the file before echo writes the pid (in one
		// write, newline last): cancelling on the empty file killed the
		// group before the pid was there to check.
		for {
			if b, err := os.ReadFile(pidFile); err == nil && bytes.HasSuffix(b, []byte("\n")) {
				cancel()
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	_, err := Run(ctx, Invocation{
		Path:  sh,
		Args:  []string{"-c", `/bin/sleep 300 & echo $! > "$1"; wait`, "sh", pidFile},
		Grace: 200 * time.Millisecond,
	})
	if !errors.Is(err, context.Canceled) || errors.Is(err, ErrTimeout) {
		t.Fatalf("err = %v, want context.Canceled and not ErrTimeout", err)
	}
	gone(t, readPid(t, pidFile))

	done, stop := context.WithCancel(context.Background())
	stop()
	if _, err := Run(done, Invocation{Path: sh, Args: []string{"-c", "exit 0"}}); !errors.Is(err, context.Canceled) {
		t.Errorf("already cancelled: err = %v", err)
	}
}

func TestLeftoverGrandchildIsKilledAtExit(t *testing.T) {
	need(t, sh, "/bin/sleep")
	// The program exits at once, leaving a grandchild that holds its
	// standard output. Run returns the program's own result without
	// waiting for the grace period, and the grandchild dies with the group.
	res, err := Run(context.Background(), Invocation{
		Path:  sh,
		Args:  []string{"-c", `/bin/sleep 300 & echo $!`},
		Grace: time.Minute,
	})
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(res.Stdout)))
	if err != nil {
		t.Fatalf("stdout %q: %v", res.Stdout, err)
	}
	gone(t, pid)
}

func TestEscapedGrandchildCannotHoldTheCaller(t *testing.T) {
	need(t, sh, "/usr/bin/setsid", "/bin/sleep")
	// A grandchild that left the process group cannot be killed with it;
	// Run stops reading its output after the grace period.
	pidFile := filepath.Join(t.TempDir(), "escapee")
	_, err := Run(context.Background(), Invocation{
		Path:  sh,
		Args:  []string{"-c", `/usr/bin/setsid /bin/sleep 300 & echo $! > "$1"`, "sh", pidFile},
		Grace: 100 * time.Millisecond,
	})
	if err != nil {
		t.Fatalf("err = %v", err)
	}
	pid := readPid(t, pidFile)
	killPid(pid)
	gone(t, pid)
}

func TestOutputCaps(t *testing.T) {
	need(t, sh)
	// 1000 bytes to stdout, 1000 to stderr.
	script := `i=0; while [ $i -lt 100 ]; do printf 0123456789; printf abcdefghij >&2; i=$((i+1)); done`
	tests := []struct {
		name               string
		maxOut, maxErr     int64
		wantOut, wantErr   int
		truncOut, truncErr bool
	}{
		{"defaults", 0, 0, 1000, 1000, false, false},
		{"stdout capped", 100, 0, 100, 1000, true, false},
		{"stderr capped", 0, 7, 1000, 7, false, true},
		{"both capped", 1, 1, 1, 1, true, true},
		{"exactly at the cap", 1000, 1000, 1000, 1000, false, false},
		{"one below", 999, 999, 999, 999, true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Run(context.Background(), Invocation{Path: sh, Args: []string{"-c", script},
				MaxStdout: tc.maxOut, MaxStderr: tc.maxErr})
			if err != nil {
				t.Fatal(err)
			}
			type shape struct {
				Out, Err           int
				TruncOut, TruncErr bool
			}
			want := shape{tc.wantOut, tc.wantErr, tc.truncOut, tc.truncErr}
			got := shape{len(res.Stdout), len(res.Stderr), res.StdoutTruncated, res.StderrTruncated}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(strings.Repeat("0123456789", 100), string(res.Stdout)) {
				t.Errorf("stdout is not the first bytes written: %q", res.Stdout)
			}
		})
	}
}

func TestLookPath(t *testing.T) {
	need(t, sh)
	p, err := LookPath("sh")
	if err != nil || !filepath.IsAbs(p) {
		t.Errorf("LookPath(sh) = %q, %v", p, err)
	}
	if p, err := LookPath(sh); err != nil || p != sh {
		t.Errorf("LookPath(%s) = %q, %v", sh, p, err)
	}
	for _, name := range []string{"", "codecortex-no-such-program", "/nonexistent/x"} {
		if _, err := LookPath(name); err == nil {
			t.Errorf("LookPath(%q) succeeded", name)
		}
	}
}

func TestStartEchoRoundTrip(t *testing.T) {
	need(t, cat)
	p, err := Start(context.Background(), Invocation{Path: cat})
	if err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(p.Stdout)
	for _, line := range []string{"hello\n", "second line\n"} {
		if _, err := io.WriteString(p.Stdin, line); err != nil {
			t.Fatal(err)
		}
		got, err := r.ReadString('\n')
		if err != nil || got != line {
			t.Fatalf("read %q, %v; want %q", got, err, line)
		}
	}
	// cat finishes when its input closes.
	if err := p.Close(10 * time.Second); err != nil {
		t.Errorf("Close = %v", err)
	}
	select {
	case <-p.Done():
	default:
		t.Error("Done not closed after Close")
	}
	if _, err := r.ReadByte(); err == nil {
		t.Error("Stdout still readable after Close")
	}
}

func TestStartKeepsLastWords(t *testing.T) {
	need(t, sh)
	p, err := Start(context.Background(), Invocation{Path: sh, Args: []string{"-c", "echo last words; echo oops >&2"}})
	if err != nil {
		t.Fatal(err)
	}
	<-p.Done()
	// The program is gone; what it wrote is still there to read.
	got, err := io.ReadAll(p.Stdout)
	if err != nil || string(got) != "last words\n" {
		t.Errorf("stdout = %q, %v", got, err)
	}
	if string(p.Stderr()) != "oops\n" {
		t.Errorf("stderr = %q", p.Stderr())
	}
	if err := p.Close(time.Second); err != nil {
		t.Errorf("Close = %v", err)
	}
}

func TestStartCloseKillsGroup(t *testing.T) {
	need(t, sh, "/bin/sleep")
	// Ignores EOF on stdin and SIGINT: only the group kill ends it.
	p, err := Start(context.Background(), Invocation{Path: sh,
		Args: []string{"-c", `trap '' INT; /bin/sleep 300 & echo $! $$; wait`}})
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(line)
	err = p.Close(100 * time.Millisecond)
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Errorf("Close = %v, want the kill reported", err)
	}
	for _, s := range pids {
		pid, _ := strconv.Atoi(s)
		gone(t, pid)
	}
}

func TestStartContextCancelKillsGroup(t *testing.T) {
	need(t, sh, "/bin/sleep")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	p, err := Start(ctx, Invocation{Path: sh, Grace: 100 * time.Millisecond,
		Args: []string{"-c", `trap '' INT; /bin/sleep 300 & echo $!; wait`}})
	if err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(p.Stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	<-p.Done()
	pid, _ := strconv.Atoi(strings.TrimSpace(line))
	gone(t, pid)
	_ = p.Close(0)
}

func TestStartRejectsStdin(t *testing.T) {
	if _, err := Start(context.Background(), Invocation{Path: cat, Stdin: strings.NewReader("x")}); !errors.Is(err, ErrInvalid) {
		t.Errorf("err = %v, want ErrInvalid", err)
	}
}

// BenchmarkRunTrue measures the fixed cost of one run: pipes, fork/exec in
// a new process group, wait, group kill, drain.
func BenchmarkRunTrue(b *testing.B) {
	truePath, err := LookPath("true")
	if err != nil {
		b.Skip(err)
	}
	for b.Loop() {
		if _, err := Run(context.Background(), Invocation{Path: truePath}); err != nil {
			b.Fatal(err)
		}
	}
}
