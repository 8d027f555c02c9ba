package validation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/internal/redact"
	"github.com/codecortex/codecortex/internal/safeexec"
	"github.com/codecortex/codecortex/seal"
	"golang.org/x/mod/modfile"
)

// A Command is one validation command: an argument vector, never a shell
// string.
type Command struct {
	// Name says what it checks, such as "go vet".
	Name string `json:"name"`
	// Argv is the program and its arguments. The program is looked up in
	// the PATH (or taken as a path); one that resolves inside the project
	// root is refused, because running it would run the repository's code.
	Argv []string `json:"argv"`
	// Timeout bounds the run; 0 means DefaultTimeout.
	Timeout time.Duration `json:"timeout,omitempty"`
	// Format says how to read the output: "go" (the go command, the
	// compiler, go vet), "go-test-json" (go test -json), "tsc", or ""
	// for what the program and its arguments imply.
	Format string `json:"format,omitempty"`
}

// DefaultTimeout bounds a command whose Timeout is 0.
const DefaultTimeout = 10 * time.Minute

// DefaultMaxOutput caps what a command may print, on each stream.
const DefaultMaxOutput = 8 << 20

// maxDiagnostics bounds the diagnostics kept of one command.
const maxDiagnostics = 500

// Options says where validation runs and what it runs. The zero value
// runs the commands [Detect] finds for the working directory, and never
// runs anything from Gather. Callees never modify it.
type Options struct {
	// Dir is the project root; "" means the working directory. Commands
	// run in it.
	Dir string
	// Commands are run in order; nil means Detect(Dir). Commands named in
	// a project's configuration are the project's to choose: a host runs
	// them only once the user trusts that configuration.
	Commands []Command
	// RunOnQuery lets [Provider.Gather] run the commands, and only for a
	// query whose Kinds name validation explicitly. Off, Gather serves the
	// results of the last [Run] and never starts a process.
	RunOnQuery bool
	// Env is added to the commands' environment, as NAME=value entries;
	// the rest is the variables [PassEnv] lists, from this process's
	// environment, and GOTOOLCHAIN=local.
	Env []string
	// MaxOutput caps what a command may print on each stream; 0 means
	// DefaultMaxOutput.
	MaxOutput int64
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Seal proves that the stored results were written by this user's
	// cortex: results shipped with a repository are never served; nil
	// means [seal.User].
	Seal seal.Sealer
}

func (o *Options) sealer() seal.Sealer {
	if o.Seal != nil {
		return o.Seal
	}
	return seal.User()
}

// purposeOutcome is what a stored outcome's seal is for.
const purposeOutcome = "codecortex.validation.outcome/1"

// PassEnv returns the variables of this process's environment that the
// commands see: what finding programs, caches and module downloads need,
// and nothing else.
func PassEnv() []string { return append([]string(nil), passEnv...) }

var passEnv = []string{"PATH", "HOME", "USER", "LOGNAME", "TMPDIR", "LANG", "LC_ALL",
	"GOPATH", "GOROOT", "GOCACHE", "GOMODCACHE", "GOENV", "GOFLAGS", "GOPROXY", "GOPRIVATE", "GONOPROXY",
	"GONOSUMDB", "GOSUMDB", "GOINSECURE", "GOWORK", "CGO_ENABLED", "CC", "CXX", "PKG_CONFIG_PATH",
	"XDG_CACHE_HOME", "NODE_PATH", "NODE_OPTIONS"}

// StateFile is where [Run] keeps the last results, relative to the
// project root; the directory holds a .gitignore so that they are not
// committed.
const StateFile = ".codecortex/validation/last.json"

const stateIgnore = ".codecortex/validation/.gitignore"

// An Outcome is one validation run: every command's result.
type Outcome struct {
	// Started is when the run began.
	Started time.Time `json:"started"`
	// Passed says every command passed.
	Passed  bool     `json:"passed"`
	Results []Result `json:"results"`
	// Seal, in the stored outcome, is the seal (package seal) of the
	// project root and the rest of the outcome.
	Seal string `json:"seal,omitempty"`
}

// sealed returns the bytes an outcome's seal covers.
func (o Outcome) sealed() []byte {
	o.Seal = ""
	b, err := json.Marshal(o)
	if err != nil {
		panic(err) // plain data: cannot fail
	}
	return b
}

// A Result is what one command did.
type Result struct {
	Name string   `json:"name"`
	Argv []string `json:"argv"`
	// Passed says the command ran and exited 0 (with no error diagnostic
	// for tools, such as go test -json, that report failures in their
	// output).
	Passed   bool          `json:"passed"`
	ExitCode int           `json:"exit_code"`
	Duration time.Duration `json:"duration_ns"`
	// Error says why the command could not run or finish (not found,
	// refused, timed out); empty when it ran to its end.
	Error string `json:"error,omitempty"`
	// Truncated says the output went past the cap; diagnostics past it
	// are missing.
	Truncated bool `json:"truncated,omitempty"`
	// Diagnostics are the problems the output names, paths relative to the
	// project root (a diagnostic located outside the root is dropped and
	// counted in Dropped).
	Diagnostics []Diagnostic `json:"diagnostics"`
	Dropped     int          `json:"dropped,omitempty"`
	// Output is the end of what the command printed, for a failure whose
	// output names no diagnostic.
	Output string `json:"output,omitempty"`
}

// Errors matched with errors.Is.
var (
	// ErrNoResults: no validation has run in this project yet.
	ErrNoResults = errors.New("validation: no results yet")
	// ErrNoCommands: there is nothing to run (no command given, none
	// detected).
	ErrNoCommands = errors.New("validation: no validation commands")
	// ErrRefused: a command's program resolves inside the project root.
	ErrRefused  = errors.New("validation: program inside the project refused")
	errNoEvents = errors.New("validation: no go test -json events in the output")
)

// Detect returns the validation commands that suit the project at dir:
//
//   - a go.mod: "go build ./..." and "go vet ./...";
//   - a tsconfig.json: "tsc --noEmit --pretty false -p DIR", when a tsc is
//     on the PATH outside the project (the project's node_modules/.bin
//     is never used: that would run the repository's code).
//
// Test suites, cargo check (build scripts), npm scripts and linters that
// load plugins run the repository's own code, so none is a default; a
// caller configures them as Commands when the user asks. go is not
// checked here; a missing program is a failed result when run.
func Detect(dir string) []Command {
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil
	}
	defer root.Close()
	var cmds []Command
	if fi, err := root.Stat("go.mod"); err == nil && fi.Mode().IsRegular() {
		cmds = append(cmds,
			Command{Name: "go build", Argv: []string{"go", "build", "./..."}, Format: "go"},
			Command{Name: "go vet", Argv: []string{"go", "vet", "./..."}, Format: "go"})
	}
	if fi, err := root.Stat("tsconfig.json"); err == nil && fi.Mode().IsRegular() {
		if _, err := resolveProgram(root, "tsc"); err == nil {
			cmds = append(cmds, Command{Name: "tsc", Argv: []string{"tsc", "--noEmit", "--pretty", "false", "-p", root.Dir()}, Format: "tsc"})
		}
	}
	return cmds
}

// resolveProgram returns the absolute path of the program name, refusing
// one that resolves (through symbolic links) inside the project root.
func resolveProgram(root *contain.Root, name string) (string, error) {
	if strings.ContainsRune(name, '/') && !filepath.IsAbs(name) {
		// A relative path names a file of the project, where commands run.
		name = filepath.Join(root.Dir(), name)
	}
	p, err := safeexec.LookPath(name)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if rel, err := filepath.Rel(root.Dir(), real); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: %s resolves to %s", ErrRefused, name, real)
	}
	return p, nil
}

// formatOf returns how to read a command's output.
func formatOf(c Command) string {
	if c.Format != "" {
		return c.Format
	}
	if len(c.Argv) == 0 {
		return ""
	}
	prog := path.Base(filepath.ToSlash(c.Argv[0]))
	args := c.Argv[1:]
	has := func(s string) bool {
		for _, a := range args {
			if a == s || strings.HasPrefix(a, s+"=") {
				return true
			}
		}
		return false
	}
	switch {
	case prog == "go" && len(args) > 0 && args[0] == "test" && has("-json"):
		return "go-test-json"
	case prog == "go":
		return "go"
	case prog == "tsc" || prog == "vue-tsc":
		return "tsc"
	}
	return ""
}

// Run runs the commands (opts.Commands, or Detect) one after the other in
// the project root, through the safe subprocess runner with a timeout and
// an output cap, and stores the outcome in [StateFile] for [Last] and the
// provider. A command that cannot run is a failed result, not an error;
// the error is for a run that cannot start (no commands) or whose outcome
// cannot be stored (the outcome is returned with it).
func Run(ctx context.Context, opts Options) (*Outcome, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("validation: project root: %w", err)
	}
	defer root.Close()
	cmds := opts.Commands
	if cmds == nil {
		cmds = Detect(root.Dir())
	}
	if len(cmds) == 0 {
		return nil, ErrNoCommands
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	o := &Outcome{Started: now().UTC(), Passed: true, Results: []Result{}}
	red := redact.New()
	modPath := modulePath(root)
	for _, c := range cmds {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := runOne(ctx, root, opts, c, modPath, red)
		o.Passed = o.Passed && r.Passed
		o.Results = append(o.Results, r)
	}
	stored := *o
	stored.Seal, err = opts.sealer().Seal(purposeOutcome, []byte(root.Dir()), stored.sealed())
	if err != nil {
		return o, fmt.Errorf("validation: store results: %w", err)
	}
	data, err := json.MarshalIndent(stored, "", "  ")
	if err != nil {
		return o, fmt.Errorf("validation: %w", err)
	}
	if err := root.WriteStateFile(stateIgnore, []byte("*\n"), 0o644); err != nil {
		return o, fmt.Errorf("validation: store results: %w", err)
	}
	if err := root.WriteStateFile(StateFile, append(data, '\n'), 0o644); err != nil {
		return o, fmt.Errorf("validation: store results: %w", err)
	}
	return o, nil
}

// Last returns the outcome of the last [Run] in the project, as stored;
// [ErrNoResults] when there is none.
func Last(opts Options) (*Outcome, error) {
	dir := opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil, fmt.Errorf("validation: project root: %w", err)
	}
	defer root.Close()
	return readLast(root, opts.sealer())
}

// ErrForeignResults is matched by the error for stored results that this
// user's cortex did not write (shipped with the repository, or made
// elsewhere); they are never served.
var ErrForeignResults = fmt.Errorf("validation: %s was %w; its results are not served (run the checks: cortex validate)", StateFile, seal.ErrForeign)

// maxState bounds the size of the stored outcome that is read.
const maxState = 64 << 20

func readLast(root *contain.Root, s seal.Sealer) (*Outcome, error) {
	fi, err := root.Stat(StateFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoResults
	}
	if err != nil {
		return nil, fmt.Errorf("validation: %w", err)
	}
	if fi.Size() > maxState {
		return nil, fmt.Errorf("validation: %s is larger than %d bytes", StateFile, maxState)
	}
	data, err := root.ReadFile(StateFile)
	if err != nil {
		return nil, fmt.Errorf("validation: %w", err)
	}
	var o Outcome
	if err := json.Unmarshal(data, &o); err != nil {
		return nil, fmt.Errorf("validation: %s: %w", StateFile, err)
	}
	if !s.Verify(o.Seal, purposeOutcome, []byte(root.Dir()), o.sealed()) {
		return nil, ErrForeignResults
	}
	o.Seal = ""
	return &o, nil
}

// runOne runs one command and reads its output.
func runOne(ctx context.Context, root *contain.Root, opts Options, c Command, modPath string, red *redact.Redactor) Result {
	r := Result{Name: c.Name, Argv: append([]string(nil), c.Argv...), ExitCode: -1, Diagnostics: []Diagnostic{}}
	if r.Name == "" && len(c.Argv) > 0 {
		r.Name = strings.Join(c.Argv, " ")
	}
	if len(c.Argv) == 0 {
		r.Error = "an empty command"
		return r
	}
	exe, err := resolveProgram(root, c.Argv[0])
	if err != nil {
		r.Error = red.String(err.Error())
		return r
	}
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	maxOut := opts.MaxOutput
	if maxOut <= 0 {
		maxOut = DefaultMaxOutput
	}
	env := append(safeexec.Environ(passEnv...), "GOTOOLCHAIN=local")
	env = append(env, opts.Env...)
	res, err := safeexec.Run(ctx, safeexec.Invocation{Path: exe, Args: c.Argv[1:], Dir: root.Dir(), Env: env,
		Timeout: timeout, MaxStdout: maxOut, MaxStderr: maxOut})
	r.ExitCode, r.Duration = res.ExitCode, res.Duration
	r.Truncated = res.StdoutTruncated || res.StderrTruncated
	var xe *safeexec.ExitError
	if err != nil && !errors.As(err, &xe) {
		r.Error = red.String(err.Error())
	}
	var diags []Diagnostic
	switch formatOf(c) {
	case "go":
		diags = append(ParseGoOutput(res.Stderr), ParseGoOutput(res.Stdout)...)
	case "go-test-json":
		diags, _ = ParseGoTestJSON(res.Stdout)
		diags = append(diags, ParseGoOutput(res.Stderr)...)
	case "tsc":
		diags = append(ParseTSCOutput(res.Stdout), ParseTSCOutput(res.Stderr)...)
	default:
		both := append(append([]byte(nil), res.Stdout...), res.Stderr...)
		diags = append(ParseGoOutput(both), ParseTSCOutput(both)...)
	}
	for _, d := range diags {
		d.Message, d.Output = red.String(d.Message), red.String(d.Output)
		if d.Path != "" {
			p, ok := projectPath(root, d, modPath)
			if !ok {
				r.Dropped++
				continue
			}
			d.Path = p
		}
		if len(r.Diagnostics) < maxDiagnostics {
			r.Diagnostics = append(r.Diagnostics, d)
		}
	}
	sortDiagnostics(r.Diagnostics)
	failures := 0
	for _, d := range r.Diagnostics {
		if d.Severity == "error" {
			failures++
		}
	}
	r.Passed = err == nil && r.Error == "" && failures == 0
	if !r.Passed && len(r.Diagnostics) == 0 {
		r.Output = red.String(clip(tail(string(res.Stderr)+string(res.Stdout), 2000), 2100))
	}
	return r
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "…" + s[len(s)-n:]
}

// projectPath returns a diagnostic's path relative to the project root:
// as printed relative to the root (where commands run), absolute inside
// it, or, for a failing test's file name, in the directory of its package
// (the package's import path below the module path of go.mod). ok is
// false for a path outside the root.
func projectPath(root *contain.Root, d Diagnostic, modPath string) (string, bool) {
	p := d.Path
	if d.Tool == "go test" && !filepath.IsAbs(p) && !strings.Contains(p, "/") && d.Package != "" {
		rel, ok := packageDir(d.Package, modPath)
		if !ok {
			return "", false
		}
		p = path.Join(rel, p)
	}
	rel, err := root.Rel(p)
	if err != nil || rel == "." {
		return "", false
	}
	return rel, true
}

// packageDir returns the directory of the package with the given import
// path, relative to the module root, when it is in the module.
func packageDir(pkg, modPath string) (string, bool) {
	switch {
	case modPath == "":
		return "", false
	case pkg == modPath:
		return ".", true
	case strings.HasPrefix(pkg, modPath+"/"):
		return strings.TrimPrefix(pkg, modPath+"/"), true
	}
	return "", false
}

// modulePath reads the module path of the project's go.mod, "" when there
// is none.
func modulePath(root *contain.Root) string {
	data, err := root.ReadFile("go.mod")
	if err != nil {
		return ""
	}
	return modfile.ModulePath(data)
}
