package ignore

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// The limits on what a tree's ignore files may hold. Past one, the
// rules cannot be applied as written, and leaving some of them out could
// index what the user meant to ignore: the directory of the ignore file
// that passes the limit is left out of the walk instead, as if ignored,
// and a Diagnostic says so (for .git/info/exclude, the whole tree).
type limits struct {
	// fileBytes and fileRules bound one ignore file.
	fileBytes int64
	fileRules int
	// general bounds the weight of the general rules (those that are
	// not looked up, see List) in effect in one directory: its own ignore
	// file's, its ancestors' and .git/info/exclude's. Each is run on
	// every path below, at a cost of its weight (a word of its glob for
	// each 64 tokens) per byte of the path.
	general int
	// treeBytes, treeRules and treeGeneral bound all the ignore files one
	// Tree reads, which it keeps in memory: their bytes, their rules and
	// the weight of their general rules (what compiling them costs). Which
	// file passes one of these depends on the order the walk reads them
	// in; only a tree built to pass them has one.
	treeBytes   int64
	treeRules   int
	treeGeneral int
}

var defaultLimits = limits{
	fileBytes:   1 << 20,
	fileRules:   100_000,
	general:     256,
	treeBytes:   8 << 20,
	treeRules:   400_000,
	treeGeneral: 16_384,
}

// A Diagnostic reports an ignore file that could not be applied as
// written, and the directory left out of the walk for it.
type Diagnostic struct {
	// File is the ignore file, a slash path relative to the root.
	File string
	// Dir is the directory whose paths are all ignored for it, "." for
	// the whole tree.
	Dir string
	// Reason says which limit it passed.
	Reason string
}

func (d Diagnostic) String() string {
	where := "every path under " + d.Dir + "/ is"
	if d.Dir == "." {
		where = "every path of the tree is"
	}
	return fmt.Sprintf("ignore file %s is not applied (%s): %s left out as ignored, so that nothing it may ignore is indexed", d.File, d.Reason, where)
}

// quotePrefix quotes the start of a refused pattern, at most 32 bytes of
// it, for a diagnostic.
func quotePrefix(s string) string {
	const n = 32
	if len(s) <= n {
		return strconv.Quote(s)
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]) + "…"
}

// generalReason says that r brings the general rules in effect past the
// limit.
func generalReason(lim limits, r *rule) string {
	return fmt.Sprintf("patterns that need a full glob match weigh more than %d in one directory, one per 64 tokens of a pattern; line %d passes it: %s",
		lim.general, r.line, quotePrefix(r.text))
}
