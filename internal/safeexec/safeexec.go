// Package safeexec runs external programs the one way CodeCortex allows: a
// resolved absolute executable, an explicit argument vector, a working
// directory and environment chosen by the caller, a timeout, and byte caps on
// what is captured. There is no shell anywhere, and nothing is downloaded.
package safeexec

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Defaults used when an [Invocation] leaves a limit at zero.
const (
	DefaultTimeout   = 2 * time.Minute
	DefaultOutputCap = 16 << 20 // bytes, for each of stdout and stderr
	// DefaultGrace is how long a process has to exit after the interrupt
	// before its whole process group is killed.
	DefaultGrace = 2 * time.Second
)

// An Invocation describes one run of an external program.
type Invocation struct {
	// Path is the absolute path of the executable; see [LookPath].
	Path string
	// Args are the arguments after the program name.
	Args []string
	// Dir is the working directory; it must be absolute.
	Dir string
	// Env is the complete environment; nil means an empty one, not the
	// parent's. Use [Environ] to pass selected variables through.
	Env []string
	// Stdin, if set, is the program's standard input.
	Stdin io.Reader
	// Timeout bounds the run; zero means DefaultTimeout.
	Timeout time.Duration
	// MaxStdout and MaxStderr cap the captured bytes; zero means
	// DefaultOutputCap. Output past the cap is discarded and reported.
	MaxStdout, MaxStderr int64
	// Grace is how long the program has between the interrupt and the kill;
	// zero means DefaultGrace.
	Grace time.Duration
}

// A Result is what a finished run produced.
type Result struct {
	Stdout, Stderr                   []byte
	StdoutTruncated, StderrTruncated bool
	ExitCode                         int
	Duration                         time.Duration
}

// Errors matched with errors.Is.
var (
	ErrNotAbsolute = errors.New("safeexec: executable path is not absolute")
	ErrTimeout     = errors.New("safeexec: timed out")
)

// An ExitError reports a program that ran and exited non-zero; the Result
// is returned alongside it.
type ExitError struct {
	Path string
	Code int
}

func (e *ExitError) Error() string {
	return fmt.Sprintf("safeexec: %s exited with status %d", filepath.Base(e.Path), e.Code)
}

// LookPath resolves name to an absolute executable path. A name containing a
// slash is made absolute and checked; a bare name is searched in the PATH.
func LookPath(name string) (string, error) {
	if name == "" {
		return "", errors.New("safeexec: empty executable name")
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("safeexec: %w", err)
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("safeexec: %w", err)
	}
	return abs, nil
}

// Environ returns the parent's values of the named variables, in the form
// Invocation.Env wants, skipping any that are unset.
func Environ(names ...string) []string {
	var env []string
	for _, n := range names {
		if v, ok := os.LookupEnv(n); ok {
			env = append(env, n+"="+v)
		}
	}
	return env
}

func (inv *Invocation) check() error {
	if !filepath.IsAbs(inv.Path) {
		return fmt.Errorf("%w: %q", ErrNotAbsolute, inv.Path)
	}
	if inv.Dir != "" && !filepath.IsAbs(inv.Dir) {
		return fmt.Errorf("safeexec: working directory %q is not absolute", inv.Dir)
	}
	for _, s := range append([]string{inv.Path, inv.Dir}, inv.Args...) {
		if strings.ContainsRune(s, 0) {
			return errors.New("safeexec: NUL byte in path or argument")
		}
	}
	return nil
}

func (inv *Invocation) command(ctx context.Context) *exec.Cmd {
	cmd := exec.CommandContext(ctx, inv.Path, inv.Args...)
	cmd.Dir = inv.Dir
	cmd.Env = inv.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// Interrupt the whole process group first; WaitDelay then kills it.
	cmd.Cancel = func() error {
		return signalGroup(cmd.Process, syscall.SIGINT)
	}
	cmd.WaitDelay = inv.Grace
	if cmd.WaitDelay == 0 {
		cmd.WaitDelay = DefaultGrace
	}
	return cmd
}

func signalGroup(p *os.Process, sig syscall.Signal) error {
	if p == nil {
		return nil
	}
	if err := syscall.Kill(-p.Pid, sig); err != nil {
		return p.Signal(sig)
	}
	return nil
}

// Run executes inv and waits for it. It returns the captured output whether
// or not the program succeeded; the error is an [*ExitError] for a non-zero
// exit, wraps [ErrTimeout] when the timeout expired, and wraps ctx.Err() when
// the caller cancelled.
func Run(ctx context.Context, inv Invocation) (Result, error) {
	if err := inv.check(); err != nil {
		return Result{}, err
	}
	timeout := inv.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	cmd := inv.command(tctx)
	cmd.Stdin = inv.Stdin
	stdout := &capped{max: orDefault(inv.MaxStdout)}
	stderr := &capped{max: orDefault(inv.MaxStderr)}
	cmd.Stdout, cmd.Stderr = stdout, stderr

	start := time.Now()
	err := cmd.Run()
	// Whatever happened, leave no member of the group behind.
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
	res := Result{
		Stdout: stdout.buf.Bytes(), Stderr: stderr.buf.Bytes(),
		StdoutTruncated: stdout.truncated, StderrTruncated: stderr.truncated,
		Duration: time.Since(start), ExitCode: -1,
	}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	switch {
	case ctx.Err() != nil:
		return res, fmt.Errorf("safeexec: %s: %w", filepath.Base(inv.Path), ctx.Err())
	case tctx.Err() != nil:
		return res, fmt.Errorf("%w after %v: %s", ErrTimeout, timeout, filepath.Base(inv.Path))
	case err == nil:
		return res, nil
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) && res.ExitCode >= 0 {
		return res, &ExitError{Path: inv.Path, Code: res.ExitCode}
	}
	return res, fmt.Errorf("safeexec: %s: %w", filepath.Base(inv.Path), err)
}

func orDefault(n int64) int64 {
	if n <= 0 {
		return DefaultOutputCap
	}
	return n
}

// capped keeps the first max bytes written to it and counts the rest.
type capped struct {
	buf       bytes.Buffer
	max       int64
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	room := c.max - int64(c.buf.Len())
	if int64(len(p)) > room {
		c.truncated = true
		if room > 0 {
			c.buf.Write(p[:room])
		}
		return len(p), nil // keep the program running; the loss is reported
	}
	c.buf.Write(p)
	return len(p), nil
}

// A Process is a long-running program spoken to over its standard streams,
// such as a language server.
type Process struct {
	cmd    *exec.Cmd
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	stderr *capped
	done   chan struct{}
	err    error
}

// Start launches inv and returns it running, with pipes to its standard
// input and output. Standard error is captured up to MaxStderr. The process
// lives until ctx is cancelled (interrupt, then kill after the grace period)
// or [Process.Close] is called; inv.Timeout is not applied.
func Start(ctx context.Context, inv Invocation) (*Process, error) {
	if err := inv.check(); err != nil {
		return nil, err
	}
	cmd := inv.command(ctx)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	p := &Process{cmd: cmd, Stdin: stdin, Stdout: stdout,
		stderr: &capped{max: orDefault(inv.MaxStderr)}, done: make(chan struct{})}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("safeexec: start %s: %w", filepath.Base(inv.Path), err)
	}
	go func() {
		p.err = cmd.Wait()
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Stderr returns what the process has written to standard error so far,
// up to the cap. Call it after Done is closed.
func (p *Process) Stderr() []byte { return p.stderr.buf.Bytes() }

// Close closes the process's standard input, waits up to grace for it to
// exit, then interrupts and finally kills its process group. It returns the
// process's exit error, if any.
func (p *Process) Close(grace time.Duration) error {
	_ = p.Stdin.Close()
	select {
	case <-p.done:
		return p.err
	case <-time.After(grace):
	}
	_ = signalGroup(p.cmd.Process, syscall.SIGINT)
	select {
	case <-p.done:
	case <-time.After(grace):
		_ = signalGroup(p.cmd.Process, syscall.SIGKILL)
		<-p.done
	}
	return p.err
}
