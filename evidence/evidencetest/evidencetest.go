// Package evidencetest checks that an [evidence.Provider] keeps the evidence
// contract. A host program calls [TestProvider] from its own tests with its
// provider, its project root and a few representative queries.
package evidencetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/internal/contain"
)

// TestProvider runs [Check] and reports every problem as a test error.
func TestProvider(t testing.TB, p evidence.Provider, root string, queries ...evidence.Query) {
	t.Helper()
	for _, err := range Check(context.Background(), p, root, queries...) {
		t.Error(err)
	}
}

// Check runs p on each query (and once on a cancelled context) and returns
// every way it breaks the contract:
//
//   - Name is empty, or changes between calls;
//   - Gather panics;
//   - a report has an unknown state, or names a state other than available
//     without a reason;
//   - a record fails [evidence.Record.Validate] (which covers exact and stale
//     both set, and a tier above the method's ceiling);
//   - a record's provider is not the provider's name;
//   - a record's path leaves the root (lexically or through a symbolic link),
//     names no regular file, or its range lies past the file's end.
func Check(ctx context.Context, p evidence.Provider, root string, queries ...evidence.Query) []error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	r, err := contain.Open(root)
	if err != nil {
		return []error{fmt.Errorf("project root: %w", err)}
	}
	defer r.Close()
	name := p.Name()
	if name == "" {
		bad("Name() is empty")
	}
	if again := p.Name(); again != name {
		bad("Name() changed from %q to %q", name, again)
	}
	lines := map[string][]int{} // path → length of each line in code points
	for i, q := range queries {
		resp, err := gather(ctx, p, q)
		if err != nil {
			var ue *evidence.UnavailableError
			if !errors.Is(err, evidence.ErrDisabled) && !errors.As(err, &ue) && err.Error() == "" {
				bad("query %d: an error without a message", i)
			}
			if pe := (*panicError)(nil); errors.As(err, &pe) {
				bad("query %d: Gather panicked: %v", i, pe.v)
			}
			continue
		}
		switch resp.Report.State {
		case "", evidence.Available:
		case evidence.StaleState, evidence.Unavailable, evidence.Disabled:
			if resp.Report.Reason == "" {
				bad("query %d: report state %s without a reason", i, resp.Report.State)
			}
		default:
			bad("query %d: unknown report state %q", i, resp.Report.State)
		}
		for j := range resp.Records {
			rec := &resp.Records[j]
			where := fmt.Sprintf("query %d record %d (%s %s)", i, j, rec.Kind, rec.Location())
			if err := rec.Validate(); err != nil {
				bad("%s: %v", where, err)
			}
			if rec.Provider != name {
				bad("%s: provider %q, but the provider is named %q", where, rec.Provider, name)
			}
			if !rec.HasLocation() {
				continue
			}
			if err := checkLocation(r, rec, lines); err != nil {
				bad("%s: %v", where, err)
			}
		}
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if len(queries) > 0 {
		if _, err := gather(cctx, p, queries[0]); err != nil {
			if pe := (*panicError)(nil); errors.As(err, &pe) {
				bad("Gather panicked on a cancelled context: %v", pe.v)
			}
		}
	}
	return errs
}

type panicError struct{ v any }

func (e *panicError) Error() string { return fmt.Sprint("panic: ", e.v) }

func gather(ctx context.Context, p evidence.Provider, q evidence.Query) (resp evidence.Response, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &panicError{v}
		}
	}()
	return p.Gather(ctx, q)
}

func checkLocation(r *contain.Root, rec *evidence.Record, cache map[string][]int) error {
	if _, err := r.Rel(rec.Path); err != nil {
		return fmt.Errorf("location outside the project root: %w", err)
	}
	lens, ok := cache[rec.Path]
	if !ok {
		fi, err := r.Stat(rec.Path)
		if err != nil {
			return fmt.Errorf("location names no file: %w", err)
		}
		if !fi.Mode().IsRegular() {
			return fmt.Errorf("location %s is not a regular file", rec.Path)
		}
		data, err := r.ReadFile(rec.Path)
		if err != nil {
			return err
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			lens = append(lens, len([]rune(string(line))))
		}
		cache[rec.Path] = lens
	}
	// Half-open ranges may end just past the last character of a line.
	for _, p := range [][2]int{{rec.StartLine, rec.StartColumn}, {rec.EndLine, rec.EndColumn}} {
		if p[0] > len(lens) {
			return fmt.Errorf("line %d is past the end of %s (%d lines)", p[0], rec.Path, len(lens))
		}
		if p[1] > lens[p[0]-1]+1 {
			return fmt.Errorf("column %d is past the end of %s line %d (%d code points)", p[1], rec.Path, p[0], lens[p[0]-1])
		}
	}
	return nil
}
