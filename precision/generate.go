package precision

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/flock"
	"github.com/codecortex/codecortex/internal/fsx"
	"github.com/codecortex/codecortex/internal/safeexec"
)

// generatorEnv are the variables the index generator inherits: what Go,
// Node and Python toolchains need to find themselves and their caches.
var generatorEnv = []string{
	"PATH", "HOME", "TMPDIR", "USER", "LANG",
	"GOPATH", "GOCACHE", "GOMODCACHE", "GOFLAGS", "GOPROXY", "GOROOT", "GOTOOLCHAIN", "GONOSUMDB", "GOPRIVATE",
	"NODE_PATH", "NODE_OPTIONS", "VIRTUAL_ENV", "PYTHONPATH",
}

// LockPath is where, under the project root, the lock that lets one
// process at a time generate the precision index lives; it also records
// how the last generation ended.
const LockPath = ".codecortex/precision/generate.lock"

func lookPath(name string) (string, error) { return safeexec.LookPath(name) }

func runGenerator(ctx context.Context, exe string, args []string, dir string, timeout time.Duration) (safeexec.Result, error) {
	return safeexec.Run(ctx, safeexec.Invocation{
		Path: exe, Args: args, Dir: dir,
		Env:     safeexec.Environ(generatorEnv...),
		Timeout: timeout,
	})
}

func (p *Provider) generateTimeout() time.Duration {
	if p.opts.GenerateTimeout > 0 {
		return p.opts.GenerateTimeout
	}
	return 10 * time.Minute
}

// generate regenerates the index at rel: under the project's generation
// lock, it runs the generator with a temporary path in place of rel,
// checks that the result loads and holds documents, records its sources
// manifest and renames it over rel. When another process holds the lock,
// it waits for that generation and uses its result instead. p.mu is held.
func (p *Provider) generate(ctx context.Context, rel, why string) error {
	argv := p.opts.GeneratorCommand
	exe, err := lookPath(argv[0])
	if err != nil {
		return &evidence.UnavailableError{Reason: "index generator " + argv[0] + " not found", Err: err,
			Guidance: "install " + argv[0] + " or fix precision_index.generator_command"}
	}
	abs, err := p.root.Abs(rel)
	if err != nil {
		return &evidence.UnavailableError{Reason: "precision index path " + rel + " is outside the project root", Err: err}
	}
	tmpRel := path.Join(path.Dir(rel), "."+path.Base(rel)+".generating")
	tmpAbs, err := p.root.Abs(tmpRel)
	if err != nil {
		return &evidence.UnavailableError{Reason: "precision index path " + rel + " is outside the project root", Err: err}
	}
	args, ok := redirectOutput(argv[1:], rel, abs, tmpAbs)
	if !ok {
		return &evidence.UnavailableError{
			Reason: "precision_index.generator_command does not name the index path " + rel +
				", so its output cannot be written to a temporary file first",
			Guidance: "name the index in the command, such as: scip-go --output " + rel}
	}
	progress := p.opts.Progress
	if progress == nil {
		progress = io.Discard
	}
	timeout := p.generateTimeout()

	lock, waited, err := p.lockGeneration(ctx, progress, timeout)
	if err != nil {
		return err
	}
	defer lock.release()
	// Another process may have regenerated the index since it was found
	// missing or stale.
	if snap, err := p.acquireLoaded(ctx, rel); err == nil && !snap.stale.Stale {
		return nil
	}
	if waited {
		if _, err := os.Stat(abs); err == nil {
			return nil // its result, stale or not, is what there is
		}
		return &evidence.UnavailableError{Reason: "another process generated the precision index but none is at " + rel,
			Err: errors.New(lock.lastOutcome()), Guidance: "run it by hand to see why: " + strings.Join(argv, " ")}
	}

	fmt.Fprintf(progress, "cortex: regenerating the precision index (%s): %s (timeout %s)\n", why, strings.Join(argv, " "), timeout)
	_ = os.Remove(tmpAbs) // left by a generation that was killed
	if err := p.root.MkdirAll(path.Dir(rel), 0o755); err != nil {
		return &evidence.UnavailableError{Reason: "the directory of " + rel + " cannot be created", Err: err}
	}
	err = p.runAndInstall(ctx, exe, args, rel, abs, tmpAbs, timeout, progress)
	defer os.Remove(tmpAbs)
	if err != nil {
		lock.record("failed at " + time.Now().UTC().Format(time.RFC3339) + ": " + err.Error())
		return err
	}
	lock.record("succeeded at " + time.Now().UTC().Format(time.RFC3339))
	return nil
}

// runAndInstall runs the generator, which writes tmpAbs, loads what it
// wrote and renames it over abs.
func (p *Provider) runAndInstall(ctx context.Context, exe string, args []string, rel, abs, tmpAbs string, timeout time.Duration, progress io.Writer) error {
	argv := p.opts.GeneratorCommand
	res, err := runGenerator(ctx, exe, args, p.root.Dir(), timeout)
	if err != nil {
		msg := strings.TrimSpace(string(tail(res.Stderr, 400)))
		return &evidence.UnavailableError{Reason: "index generation failed", Err: fmt.Errorf("%w: %s", err, msg),
			Guidance: "run it by hand to see why: " + strings.Join(argv, " ")}
	}
	f, err := os.Open(tmpAbs)
	if err != nil {
		return &evidence.UnavailableError{Reason: "the generator ran but wrote no index where " + rel + " was named",
			Err: err, Guidance: "make precision_index.generator_command write the path it names"}
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return &evidence.UnavailableError{Reason: "generated index cannot be read", Err: err}
	}
	ix, digest, err := loadDigest(ctx, f, p.root.FS(), fi.Size())
	if err != nil {
		return &evidence.UnavailableError{Reason: "generated index is unusable", Err: err,
			Guidance: "run it by hand to see why: " + strings.Join(argv, " ")}
	}
	// The snapshot's key comes from the generated file itself, which the
	// rename keeps, so the load after it reads the snapshot.
	key, keyErr := snapshotKey{}, errors.New("snapshots are off")
	if !p.opts.NoSnapshot {
		key, keyErr = indexKey(f, fi, rel)
	}
	// The manifest first: it describes the new index by size and time,
	// which the rename keeps, so a reader of the old index ignores it and
	// a reader of the new one finds it.
	if err := p.writeManifest(tmpAbs, rel, ix, digest, false); err != nil {
		return &evidence.UnavailableError{Reason: "the sources manifest of the generated index cannot be written", Err: err}
	}
	if err := os.Rename(tmpAbs, abs); err != nil {
		return &evidence.UnavailableError{Reason: "generated index cannot replace " + rel, Err: err}
	}
	if keyErr == nil {
		p.writeSnapshot(key, ix, digest)
	}
	fmt.Fprintf(progress, "cortex: precision index regenerated in %s\n", res.Duration.Round(time.Millisecond))
	p.ix = nil // force a reload through acquireLoaded
	return nil
}

// redirectOutput returns args with every argument that names the index
// (rel, or its absolute path abs, alone or as the value of NAME=VALUE)
// naming tmp instead; ok is false when none does.
func redirectOutput(args []string, rel, abs, tmp string) (out []string, ok bool) {
	names := func(v string) bool {
		if v == "" {
			return false
		}
		if filepath.IsAbs(v) {
			return filepath.Clean(v) == abs
		}
		return filepath.ToSlash(filepath.Clean(v)) == rel
	}
	out = make([]string, len(args))
	for i, a := range args {
		out[i] = a
		switch {
		case names(a):
			out[i], ok = tmp, true
		case strings.Contains(a, "="):
			k, v, _ := strings.Cut(a, "=")
			if names(v) {
				out[i], ok = k+"="+tmp, true
			}
		}
	}
	return out, ok
}

// A generationLock is the held generation lock of a project.
type generationLock struct{ f *os.File }

// lockGeneration takes the project's generation lock, waiting (up to
// timeout, or ctx) while another process holds it; waited says whether it
// had to. p.mu is held.
func (p *Provider) lockGeneration(ctx context.Context, progress io.Writer, timeout time.Duration) (*generationLock, bool, error) {
	if err := p.root.MkdirState(path.Dir(LockPath), 0o755); err != nil {
		return nil, false, &evidence.UnavailableError{Reason: "the generation lock " + LockPath + " cannot be created", Err: err}
	}
	abs, err := p.root.Abs(LockPath)
	if err != nil {
		return nil, false, &evidence.UnavailableError{Reason: "the generation lock " + LockPath + " is outside the project root", Err: err}
	}
	f, err := fsx.OpenFileNoFollow(abs, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, false, &evidence.UnavailableError{Reason: "the generation lock " + LockPath + " cannot be opened", Err: err}
	}
	got, err := flock.TryLock(f)
	if err != nil {
		f.Close()
		return nil, false, &evidence.UnavailableError{Reason: "the generation lock " + LockPath + " cannot be taken", Err: err}
	}
	if got {
		return &generationLock{f}, false, nil
	}
	fmt.Fprintf(progress, "cortex: waiting for another process that is regenerating the precision index (%s)\n", LockPath)
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	for wait := 10 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		select {
		case <-ctx.Done():
			f.Close()
			return nil, true, ctx.Err()
		case <-deadline.C:
			f.Close()
			return nil, true, &evidence.UnavailableError{
				Reason:   fmt.Sprintf("another process has been regenerating the precision index for over %s", timeout),
				Guidance: "wait for it, or remove a stuck generator; the lock is " + LockPath}
		case <-time.After(wait):
		}
		got, err := flock.TryLock(f)
		if err != nil {
			f.Close()
			return nil, true, &evidence.UnavailableError{Reason: "the generation lock " + LockPath + " cannot be taken", Err: err}
		}
		if got {
			return &generationLock{f}, true, nil
		}
	}
}

// record writes how this generation ended into the lock file, for a
// process that waited for it.
func (l *generationLock) record(outcome string) {
	if err := l.f.Truncate(0); err == nil {
		_, _ = l.f.WriteAt([]byte(outcome+"\n"), 0)
	}
}

// lastOutcome is how the last generation ended, as its process recorded it.
func (l *generationLock) lastOutcome() string {
	b := make([]byte, 2048)
	n, _ := l.f.ReadAt(b, 0)
	if s := strings.TrimSpace(string(b[:n])); s != "" {
		return "the last generation " + s
	}
	return "the last generation recorded no outcome"
}

// release unlocks and closes the lock file.
func (l *generationLock) release() {
	_ = flock.Unlock(l.f)
	l.f.Close()
}
