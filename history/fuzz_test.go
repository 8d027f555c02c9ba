package history

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Every parser of git's output is fuzzed: none may panic, and what each
// returns keeps its promises (hashes are hashes, paths stay in the work
// tree, text is clean UTF-8).

func FuzzParseLog(f *testing.F) {
	f.Add([]byte("\x01" + h1 + "\x00" + h2 + "\x00Ada\x00a@x\x002024-01-02T03:04:05Z\x00s (#1)\x00body\x00\x00\nR090\x00a\x00b\x00"))
	f.Add([]byte("\x01" + h1 + "\x00\x00\x00\x002024-01-02T03:04:05Z\x00\x00\x00\nM\x00x\x00\nD\x00y\x00"))
	f.Add([]byte("\x01\x00\x00"))
	f.Fuzz(func(t *testing.T, out []byte) {
		entries, err := parseLog(out)
		if err != nil {
			return
		}
		for _, e := range entries {
			checkCommit(t, &e.commit)
			for _, c := range e.changes {
				if !validRepoPath(c.path) || c.old != "" && !validRepoPath(c.old) {
					t.Errorf("path %q / %q leaves the work tree", c.path, c.old)
				}
			}
		}
	})
}

func checkCommit(t *testing.T, c *Commit) {
	t.Helper()
	if !isHash(c.Hash) {
		t.Errorf("hash %q", c.Hash)
	}
	for _, p := range c.Parents {
		if !isHash(p) {
			t.Errorf("parent %q", p)
		}
	}
	for _, s := range []string{c.Author, c.Email, c.Subject, c.Body} {
		if !utf8.ValidString(s) || strings.ContainsFunc(s, isControl) {
			t.Errorf("unclean text %q", s)
		}
	}
}

func FuzzParseDiff(f *testing.F) {
	f.Add([]byte(":100644 100644 a b M\x00edit.go\x00:100644 100644 a b R090\x00old\x00new\x002\t1\tedit.go\x001\t0\t\x00old\x00new\x00"))
	f.Add([]byte(":000000 100644 0 b A\x00bin\x00-\t-\tbin\x00"))
	f.Fuzz(func(t *testing.T, out []byte) {
		changes, err := parseDiff(out)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, c := range changes {
			if !validRepoPath(c.Path) || c.OldPath != "" && !validRepoPath(c.OldPath) {
				t.Errorf("path %q / %q leaves the work tree", c.Path, c.OldPath)
			}
			if seen[c.Path] {
				t.Errorf("%q listed twice", c.Path)
			}
			seen[c.Path] = true
			if c.Added < 0 || c.Deleted < 0 || c.Similarity < 0 || c.Similarity > 100 {
				t.Errorf("counts %+v", c)
			}
		}
	})
}

func FuzzParseBlame(f *testing.F) {
	f.Add([]byte(h1 + " 1 1 2\nauthor A\nauthor-mail <a@x>\nauthor-time 1\nauthor-tz +0100\nsummary s\nboundary\nfilename a\n\tx\n" + h1 + " 2 2\n\ty\n"))
	f.Add([]byte(strings.Repeat("0", 40) + " 3 3 1\nauthor Not Committed Yet\nauthor-tz -9999\nfilename f\n\t\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		lines, info, err := parseBlame(out)
		if err != nil {
			return
		}
		for _, l := range lines {
			if !isHash(l.hash) || l.line < 1 || l.origLine < 1 || info[l.hash] == nil {
				t.Errorf("line %+v", l)
			}
			if l.origPath != "" && !validRepoPath(l.origPath) {
				t.Errorf("path %q leaves the work tree", l.origPath)
			}
		}
	})
}

func FuzzParseRevList(f *testing.F) {
	f.Add([]byte(h1 + " " + h2 + " " + h3 + "\n" + h2 + "\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		order, parents, err := parseRevList(out)
		if err != nil {
			return
		}
		if len(order) != len(parents) {
			t.Errorf("%d commits in order, %d with parents", len(order), len(parents))
		}
		// Hostile graphs (cycles, dangling parents) end.
		_ = mergedBy(order, parents, map[string]Commit{})
	})
}

func FuzzParseProbe(f *testing.F) {
	f.Add([]byte("true\nfalse\n/r\nsub/\n/r/.git\n/r/.git\n"))
	f.Fuzz(func(t *testing.T, out []byte) {
		p, err := parseProbe(out)
		if err != nil {
			return
		}
		if strings.Contains(p.prefix, "..") || strings.HasPrefix(p.prefix, "/") {
			t.Errorf("prefix %q", p.prefix)
		}
	})
}

func FuzzParsePullRequest(f *testing.F) {
	f.Add("Merge pull request #123 from a/b", "Title")
	f.Add("Title (#45)", "")
	f.Add("Merge branch 'x' into 'y'", "T\n\nSee merge request g/p!9")
	f.Add("Merged in x (pull request #3)", "T")
	f.Add("Merged PR 7: T", "")
	f.Fuzz(func(t *testing.T, subject, body string) {
		pr, ok := ParsePullRequest(subject, body)
		if ok && (pr.Number < 1 || pr.Number > 999999999 || pr.Via == "") {
			t.Errorf("ParsePullRequest(%q, %q) = %+v", subject, body, pr)
		}
		if !ok && pr != (PullRequest{}) {
			t.Errorf("not ok but %+v", pr)
		}
	})
}

func FuzzSinceRevision(f *testing.F) {
	f.Add("what changed since v1.2.0?")
	f.Fuzz(func(t *testing.T, text string) {
		rev := SinceRevision(text)
		if rev != "" && (rev[0] == '-' || strings.ContainsAny(rev, " \t\n\x00;|&$")) {
			t.Errorf("SinceRevision(%q) = %q", text, rev)
		}
	})
}
