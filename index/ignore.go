package index

import (
	"io/fs"

	"github.com/codecortex/codecortex/internal/ignore"
)

// A matcher decides which paths the walk leaves out, judging each path
// alone (the walk does not enter a directory the matcher leaves out).
type matcher interface {
	Match(p string, isDir bool) bool
	// Diagnostics says what the matcher could not apply as written and
	// what it left out instead, of the ignore files it read.
	Diagnostics() []string
}

// newMatcher returns the ignore rules of the tree fsys holds: git's
// .gitignore semantics, each directory's file read once. The walk calls it
// from one goroutine at a time.
func newMatcher(fsys fs.FS) matcher { return treeMatcher{ignore.NewTree(fsys)} }

type treeMatcher struct{ *ignore.Tree }

func (m treeMatcher) Diagnostics() []string {
	var out []string
	for _, d := range m.Tree.Diagnostics() {
		out = append(out, d.String())
	}
	return out
}
