// Package safeexec runs external programs the one way CodeCortex allows: a
// resolved absolute executable, an explicit argument vector, a working
// directory and environment chosen by the caller, a timeout, and byte caps on
// what is captured. There is no shell anywhere, and nothing is downloaded.
//
// What this package calls the program's process group is, on Unix, a
// process group the program leads from its start. On Windows it is a job
// object the program joins just after it starts: there is no interrupt
// there, so an interrupt kills at once, and a process the program starts in
// its first moment can escape; group_windows.go says what it guarantees.
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
	"sync"
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

// ErrInvalid is matched by every rejection of a malformed [Invocation]:
// a NUL byte in the path, an argument or the environment, a relative working
// directory, an environment entry without "=", a negative limit.
var ErrInvalid = errors.New("safeexec: invalid invocation")

// An ExitError reports a program that ran and exited non-zero, or was
// killed by a signal (Code -1); the Result is returned alongside it.
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
		return fmt.Errorf("%w: working directory %q is not absolute", ErrInvalid, inv.Dir)
	}
	for _, s := range append([]string{inv.Path, inv.Dir}, inv.Args...) {
		if strings.ContainsRune(s, 0) {
			return fmt.Errorf("%w: NUL byte in path or argument", ErrInvalid)
		}
	}
	for _, kv := range inv.Env {
		if strings.ContainsRune(kv, 0) || strings.IndexByte(kv, '=') < 1 {
			return fmt.Errorf("%w: environment entries must be NAME=value without NUL bytes", ErrInvalid)
		}
	}
	if inv.Timeout < 0 || inv.Grace < 0 || inv.MaxStdout < 0 || inv.MaxStderr < 0 {
		return fmt.Errorf("%w: negative timeout, grace or output cap", ErrInvalid)
	}
	return nil
}

func (inv *Invocation) grace() time.Duration {
	if inv.Grace == 0 {
		return DefaultGrace
	}
	return inv.Grace
}

// command prepares the process to lead a [group] of its own. When ctx is
// done the group is interrupted; if the leader is still there after the
// grace period it is killed, and the caller kills the rest of the group
// once Wait has returned. The caller calls g.started once the process has
// started, and g.release once it is done with the group.
func (inv *Invocation) command(ctx context.Context) (cmd *exec.Cmd, g *group) {
	cmd = exec.CommandContext(ctx, inv.Path, inv.Args...)
	cmd.Dir = inv.Dir
	cmd.Env = inv.Env
	if cmd.Env == nil {
		cmd.Env = []string{}
	}
	g = new(group)
	g.prepare(cmd)
	cmd.Cancel = func() error {
		return g.interrupt(cmd.Process)
	}
	cmd.WaitDelay = inv.grace()
	return cmd, g
}

// pipes are the read ends of a child's output pipes, drained into caps.
type pipes struct {
	files []*os.File
	wg    sync.WaitGroup
}

// capture returns the write end of a new pipe, for the child; the read end
// is drained into c until every writer has closed it or drain closes it.
func (ps *pipes) capture(c *capped) (w *os.File, err error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ps.files = append(ps.files, r)
	ps.wg.Add(1)
	go func() {
		defer ps.wg.Done()
		_, _ = io.Copy(c, r)
	}()
	return w, nil
}

// drain waits for every writer of the pipes to go, at most grace; then it
// closes the read ends, which ends the copies. A process that left the
// group (setsid) and keeps a pipe open cannot hold the caller longer.
func (ps *pipes) drain(grace time.Duration) {
	done := make(chan struct{})
	go func() { ps.wg.Wait(); close(done) }()
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-done:
	case <-t.C:
	}
	for _, f := range ps.files {
		_ = f.Close()
	}
	<-done
}

// Run executes inv and waits for it. It returns the captured output whether
// or not the program succeeded; the error is an [*ExitError] for a non-zero
// exit, wraps [ErrTimeout] when the timeout expired, and wraps ctx.Err() when
// the caller cancelled. On timeout or cancellation the program's process
// group is interrupted, and killed when the program is still there after
// inv.Grace. When the program exits, whatever it left running in its process
// group is killed.
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

	cmd, g := inv.command(tctx)
	defer g.release()
	cmd.Stdin = inv.Stdin
	stdout := &capped{max: orDefault(inv.MaxStdout)}
	stderr := &capped{max: orDefault(inv.MaxStderr)}
	// Our own pipes rather than exec's copying goroutines: Wait then returns
	// when the program exits, even if a grandchild still holds its output.
	var ps pipes
	outW, err := ps.capture(stdout)
	if err != nil {
		return Result{}, fmt.Errorf("safeexec: %w", err)
	}
	errW, err := ps.capture(stderr)
	if err != nil {
		_ = outW.Close()
		ps.drain(0)
		return Result{}, fmt.Errorf("safeexec: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW

	start := time.Now()
	err = cmd.Start()
	_ = outW.Close()
	_ = errW.Close()
	if err == nil {
		g.started(cmd.Process)
		err = cmd.Wait()
		// Whatever happened, leave no member of the group behind.
		_ = g.kill(cmd.Process)
	}
	ps.drain(inv.grace())
	res := Result{
		Stdout: stdout.Bytes(), Stderr: stderr.Bytes(),
		StdoutTruncated: stdout.Truncated(), StderrTruncated: stderr.Truncated(),
		Duration: time.Since(start), ExitCode: -1,
	}
	if cmd.ProcessState != nil {
		res.ExitCode = cmd.ProcessState.ExitCode()
	}
	switch {
	case err == nil:
		return res, nil
	case ctx.Err() != nil:
		return res, fmt.Errorf("safeexec: %s: %w", filepath.Base(inv.Path), ctx.Err())
	case tctx.Err() != nil:
		return res, fmt.Errorf("%w after %v: %s", ErrTimeout, timeout, filepath.Base(inv.Path))
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
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

// capped keeps the first max bytes written to it and notes the rest. It is
// safe for concurrent use.
type capped struct {
	mu        sync.Mutex
	buf       bytes.Buffer
	max       int64
	truncated bool
}

func (c *capped) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
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

// Bytes returns a copy of what was kept.
func (c *capped) Bytes() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.buf.Bytes())
}

func (c *capped) Truncated() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.truncated
}

// A Process is a long-running program spoken to over its standard streams,
// such as a language server.
type Process struct {
	cmd   *exec.Cmd
	group *group
	// Stdin is the program's standard input; closing it tells most
	// programs to finish.
	Stdin io.WriteCloser
	// Stdout is the program's standard output. It reaches EOF once the
	// program (and everything in its process group) has exited, and is
	// closed by [Process.Close].
	Stdout io.ReadCloser
	stderr *capped
	done   chan struct{}
	err    error
}

// Start launches inv and returns it running, with pipes to its standard
// input and output. Standard error is captured up to MaxStderr. The process
// lives until ctx is cancelled (its group is interrupted, then the program
// killed after the grace period) or [Process.Close] is called; inv.Timeout
// is not applied, and inv.Stdin must be nil. When the program exits, the rest
// of its process group is killed.
func Start(ctx context.Context, inv Invocation) (*Process, error) {
	if err := inv.check(); err != nil {
		return nil, err
	}
	if inv.Stdin != nil {
		return nil, fmt.Errorf("%w: Start provides standard input itself", ErrInvalid)
	}
	cmd, g := inv.command(ctx)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		g.release()
		return nil, fmt.Errorf("safeexec: %w", err)
	}
	// Our own stdout pipe: exec's StdoutPipe is closed by Wait, which would
	// race with the caller still reading the program's last words.
	outR, outW, err := os.Pipe()
	if err != nil {
		g.release()
		return nil, fmt.Errorf("safeexec: %w", err)
	}
	p := &Process{cmd: cmd, group: g, Stdin: stdin, Stdout: outR,
		stderr: &capped{max: orDefault(inv.MaxStderr)}, done: make(chan struct{})}
	var ps pipes
	errW, err := ps.capture(p.stderr)
	if err != nil {
		_ = outR.Close()
		_ = outW.Close()
		g.release()
		return nil, fmt.Errorf("safeexec: %w", err)
	}
	cmd.Stdout, cmd.Stderr = outW, errW
	err = cmd.Start()
	_ = outW.Close()
	_ = errW.Close()
	if err != nil {
		_ = outR.Close()
		ps.drain(0)
		g.release()
		return nil, fmt.Errorf("safeexec: start %s: %w", filepath.Base(inv.Path), err)
	}
	g.started(cmd.Process)
	grace := inv.grace()
	go func() {
		err := cmd.Wait()
		_ = g.kill(cmd.Process)
		g.release()
		ps.drain(grace)
		p.err = err
		close(p.done)
	}()
	return p, nil
}

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// Stderr returns what the process has written to standard error so far,
// up to the cap.
func (p *Process) Stderr() []byte { return p.stderr.Bytes() }

// Close closes the process's standard input, waits up to grace for it to
// exit, then interrupts its process group, waits up to grace again, and
// kills the group. It closes Stdout and returns the process's exit error,
// if any (an [*exec.ExitError] when it was interrupted or killed).
func (p *Process) Close(grace time.Duration) error {
	_ = p.Stdin.Close()
	if !p.waitFor(grace) {
		_ = p.group.interrupt(p.cmd.Process)
		if !p.waitFor(grace) {
			_ = p.group.kill(p.cmd.Process)
			<-p.done
		}
	}
	_ = p.Stdout.Close()
	return p.err
}

// waitFor reports whether the process exited within d.
func (p *Process) waitFor(d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-p.done:
		return true
	case <-t.C:
		return false
	}
}
