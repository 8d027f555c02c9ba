package codecortex

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync"

	"github.com/codecortex/codecortex/evidence"
	"github.com/codecortex/codecortex/graph"
	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/precision"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/structural"
	"github.com/codecortex/codecortex/validation"
)

// The engine's layers. Each is made once per engine; those that cost time
// or write state to open (the local index, the project graph over it, the
// git repository, the rewriter) are opened by the first call that needs
// them and kept until Close. A host reaches a layer through these methods
// rather than composing its own, so that one process holds one of each:
// one precision index loaded, one local index, one graph.

// lazyLayers holds the layers opened on first use.
type lazyLayers struct {
	mu    sync.Mutex
	index *index.Index
	graph *graph.Provider
	hist  *history.Repo
	rw    *rewrite.Rewriter
}

// close releases what was opened, the graph before the index it reads.
func (l *lazyLayers) close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	var errs []error
	if l.rw != nil {
		errs = append(errs, l.rw.Close())
	}
	if l.hist != nil {
		errs = append(errs, l.hist.Close())
	}
	if l.graph != nil {
		errs = append(errs, l.graph.Close())
	}
	if l.index != nil {
		errs = append(errs, l.index.Close())
	}
	l.rw, l.hist, l.graph, l.index = nil, nil, nil, nil
	return errors.Join(errs...)
}

// Index returns the project's local index, opened on first use (which
// creates its storage under .codecortex/index); it is brought up to date
// by each query within its budget, or wholly by [Engine.Refresh].
func (e *Engine) Index() (*index.Index, error) {
	e.lazy.mu.Lock()
	defer e.lazy.mu.Unlock()
	return e.indexLocked()
}

func (e *Engine) indexLocked() (*index.Index, error) {
	if e.lazy.index == nil {
		ix, err := index.Open(e.indexOpts)
		if err != nil {
			return nil, err
		}
		e.lazy.index = ix
	}
	return e.lazy.index, nil
}

// Graph returns the project graph over the engine's local index, with the
// precision index's exact edges fused in when that layer is enabled.
func (e *Engine) Graph() (*graph.Provider, error) {
	e.lazy.mu.Lock()
	defer e.lazy.mu.Unlock()
	return e.graphLocked()
}

func (e *Engine) graphLocked() (*graph.Provider, error) {
	if e.lazy.graph == nil {
		ix, err := e.indexLocked()
		if err != nil {
			return nil, err
		}
		opts := e.project.GraphOptions()
		opts.Index = ix
		if !e.project.PrecisionOptions().Disabled {
			opts.Exact = e.scip // shared: the engine closes it
		}
		e.lazy.graph = graph.New(opts)
	}
	return e.lazy.graph, nil
}

// History returns the project's git history, opened on first use with
// the history layer's options and limit (0: its default). Opening judges
// the repository's git configuration; an error there (a configuration
// that needs trust) is returned again by every later call.
func (e *Engine) History(ctx context.Context, limit int) (*history.Repo, error) {
	e.lazy.mu.Lock()
	defer e.lazy.mu.Unlock()
	if e.lazy.hist != nil {
		return e.lazy.hist, nil
	}
	opts := e.project.HistoryOptions()
	if limit > 0 {
		opts.Limit = limit
	}
	r, err := history.Open(ctx, opts)
	if err != nil {
		return nil, err
	}
	e.lazy.hist = r
	return r, nil
}

// Rewriter returns the project's guarded rewriter, opened on first use,
// over the engine's own layers: it finds matches with the engine's
// structural search, estimates a rewrite's impact from the engine's
// project graph when the project has a local index (from the changed
// files alone otherwise), refreshes the engine's local index and
// precision index after an apply, and validates with the engine's
// validation before and after the change, so that an apply's result says
// which diagnostics are new. Opening it recovers nothing (see
// rewrite.Open).
func (e *Engine) Rewriter() (*rewrite.Rewriter, error) {
	e.lazy.mu.Lock()
	defer e.lazy.mu.Unlock()
	if e.lazy.rw != nil {
		return e.lazy.rw, nil
	}
	opts := e.project.RewriteOptions()
	opts.Matcher = e.structural
	opts.Reindexer = engineReindexer{e}
	opts.Validator = e.validation
	opts.ValidateBefore = true
	if hasIndex(e.project.Root) {
		g, err := e.graphLocked()
		if err != nil {
			return nil, err
		}
		opts.Impact = graphImpact{g}
	}
	r, err := rewrite.Open(opts)
	if err != nil {
		return nil, err
	}
	e.lazy.rw = r
	return r, nil
}

// hasIndex reports whether the project at root has a local index already.
func hasIndex(root string) bool {
	fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(index.StorageDir)))
	return err == nil && fi.IsDir()
}

// Precision returns the precision index provider (SCIP).
func (e *Engine) Precision() *precision.Provider { return e.scip }

// Structural returns structural search.
func (e *Engine) Structural() *structural.Provider { return e.structural }

// Memory returns the project's memory, whose entries the engine's author
// remembers.
func (e *Engine) Memory() *memory.Store { return e.memory }

// Validation returns the validation layer: the last run's results, and
// Run to run the project's checks.
func (e *Engine) Validation() *validation.Provider { return e.validation }

// lazyProvider is a provider opened by its first question: a layer whose
// opening costs time or writes state is not opened by NewEngine. The
// query's symbol travels in the context to the local index (see
// index.WithNames): a layer that reads the index without a name of its
// own (the project graph's facts), on a project whose index is far behind
// the disk, has it index the files that mention the symbol, not others.
type lazyProvider struct {
	name string
	open func() (evidence.Provider, error)
}

func (l lazyProvider) Name() string { return l.name }

func (l lazyProvider) Gather(ctx context.Context, q evidence.Query) (evidence.Response, error) {
	p, err := l.open()
	if err != nil {
		return evidence.Response{}, &evidence.UnavailableError{Reason: l.name + " cannot be opened", Err: err}
	}
	if q.Symbol != "" {
		ctx = index.WithNames(ctx, q.Symbol)
	}
	return p.Gather(ctx, q)
}
