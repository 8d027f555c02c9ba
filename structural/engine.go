package structural

import (
	"context"
	"fmt"
	"sort"

	"github.com/codecortex/codecortex/internal/contain"
)

// An Engine runs structural searches inside a project root.
type Engine interface {
	// Name identifies the engine in records and reports, such as
	// "tree-sitter" or "ast-grep".
	Name() string
	// Search finds the pattern's matches. An unusable pattern is a
	// [*PatternError]; an engine that cannot run here wraps
	// [ErrUnavailable].
	Search(ctx context.Context, req Request) (*Result, error)
}

// A Request is one structural search.
type Request struct {
	// Root is the project root directory; every path stays inside it.
	// Empty means [Options.Dir] for [Search] and the [Provider], and the
	// working directory for an engine called directly.
	Root string
	// Pattern is the ast-grep style pattern, such as "old_api($$$ARGS)".
	Pattern string
	// Language is the pattern's language. Empty means every language whose
	// files are searched and in which the pattern compiles.
	Language Language
	// Paths are files, directories or globs (with ** for any depth),
	// relative to Root or absolute inside it. Empty means all of Root.
	// .git, vendor and node_modules directories are never entered, and
	// what the tree's .gitignore files and .git/info/exclude ignore is
	// left out, as git and ripgrep leave it out; a file or directory named
	// here is searched even when ignored (what is ignored below a named
	// directory stays out), as ripgrep searches what it is given.
	Paths []string
	// Limits bound the work; the zero value uses the defaults.
	Limits Limits
	// Each, when not nil, is given every match in the order of
	// [Result.Matches] (path, then start offset, outer before inner) as
	// the search finds it, and the match is not kept: Result.Matches
	// stays empty and [Result.Found] counts what Each was given. A host
	// that prints or counts the matches of a large tree uses it to search
	// in memory bounded by a few dozen files rather than by every match.
	// The match, with its captures and their nodes, lives until Each
	// returns: the engine builds later matches in the same memory, so a
	// host keeping one keeps [Match.Clone] of it, not a copy of the
	// struct (whose strings stay valid unless Recycle is set). Each is
	// called from one goroutine at a time, and an error from it stops the
	// search and is returned.
	Each func(*Match) error
	// Recycle, with Each, lets the engine read later files into the
	// memory of a file whose matches Each was given, as it builds later
	// matches in their captures' and nodes': the match's strings then
	// also live only until Each returns, and a host keeping anything of a
	// match keeps [Match.Clone] of it or a copy (strings.Clone) of the
	// string. A host that prints or counts the matches sets it, and no
	// file then needs fresh memory for its source. It is ignored while the
	// engine keeps parsed files between searches (a cache).
	Recycle bool
}

// Limits bound a search. Zero fields take the defaults.
type Limits struct {
	// MaxFiles caps the files searched (default 100000).
	MaxFiles int
	// MaxMatches caps the matches returned (default 10000).
	MaxMatches int
	// MaxFileBytes skips larger files (default 4 MiB).
	MaxFileBytes int64
}

// The default limits.
const (
	DefaultMaxFiles     = 100000
	DefaultMaxMatches   = 10000
	DefaultMaxFileBytes = 4 << 20
)

func (l Limits) withDefaults() Limits {
	if l.MaxFiles <= 0 {
		l.MaxFiles = DefaultMaxFiles
	}
	if l.MaxMatches <= 0 {
		l.MaxMatches = DefaultMaxMatches
	}
	if l.MaxFileBytes <= 0 {
		l.MaxFileBytes = DefaultMaxFileBytes
	}
	return l
}

// A Result is what a search found.
type Result struct {
	// Engine is the name of the engine that ran.
	Engine string `json:"engine"`
	// Matches are ordered by path, then start offset, outer before inner;
	// empty when the request's Each was given them.
	Matches []Match `json:"matches"`
	// Found is how many matches the search returned: len(Matches), or
	// how many the request's Each was given.
	Found int `json:"found"`
	// Files is how many files were searched; Parsed how many of them had
	// to be parsed (the others lacked a literal the pattern needs).
	Files  int `json:"files"`
	Parsed int `json:"parsed"`
	// Truncated says a limit cut the search short, and Notes say which.
	Truncated bool     `json:"truncated"`
	Notes     []string `json:"notes,omitempty"`
}

// sortMatches puts matches in the deterministic order: path, start
// offset, then the longer (outer) match first.
func sortMatches(ms []Match) {
	sort.SliceStable(ms, func(i, j int) bool {
		a, b := &ms[i], &ms[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Range.StartByte != b.Range.StartByte {
			return a.Range.StartByte < b.Range.StartByte
		}
		return a.Range.EndByte > b.Range.EndByte
	})
}

// startResult resolves the request's files and starts the result that
// says how many there are and whether the file limit cut them.
func startResult(engine string, root *contain.Root, req Request, lim Limits, want func(string) bool) (fileSet, *Result, error) {
	files, err := collectFiles(root, req.Paths, want, lim.MaxFiles)
	if err != nil {
		return fileSet{}, nil, err
	}
	res := &Result{Engine: engine, Files: len(files.files), Matches: []Match{}}
	if files.truncated {
		res.Truncated = true
		res.Notes = append(res.Notes, maxFilesNote(lim.MaxFiles))
	}
	res.Notes = append(res.Notes, files.notes...)
	return files, res, nil
}

// maxFilesNote is a result's note when the file limit max left files out.
func maxFilesNote(max int) string {
	return fmt.Sprintf("searched only the first %d files (limit max_files)", max)
}

// finishResult orders the matches and applies the match limit.
func finishResult(res *Result, lim Limits) {
	sortMatches(res.Matches)
	if len(res.Matches) > lim.MaxMatches {
		res.Matches = res.Matches[:lim.MaxMatches]
		res.Truncated = true
		res.Notes = append(res.Notes, fmt.Sprintf("returned only the first %d matches (limit max_matches)", lim.MaxMatches))
	}
	res.Found = len(res.Matches)
}

// handOver gives an engine's collected matches to req.Each, when the
// request has one, and leaves Result.Matches empty.
func handOver(req Request, res *Result) error {
	if req.Each == nil {
		return nil
	}
	for i := range res.Matches {
		if err := req.Each(&res.Matches[i]); err != nil {
			return err
		}
	}
	res.Matches = []Match{}
	return nil
}
