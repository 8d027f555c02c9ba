package codecortex

import (
	"context"
	"fmt"

	"github.com/codecortex/codecortex/history"
	"github.com/codecortex/codecortex/index"
	"github.com/codecortex/codecortex/memory"
	"github.com/codecortex/codecortex/rewrite"
	"github.com/codecortex/codecortex/validation"
)

// The engine's typed methods for the questions beside definitions,
// references and impact: each takes a small request and returns records
// or the layer's own typed result, never text, so that the CLI and the
// MCP server answer a question through one code path.

// Callers finds what uses the symbol t names: the precision index's
// references without the declaration (exact), or, when it has no fresh
// answer, the project graph's direct callers of the name — t's name, or the
// one written at t's position — each record naming the caller (Symbol) and
// what it uses (TargetSymbol). A target that names nothing is a
// [TargetError].
func (e *Engine) Callers(ctx context.Context, t Target) (*Located, error) {
	return e.Locate(ctx, LocateQuery{Relation: Callers, Target: t})
}

// A SearchQuery is what [Engine.Search] is asked.
type SearchQuery struct {
	// Text is words or identifiers; stopwords are dropped.
	Text string `json:"text"`
	// Content keeps only "code" or only "prose" chunks; empty keeps both.
	Content string `json:"content,omitempty"`
	// Limit is the most hits returned; 0 means the index's default.
	Limit int `json:"limit,omitempty"`
}

// Search searches the local index for words: ranked chunks with their
// excerpts, those defining a queried name first, then those of a symbol
// whose name holds a query word, then text. The index is brought up to
// date within its budget first; the result's freshness says what it
// left. Text with no word to search for is an error matching
// index.ErrEmptyQuery.
func (e *Engine) Search(ctx context.Context, q SearchQuery) (index.SearchResult, error) {
	ix, err := e.Index()
	if err != nil {
		return index.SearchResult{}, err
	}
	return ix.Search(ctx, q.Text, index.SearchOptions{Limit: q.Limit, Content: q.Content})
}

// A SymbolsQuery is what [Engine.Symbols] is asked.
type SymbolsQuery struct {
	// Path is a file or directory relative to the project root; "" or "."
	// is the whole project.
	Path string `json:"path,omitempty"`
}

// Symbols outlines the definitions of a file, or of every file under a
// directory, by path and line, from the local index. A path the project
// does not have is a [TargetError].
func (e *Engine) Symbols(ctx context.Context, q SymbolsQuery) (index.OutlineResult, error) {
	p := q.Path
	if p == "" {
		p = "."
	}
	if p != "." {
		if err := e.root.Check(p); err != nil {
			return index.OutlineResult{}, &TargetError{Target: Target{Path: p}, Reason: err.Error()}
		}
		if _, err := e.root.Stat(p); err != nil {
			return index.OutlineResult{}, &TargetError{Target: Target{Path: p}, Reason: "no such file or directory in the project"}
		}
	}
	ix, err := e.Index()
	if err != nil {
		return index.OutlineResult{}, err
	}
	return ix.Outline(ctx, p)
}

// A HistoryQuery is what [Engine.HistoryOf] is asked.
type HistoryQuery struct {
	// Path is a file or directory relative to the project root: its
	// commits, following renames. Empty asks what changed since Since.
	Path string `json:"path,omitempty"`
	// StartLine and EndLine (one-based, inclusive; EndLine 0 is StartLine,
	// and one past the file's end its last line) ask who last changed
	// those lines of the file Path.
	StartLine int `json:"start_line,omitempty"`
	EndLine   int `json:"end_line,omitempty"`
	// Since is a revision: what changed since it, the work tree and
	// untracked files included. Without a path, "" is HEAD.
	Since string `json:"since,omitempty"`
	// Limit is the most commits each list holds; 0 means the history
	// layer's. The engine's repository is opened with the first limit it is
	// asked for, and a larger one later still says More past it.
	Limit int `json:"limit,omitempty"`
}

// A HistoryResult is [Engine.HistoryOf]'s answer: each part present when
// the query asked for it.
type HistoryResult struct {
	// Path is the path asked about, relative to the project root.
	Path string `json:"path,omitempty"`
	// History is the path's commits, newest first.
	History *history.FileHistory `json:"history,omitempty"`
	// Blame is who last changed each run of the lines asked about.
	Blame []history.Hunk `json:"blame,omitempty"`
	// Changes is what changed since the revision asked about.
	Changes *history.ChangeSet `json:"changes,omitempty"`
	// Shallow says the clone is shallow: the commit lists may stop early.
	Shallow bool `json:"shallow,omitempty"`
}

// HistoryOf answers a history question from the project's git repository:
// a path's commits with the pull requests they came from, who last changed
// a line range, and what changed since a revision. A path or line range
// the project does not have is a [TargetError]; an unknown revision
// matches history.ErrRevision.
func (e *Engine) HistoryOf(ctx context.Context, q HistoryQuery) (*HistoryResult, error) {
	if err := e.checkLines(q); err != nil {
		return nil, err
	}
	limit := q.Limit
	if limit <= 0 {
		limit = history.DefaultLimit
	}
	repo, err := e.History(ctx, limit)
	if err != nil {
		return nil, err
	}
	out := &HistoryResult{Path: q.Path, Shallow: repo.Shallow()}
	if q.Path != "" {
		fh, err := repo.Log(ctx, q.Path)
		if err != nil {
			return nil, err
		}
		h := *fh
		if len(h.Entries) > limit {
			h.Entries, h.More = h.Entries[:limit], true
		}
		out.History = &h
		if q.StartLine > 0 {
			end := max(q.EndLine, q.StartLine)
			if out.Blame, err = repo.Blame(ctx, q.Path, q.StartLine, end); err != nil {
				return nil, err
			}
		}
	}
	if q.Path == "" || q.Since != "" {
		cs, err := repo.Changes(ctx, q.Since)
		if err != nil {
			return nil, err
		}
		c := *cs
		if len(c.Commits) > limit {
			c.Commits, c.MoreCommits = c.Commits[:limit], true
		}
		out.Changes = &c
		out.Shallow = out.Shallow || c.Shallow
	}
	return out, nil
}

// checkLines refuses a history query whose path the project does not
// have, or whose line range does not start inside its file.
func (e *Engine) checkLines(q HistoryQuery) error {
	t := Target{Path: q.Path, Line: q.StartLine, Column: 1}
	switch {
	case q.StartLine == 0 && q.EndLine != 0:
		return &TargetError{Target: t, Reason: "an end line without a start line"}
	case q.StartLine != 0 && q.Path == "":
		return &TargetError{Target: t, Reason: "a line range needs a path"}
	case q.StartLine < 0 || (q.EndLine != 0 && q.EndLine < q.StartLine):
		return &TargetError{Target: t, Reason: fmt.Sprintf("lines %d-%d: want 1 ≤ start ≤ end", q.StartLine, q.EndLine)}
	case q.Path == "":
		return nil
	case q.StartLine == 0:
		// A path's commits: it may be a directory, or a file deleted since.
		if err := e.root.Check(q.Path); err != nil {
			return &TargetError{Target: Target{Path: q.Path}, Reason: err.Error()}
		}
		return nil
	}
	return e.checkTarget(t)
}

// Recall returns the project's memories that match q, best first
// (relevance times confidence), each with its review state and its
// confidence decayed to now.
func (e *Engine) Recall(ctx context.Context, q memory.Query) ([]memory.Match, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return e.memory.Recall(q)
}

// Remember keeps entry in the project's memory and returns it as stored;
// remembering the same content again returns the same entry. Without an
// author, the entry's is the engine's (Options.Author). An invalid entry
// is an error matching memory.ErrInvalid.
func (e *Engine) Remember(ctx context.Context, entry memory.Entry) (memory.Entry, error) {
	return e.memory.Remember(ctx, entry)
}

// Validate runs the project's validation commands now (the configured
// ones once trusted, or those detected for its ecosystems) and returns
// each outcome; later answers cite the results as validation evidence.
// A project with nothing to run is an error matching
// validation.ErrNoCommands.
func (e *Engine) Validate(ctx context.Context) (*validation.Outcome, error) {
	return e.validation.Run(ctx)
}

// PreviewRewrite previews a structural rewrite with the engine's
// rewriter: each file's diff, the counts, the impact, and an id to apply
// it by. It changes nothing in the project.
func (e *Engine) PreviewRewrite(ctx context.Context, req rewrite.Request) (*rewrite.Preview, error) {
	r, err := e.Rewriter()
	if err != nil {
		return nil, err
	}
	return r.Preview(ctx, req)
}

// ShowRewrite returns the rewrite preview stored under id.
func (e *Engine) ShowRewrite(id string) (*rewrite.Preview, error) {
	r, err := e.Rewriter()
	if err != nil {
		return nil, err
	}
	return r.Show(id)
}

// ApplyRewrite applies the rewrite preview id as auth permits: every file
// or none (a file changed since the preview aborts it), then reindexing
// and validation, each problem in the result.
func (e *Engine) ApplyRewrite(ctx context.Context, id string, auth rewrite.Authorization) (*rewrite.Result, error) {
	r, err := e.Rewriter()
	if err != nil {
		return nil, err
	}
	return r.Apply(ctx, id, auth)
}
