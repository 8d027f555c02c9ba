package validation

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
	"github.com/codecortex/codecortex/trust"
)

// ProviderName is the provider's name in reports, and the route layer it
// implements.
const ProviderName = "validation"

// A Provider is validation as an [evidence.Provider]. Answering a question
// never runs a command unless the host allowed it (Options.RunOnQuery)
// and the query asks for validation by kind; otherwise Gather serves the
// results the last [Run] stored. It is safe for concurrent use; runs are
// one at a time.
type Provider struct {
	opts Options
	mu   sync.Mutex // one run at a time
}

var _ evidence.Provider = (*Provider)(nil)

// New returns the provider for opts (copied).
func New(opts Options) *Provider {
	opts.Commands = append([]Command(nil), opts.Commands...)
	if len(opts.Commands) == 0 {
		opts.Commands = nil
	}
	return &Provider{opts: opts}
}

// Name returns "validation".
func (p *Provider) Name() string { return ProviderName }

// Run runs the validation commands now and stores the outcome (see the
// package function [Run]). It is what a host calls when the user asks for
// validation (cortex validate).
func (p *Provider) Run(ctx context.Context) (*Outcome, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return Run(ctx, p.opts)
}

// Gather answers q with validation records (kind validation, provenance
// validation-run, tier structural: the observed outcome of a build or
// check):
//
//   - From the results the last Run stored, by default: reading them runs
//     nothing. Without stored results Gather fails with an
//     [*evidence.UnavailableError] that says to run validation.
//   - From a new run, only when Options.RunOnQuery is set and q.Kinds
//     names evidence.Validation explicitly (an empty Kinds, which asks for
//     any kind, does not).
//
// Each command gives one record without a location that says whether it
// passed, with the command, exit code and duration; each diagnostic one
// record located at its file, line and column (or without a location
// when the file or line is no longer there). A diagnostic in a file
// changed since the run is marked stale, and the report then says stale,
// with guidance to run validation again. With q.Path, only that file's
// diagnostics are returned, with the commands' records.
func (p *Provider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	if err := ctx.Err(); err != nil {
		return evidence.Response{}, err
	}
	if !q.Wants(evidence.Validation) {
		return evidence.Response{}, nil
	}
	var (
		o   *Outcome
		err error
	)
	if p.opts.RunOnQuery && len(q.Kinds) > 0 {
		o, err = p.Run(ctx)
	} else {
		o, err = Last(p.opts)
	}
	switch {
	case errors.Is(err, ErrNoResults):
		return evidence.Response{}, &evidence.UnavailableError{Reason: "no validation has run in this project yet",
			Guidance: "run the project's checks (cortex validate); answering a question never runs them"}
	case errors.Is(err, ErrForeignResults):
		return evidence.Response{}, &evidence.UnavailableError{Reason: "the stored validation results were not written by this user's cortex (they may have come with the repository) and are not served",
			Guidance: "run the project's checks (cortex validate)", Err: err}
	case errors.Is(err, ErrNoCommands):
		return evidence.Response{}, &evidence.UnavailableError{Reason: "there are no validation commands for this project",
			Guidance: "configure them in the validation section of .codecortex/config.json"}
	case err != nil && o == nil:
		return evidence.Response{}, &evidence.UnavailableError{Reason: "validation results cannot be read", Err: err}
	}
	recs, stale, err := p.Records(o, q.Path)
	if err != nil {
		return evidence.Response{}, &evidence.UnavailableError{Reason: "validation results cannot be read", Err: err}
	}
	resp := evidence.Response{Records: recs}
	if stale > 0 {
		resp.Report = evidence.Report{State: evidence.StaleState,
			Reason:   fmt.Sprintf("%d diagnostics are in files changed since validation ran at %s", stale, o.Started.Format(time.RFC3339)),
			Guidance: "run the project's checks again (cortex validate)"}
	}
	return resp, nil
}

// Records turns an outcome into evidence records (see [Provider.Gather]);
// with path set, only that file's diagnostics are kept. stale counts the
// diagnostics marked stale because their file changed after the run
// began.
func (p *Provider) Records(o *Outcome, path string) (recs []evidence.Record, stale int, err error) {
	dir := p.opts.Dir
	if dir == "" {
		dir = "."
	}
	root, err := contain.Open(dir)
	if err != nil {
		return nil, 0, fmt.Errorf("validation: project root: %w", err)
	}
	defer root.Close()
	if path != "" {
		if rel, err := root.Rel(path); err == nil {
			path = rel
		}
	}
	files := map[string]*fileState{}
	ran := o.Started.Format(time.RFC3339)
	for _, r := range o.Results {
		recs = append(recs, summaryRecord(&r, ran))
		for _, d := range r.Diagnostics {
			if path != "" && d.Path != path {
				continue
			}
			rec, isStale := diagnosticRecord(root, files, &r, &d, o.Started, ran)
			if isStale {
				stale++
			}
			recs = append(recs, rec)
		}
	}
	return recs, stale, nil
}

// fileState is what records need of a file: its lines' lengths and
// whether it changed after the run.
type fileState struct {
	ok      bool
	lines   []string
	changed bool
}

func readFileState(root *contain.Root, p string, since time.Time) *fileState {
	fi, err := root.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 16<<20 {
		return &fileState{}
	}
	data, err := root.ReadFile(p)
	if err != nil {
		return &fileState{}
	}
	st := &fileState{ok: true, changed: fi.ModTime().After(since)}
	st.lines = strings.Split(string(data), "\n")
	return st
}

func base(conf float64, attrs map[string]string, excerpt string) evidence.Record {
	return evidence.Record{Kind: evidence.Validation, Provider: ProviderName, Provenance: trust.ValidationRun,
		Trust: trust.Structural, Confidence: conf,
		Metadata: evidence.Metadata{Excerpt: excerpt, Attributes: attrs}}
}

// summaryRecord says how one command fared.
func summaryRecord(r *Result, ran string) evidence.Record {
	attrs := map[string]string{
		"command": r.Name, "argv": strings.Join(r.Argv, " "), "passed": strconv.FormatBool(r.Passed),
		"exit_code": strconv.Itoa(r.ExitCode), "duration_ms": strconv.FormatInt(r.Duration.Milliseconds(), 10),
		"ran_at": ran, "diagnostics": strconv.Itoa(len(r.Diagnostics)),
	}
	if r.Dropped > 0 {
		attrs["dropped_outside_root"] = strconv.Itoa(r.Dropped)
	}
	if r.Truncated {
		attrs["truncated"] = "true"
	}
	if r.Error != "" {
		attrs["error"] = r.Error
	}
	took := r.Duration.Round(time.Millisecond).String()
	var ex string
	switch {
	case r.Passed:
		ex = fmt.Sprintf("%s passed (%s) in %s", r.Name, attrs["argv"], took)
	case r.Error != "" && r.ExitCode < 0:
		ex = fmt.Sprintf("%s could not run (%s): %s", r.Name, attrs["argv"], r.Error)
	default:
		ex = fmt.Sprintf("%s failed (%s): exit %d, %d diagnostics, in %s", r.Name, attrs["argv"], r.ExitCode, len(r.Diagnostics), took)
		if r.Error != "" {
			ex += ": " + r.Error
		}
		if len(r.Diagnostics) == 0 && r.Output != "" {
			attrs["output"] = r.Output
			ex += "; output ends: " + strings.TrimSpace(lastLine(r.Output))
		}
	}
	return base(0.9, attrs, ex)
}

func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// codePointColumn converts a tool's column on line to code points: the Go
// toolchain counts bytes, tsc UTF-16 code units; others are taken as code
// points. 0 (no column) stays 0.
func codePointColumn(line string, col int, tool string) int {
	if col <= 0 {
		return 0
	}
	switch tool {
	case "go", "vet":
		if col-1 > len(line) {
			return col - len(line) + utf8.RuneCountInString(line)
		}
		return utf8.RuneCountInString(line[:col-1]) + 1
	case "tsc":
		units, cps := 0, 0
		for _, r := range line {
			if units >= col-1 {
				break
			}
			units += utf16.RuneLen(r)
			cps++
		}
		return cps + 1 + max(0, col-1-units)
	}
	return col
}

// diagnosticRecord is one diagnostic, located when its file and line are
// there, stale when the file changed after the run began.
func diagnosticRecord(root *contain.Root, files map[string]*fileState, r *Result, d *Diagnostic, started time.Time, ran string) (evidence.Record, bool) {
	attrs := map[string]string{"command": r.Name, "tool": d.Tool, "severity": d.Severity, "ran_at": ran}
	for k, v := range map[string]string{"code": d.Code, "package": d.Package, "test": d.Test, "output": d.Output, "path": d.Path} {
		if v != "" {
			attrs[k] = v
		}
	}
	if d.Line > 0 {
		attrs["line"] = strconv.Itoa(d.Line)
	}
	if d.Column > 0 {
		attrs["column"] = strconv.Itoa(d.Column)
	}
	where := d.Path
	if d.Line > 0 {
		where += ":" + strconv.Itoa(d.Line)
		if d.Column > 0 {
			where += ":" + strconv.Itoa(d.Column)
		}
	}
	var ex string
	switch {
	case d.Test != "":
		ex = fmt.Sprintf("%s: %s in %s failed", r.Name, d.Test, d.Package)
		if where != "" {
			ex += " at " + where
		}
		ex += ": " + d.Message
	case where != "":
		ex = fmt.Sprintf("%s: %s: %s", r.Name, where, d.Message)
	default:
		ex = fmt.Sprintf("%s: %s", r.Name, d.Message)
	}
	if d.Code != "" {
		ex += " (" + d.Code + ")"
	}
	conf := 0.9
	if d.Severity != "error" {
		conf = 0.7
	}
	rec := base(conf, attrs, ex)
	if d.Path == "" || d.Line <= 0 || evidence.CheckPath(d.Path) != nil {
		return rec, false
	}
	st := files[d.Path]
	if st == nil {
		st = readFileState(root, d.Path, started)
		files[d.Path] = st
	}
	if !st.ok || d.Line > len(st.lines) {
		return rec, false
	}
	line := st.lines[d.Line-1]
	col := min(max(codePointColumn(line, d.Column, d.Tool), 1), utf8.RuneCountInString(line)+1)
	rec.Path, rec.StartLine, rec.StartColumn, rec.EndLine, rec.EndColumn = d.Path, d.Line, col, d.Line, col
	if st.changed {
		return evidence.MarkStale(rec), true
	}
	return rec, false
}
