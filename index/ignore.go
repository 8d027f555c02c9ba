package index

import (
	"io/fs"

	"github.com/codecortex/codecortex/internal/ignore"
)

// A matcher decides which paths the walk leaves out, judging each path
// alone (the walk does not enter a directory the matcher leaves out).
type matcher interface {
	Match(p string, isDir bool) bool
}

// newMatcher returns the ignore rules of the tree fsys holds: git's
// .gitignore semantics, each directory's file read once. The walk calls it
// from one goroutine at a time.
func newMatcher(fsys fs.FS) matcher { return ignore.NewTree(fsys) }
