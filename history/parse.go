package history

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// logFormat is the --format of every git log this package parses, with
// -z: a record opens with \x01 and its fields are NUL-separated. A commit
// message cannot hold a NUL byte, so counting fields is unambiguous
// whatever the subject and body contain.
const logFormat = "--format=%x01%H%x00%P%x00%aN%x00%aE%x00%aI%x00%s%x00%b"

const logFields = 7

// A logEntry is one record of git log output: the commit, and with
// --name-status what it did to the paths (repository-relative).
type logEntry struct {
	commit  Commit
	changes []rawChange
}

// A rawChange is one name-status or raw diff entry, paths relative to the
// top of the work tree.
type rawChange struct {
	status     Status
	similarity int
	path, old  string
}

// parseLog parses git log -z output in [logFormat], with or without
// --name-status.
func parseLog(out []byte) ([]logEntry, error) {
	if len(bytes.TrimSpace(out)) == 0 {
		return nil, nil
	}
	toks := strings.Split(string(out), "\x00")
	var entries []logEntry
	for i := 0; i < len(toks); {
		t := toks[i]
		if t == "" || t == "\n" {
			i++
			continue
		}
		if !strings.HasPrefix(t, "\x01") {
			if len(entries) == 0 {
				return nil, fmt.Errorf("git log: output does not start with a commit: %q", clip(t))
			}
			ch, n, err := parseNameStatus(strings.TrimLeft(t, "\n"), toks[i+1:])
			if err != nil {
				return nil, err
			}
			e := &entries[len(entries)-1]
			e.changes = append(e.changes, ch)
			i += 1 + n
			continue
		}
		if i+logFields > len(toks) {
			return nil, fmt.Errorf("git log: a commit record is cut short")
		}
		c, err := parseCommit(toks[i : i+logFields])
		if err != nil {
			return nil, err
		}
		entries = append(entries, logEntry{commit: c})
		i += logFields
	}
	return entries, nil
}

// parseCommit reads the fields of one [logFormat] record.
func parseCommit(f []string) (Commit, error) {
	hash := strings.TrimPrefix(f[0], "\x01")
	if !isHash(hash) {
		return Commit{}, fmt.Errorf("git log: %q is not a commit hash", clip(hash))
	}
	c := Commit{Hash: hash, Author: clean(f[2]), Email: clean(f[3]), Subject: clean(f[5]),
		Body: strings.TrimSpace(clean(f[6]))}
	for _, p := range strings.Fields(f[1]) {
		if !isHash(p) {
			return Commit{}, fmt.Errorf("git log: parent %q is not a commit hash", clip(p))
		}
		c.Parents = append(c.Parents, p)
	}
	d, err := time.Parse(time.RFC3339, f[4])
	if err != nil {
		return Commit{}, fmt.Errorf("git log: commit %s: date %q: %w", hash, clip(f[4]), err)
	}
	c.Date = d
	return c, nil
}

// parseNameStatus reads one --name-status -z entry: the status code, and
// from the start of rest one path, or two for a rename or copy. It returns
// the entry and the number of paths it took from rest.
func parseNameStatus(code string, rest []string) (rawChange, int, error) {
	st, sim, err := parseStatus(code)
	if err != nil {
		return rawChange{}, 0, err
	}
	paths := 1
	if st == Renamed || st == Copied {
		paths = 2
	}
	if len(rest) < paths {
		return rawChange{}, 0, fmt.Errorf("git: status %q without its path", clip(code))
	}
	ch := rawChange{status: st, similarity: sim, path: rest[paths-1]}
	if paths == 2 {
		ch.old = rest[0]
	}
	for _, p := range []string{ch.path, ch.old} {
		if p != "" && !validRepoPath(p) {
			return rawChange{}, 0, fmt.Errorf("git: %q is not a path in the work tree", clip(p))
		}
	}
	if ch.path == "" {
		return rawChange{}, 0, fmt.Errorf("git: status %q with an empty path", clip(code))
	}
	return ch, paths, nil
}

// parseStatus reads a status letter with its optional score ("R087").
func parseStatus(code string) (Status, int, error) {
	if code == "" {
		return "", 0, fmt.Errorf("git: an empty status")
	}
	sim := 0
	if len(code) > 1 {
		n, err := strconv.Atoi(code[1:])
		if err != nil || n < 0 || n > 100 {
			return "", 0, fmt.Errorf("git: status %q has a bad score", clip(code))
		}
		sim = n
	}
	var st Status
	switch code[0] {
	case 'A':
		st = Added
	case 'M':
		st = Modified
	case 'D':
		st = Deleted
	case 'R':
		st = Renamed
	case 'C':
		st = Copied
	case 'T':
		st = TypeChanged
	case 'U':
		st = Unmerged
	default:
		return "", 0, fmt.Errorf("git: unknown status %q", clip(code))
	}
	if sim != 0 && st != Renamed && st != Copied && st != Modified {
		return "", 0, fmt.Errorf("git: status %q has a score", clip(code))
	}
	return st, sim, nil
}

// parseDiff parses "git diff -z --raw --numstat" output: the raw entries
// (":mode mode hash hash STATUS" and one or two paths) and then the
// numstat entries ("added\tdeleted\tpath", or "added\tdeleted\t" followed
// by the old and new paths of a rename), joined by path.
func parseDiff(out []byte) ([]Change, error) {
	toks := splitNUL(out)
	var changes []Change
	byPath := map[string]int{}
	for i := 0; i < len(toks); {
		t := toks[i]
		switch {
		case t == "":
			i++
		case t[0] == ':':
			f := strings.Fields(t)
			if len(f) != 5 {
				return nil, fmt.Errorf("git diff: raw entry %q", clip(t))
			}
			ch, n, err := parseNameStatus(f[4], toks[i+1:])
			if err != nil {
				return nil, err
			}
			c := Change{Path: ch.path, OldPath: ch.old, Status: ch.status, Similarity: ch.similarity}
			if _, dup := byPath[c.Path]; dup {
				return nil, fmt.Errorf("git diff: %q is listed twice", clip(c.Path))
			}
			byPath[c.Path] = len(changes)
			changes = append(changes, c)
			i += 1 + n
		default:
			f := strings.SplitN(t, "\t", 3)
			if len(f) != 3 {
				return nil, fmt.Errorf("git diff: numstat entry %q", clip(t))
			}
			p, n := f[2], 1
			if p == "" { // a rename: old and new path follow
				if i+2 >= len(toks) {
					return nil, fmt.Errorf("git diff: numstat rename without its paths")
				}
				p, n = toks[i+2], 3
			}
			j, ok := byPath[p]
			if !ok {
				return nil, fmt.Errorf("git diff: numstat for %q, which has no raw entry", clip(p))
			}
			if f[0] == "-" && f[1] == "-" {
				changes[j].Binary = true
			} else {
				a, err1 := strconv.Atoi(f[0])
				d, err2 := strconv.Atoi(f[1])
				if err1 != nil || err2 != nil || a < 0 || d < 0 {
					return nil, fmt.Errorf("git diff: numstat counts %q", clip(t))
				}
				changes[j].Added, changes[j].Deleted = a, d
			}
			i += n
		}
	}
	return changes, nil
}

// A blameLine is one line of git blame --porcelain output.
type blameLine struct {
	hash     string
	origLine int
	line     int
	origPath string
}

// A blameInfo is what porcelain output says of a commit, once.
type blameInfo struct {
	author, email, summary string
	date                   time.Time
	boundary               bool
	path                   string
}

// parseBlame parses git blame --porcelain output into lines in the order
// given and what it says about each commit. Content lines (starting with
// a tab) are skipped; header lines of unknown keys are ignored, as the
// format allows.
func parseBlame(out []byte) ([]blameLine, map[string]*blameInfo, error) {
	var lines []blameLine
	info := map[string]*blameInfo{}
	var cur *blameInfo
	var tz string
	var unix int64 = -1
	text := string(out)
	for len(text) > 0 {
		var ln string
		ln, text, _ = strings.Cut(text, "\n")
		if strings.HasPrefix(ln, "\t") {
			cur = nil
			continue
		}
		if cur == nil {
			f := strings.Fields(ln)
			if len(f) < 3 || len(f) > 4 || !isHash(f[0]) {
				return nil, nil, fmt.Errorf("git blame: expected a commit line, got %q", clip(ln))
			}
			orig, err1 := strconv.Atoi(f[1])
			final, err2 := strconv.Atoi(f[2])
			if err1 != nil || err2 != nil || orig < 1 || final < 1 {
				return nil, nil, fmt.Errorf("git blame: bad line numbers in %q", clip(ln))
			}
			cur = info[f[0]]
			if cur == nil {
				cur = &blameInfo{}
				info[f[0]] = cur
			}
			lines = append(lines, blameLine{hash: f[0], origLine: orig, line: final, origPath: cur.path})
			continue
		}
		key, val, _ := strings.Cut(ln, " ")
		switch key {
		case "author":
			cur.author = clean(val)
		case "author-mail":
			cur.email = strings.TrimSuffix(strings.TrimPrefix(clean(val), "<"), ">")
		case "author-time":
			n, err := strconv.ParseInt(val, 10, 64)
			if err != nil {
				return nil, nil, fmt.Errorf("git blame: author-time %q", clip(val))
			}
			unix = n
		case "author-tz":
			tz = val
		case "summary":
			cur.summary = clean(val)
		case "boundary":
			cur.boundary = true
		case "filename":
			if !validRepoPath(val) {
				return nil, nil, fmt.Errorf("git blame: %q is not a path in the work tree", clip(val))
			}
			cur.path = val
			lines[len(lines)-1].origPath = val
		}
		if unix >= 0 && (key == "author-tz" || key == "author-time") && tz != "" {
			cur.date = blameTime(unix, tz)
			unix, tz = -1, ""
		}
	}
	if cur != nil {
		return nil, nil, fmt.Errorf("git blame: the last line has no content")
	}
	return lines, info, nil
}

// blameTime returns the instant unix in the zone tz ("+0130").
func blameTime(unix int64, tz string) time.Time {
	t := time.Unix(unix, 0)
	if len(tz) == 5 && (tz[0] == '+' || tz[0] == '-') {
		h, err1 := strconv.Atoi(tz[1:3])
		m, err2 := strconv.Atoi(tz[3:5])
		if err1 == nil && err2 == nil {
			off := h*3600 + m*60
			if tz[0] == '-' {
				off = -off
			}
			return t.In(time.FixedZone(tz, off))
		}
	}
	return t.UTC()
}

// parseRevList parses "git rev-list --parents" output: each commit and its
// parents, in the order given.
func parseRevList(out []byte) (order []string, parents map[string][]string, err error) {
	parents = map[string][]string{}
	for _, ln := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if ln == "" {
			continue
		}
		f := strings.Fields(ln)
		for _, h := range f {
			if !isHash(h) {
				return nil, nil, fmt.Errorf("git rev-list: %q is not a commit hash", clip(h))
			}
		}
		if _, dup := parents[f[0]]; dup {
			continue
		}
		order = append(order, f[0])
		parents[f[0]] = f[1:]
	}
	return order, parents, nil
}

// isHash reports whether s is a full SHA-1 or SHA-256 object name in lower
// case hexadecimal.
func isHash(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
}

// zeroHash reports whether h is the all-zero name git gives uncommitted
// lines.
func zeroHash(h string) bool { return strings.Trim(h, "0") == "" }

// validRepoPath reports whether p can be a path git prints relative to the
// top of the work tree: not empty, not absolute, no "." or ".." element,
// no NUL byte, valid UTF-8 or not (git allows any bytes) but never a
// control character that would make it display as something else.
func validRepoPath(p string) bool {
	if p == "" || p[0] == '/' || strings.ContainsRune(p, 0) {
		return false
	}
	for _, e := range strings.Split(p, "/") {
		if e == "" || e == "." || e == ".." {
			return false
		}
	}
	return true
}

// clean makes text from git safe to show: valid UTF-8, no control
// characters other than newline and tab.
func clean(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if strings.IndexFunc(s, isControl) < 0 {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isControl(r) {
			return -1
		}
		return r
	}, s)
}

func isControl(r rune) bool {
	return r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r < 0xa0 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x61c
}

// clip shortens s for an error message.
func clip(s string) string {
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return strings.ToValidUTF8(s, "?")
}

// parseHunks parses "git diff -U0" output (with the a/ and b/ prefixes)
// into the lines each file now has that the diff added or changed, by
// the file's path in the work tree. A hunk that only deletes marks the
// lines on either side of the deletion. Hunk bodies are skipped by their
// counts, so a changed line that reads like a header is never taken for
// one. A file the diff removes, or shows no hunk of (binary, a rename
// alone, a mode change), is absent.
func parseHunks(out []byte) (map[string][]LineRange, error) {
	ranges := map[string][]LineRange{}
	path := ""
	lines := strings.Split(string(out), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff "):
			path = ""
		case strings.HasPrefix(l, "+++ "):
			p, err := diffPath(l[4:])
			if err != nil {
				return nil, err
			}
			path = p
		case strings.HasPrefix(l, "@@ "):
			old, cur, err := parseHunkHeader(l)
			if err != nil {
				return nil, err
			}
			if cur.count > 0 && cur.start < 1 {
				return nil, fmt.Errorf("git diff: hunk header %q", clip(l))
			}
			if path != "" {
				r := LineRange{Start: cur.start, End: cur.start + cur.count - 1}
				if cur.count == 0 { // a deletion after line cur.start
					r = LineRange{Start: max(cur.start, 1), End: cur.start + 1}
				}
				ranges[path] = append(ranges[path], r)
			}
			// Skip the body: old.count "-" lines and cur.count "+" lines,
			// each possibly followed by "\ No newline at end of file".
			for n := old.count + cur.count; n > 0 && i+1 < len(lines); {
				i++
				switch {
				case strings.HasPrefix(lines[i], `\`):
				case strings.HasPrefix(lines[i], "-"), strings.HasPrefix(lines[i], "+"):
					n--
				default:
					return nil, fmt.Errorf("git diff: hunk line %q", clip(lines[i]))
				}
			}
			for i+1 < len(lines) && strings.HasPrefix(lines[i+1], `\`) {
				i++
			}
		}
	}
	return ranges, nil
}

// A hunkSide is one side of a hunk header: its first line and count.
type hunkSide struct{ start, count int }

// parseHunkHeader reads "@@ -a[,b] +c[,d] @@…".
func parseHunkHeader(l string) (old, cur hunkSide, err error) {
	f := strings.Fields(l)
	if len(f) < 4 || f[3] != "@@" || !strings.HasPrefix(f[1], "-") || !strings.HasPrefix(f[2], "+") {
		return old, cur, fmt.Errorf("git diff: hunk header %q", clip(l))
	}
	if old, err = parseHunkSide(f[1][1:]); err == nil {
		cur, err = parseHunkSide(f[2][1:])
	}
	if err != nil {
		return old, cur, fmt.Errorf("git diff: hunk header %q", clip(l))
	}
	return old, cur, nil
}

// maxHunkLine bounds a hunk's line numbers, so that no sum overflows.
const maxHunkLine = 1 << 30

func parseHunkSide(s string) (hunkSide, error) {
	start, count, hasCount := strings.Cut(s, ",")
	h := hunkSide{count: 1}
	var err error
	if h.start, err = strconv.Atoi(start); err != nil || h.start < 0 || h.start > maxHunkLine {
		return h, errors.New("bad start")
	}
	if hasCount {
		if h.count, err = strconv.Atoi(count); err != nil || h.count < 0 || h.count > maxHunkLine {
			return h, errors.New("bad count")
		}
	}
	return h, nil
}

// diffPath reads the path of a "+++ " line: "b/path", "/dev/null", or
// either quoted the way git quotes unusual names.
func diffPath(s string) (string, error) {
	if s == "/dev/null" {
		return "", nil
	}
	if strings.HasPrefix(s, `"`) {
		u, err := strconv.Unquote(s)
		if err != nil {
			return "", fmt.Errorf("git diff: quoted path %q", clip(s))
		}
		s = u
	}
	p, ok := strings.CutPrefix(s, "b/")
	if !ok || !validRepoPath(p) {
		return "", fmt.Errorf("git diff: path %q", clip(s))
	}
	return p, nil
}
