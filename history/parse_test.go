package history

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const (
	h1 = "1111111111111111111111111111111111111111"
	h2 = "2222222222222222222222222222222222222222"
	h3 = "3333333333333333333333333333333333333333"
	h4 = "4444444444444444444444444444444444444444"
)

func TestParsePullRequest(t *testing.T) {
	for _, tc := range []struct {
		subject, body string
		want          PullRequest
		ok            bool
	}{
		{"Merge pull request #123 from owner/branch", "Add the widget\n\nLonger text", PullRequest{Number: 123, Title: "Add the widget", Via: ViaMerge}, true},
		{"Merge pull request #9 from o/b", "", PullRequest{Number: 9, Via: ViaMerge}, true},
		{"Add the widget (#123)", "", PullRequest{Number: 123, Title: "Add the widget", Via: ViaSquash}, true},
		{"Revert \"Add it (#12)\" (#15)", "", PullRequest{Number: 15, Title: "Revert \"Add it (#12)\"", Via: ViaSquash}, true},
		{"Merge branch 'feature' into 'main'", "Add widget\n\nSee merge request group/sub/project!77", PullRequest{Number: 77, Title: "Add widget", Via: ViaGitLabMerge}, true},
		{"Merged in feature/x (pull request #5)", "Fix it\n\nApproved-by: A", PullRequest{Number: 5, Title: "Fix it", Via: ViaBitbucketMerge}, true},
		{"Merged PR 4711: Tidy the build", "", PullRequest{Number: 4711, Title: "Tidy the build", Via: ViaAzureMerge}, true},
		{"Fix #123", "", PullRequest{}, false},
		{"(#12)", "", PullRequest{}, false},
		{"Add x (#)", "", PullRequest{}, false},
		{"Add x (#0)", "", PullRequest{}, false},
		{"Add x (#12345678901)", "", PullRequest{}, false},
		{"Add x (#12) more", "", PullRequest{}, false},
		{"Merge pull request #abc from x", "", PullRequest{}, false},
		{"Merge pull request #12x from x", "", PullRequest{}, false},
		{"Merge branch 'x'", "See merge request !", PullRequest{}, false},
	} {
		got, ok := ParsePullRequest(tc.subject, tc.body)
		if ok != tc.ok || got != tc.want {
			t.Errorf("ParsePullRequest(%q, %q) = %+v, %v; want %+v, %v", tc.subject, tc.body, got, ok, tc.want, tc.ok)
		}
	}
}

func TestMergedBy(t *testing.T) {
	// h4 merges h3 (on a branch from h1) into h2; h2's parent is h1.
	//   h1 ─ h2 ─ h4
	//    └── h3 ──┘
	order := []string{h4, h3, h2, h1}
	parents := map[string][]string{h4: {h2, h3}, h3: {h1}, h2: {h1}, h1: nil}
	msgs := map[string]Commit{h4: {Hash: h4, Subject: "Merge pull request #8 from a/b", Body: "Title"}}
	want := map[string]PullRequest{h3: {Number: 8, Title: "Title", Via: ViaMerge, Commit: h4}}
	if diff := cmp.Diff(want, mergedBy(order, parents, msgs)); diff != "" {
		t.Errorf("mergedBy (-want +got):\n%s", diff)
	}
	// Outside the window (h1 missing), the walk stops; a cycle in hostile
	// output does not loop.
	delete(parents, h1)
	parents[h2] = []string{h4}
	_ = mergedBy([]string{h4, h3, h2}, parents, msgs)
	if got := mergedBy(nil, nil, nil); len(got) != 0 {
		t.Errorf("mergedBy of nothing = %v", got)
	}
}

func TestParseLog(t *testing.T) {
	rec := func(h, parents, subject, body string) string {
		return "\x01" + h + "\x00" + parents + "\x00Ada\x00ada@x\x002024-01-02T03:04:05+01:00\x00" + subject + "\x00" + body + "\x00"
	}
	out := rec(h3, h2, "third", "body\nwith \x01 and \x1b[31m") + "\nR087\x00old name\x00new\x01name\x00" +
		rec(h2, h1+" "+h4, "merge", "") +
		rec(h1, "", "first", "") + "\nA\x00:(glob)x\x00"
	got, err := parseLog([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	d := time.Date(2024, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600))
	want := []logEntry{
		{commit: Commit{Hash: h3, Parents: []string{h2}, Author: "Ada", Email: "ada@x", Date: d, Subject: "third", Body: "body\nwith  and [31m"},
			changes: []rawChange{{status: Renamed, similarity: 87, old: "old name", path: "new\x01name"}}},
		{commit: Commit{Hash: h2, Parents: []string{h1, h4}, Author: "Ada", Email: "ada@x", Date: d, Subject: "merge"}},
		{commit: Commit{Hash: h1, Author: "Ada", Email: "ada@x", Date: d, Subject: "first"},
			changes: []rawChange{{status: Added, path: ":(glob)x"}}},
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(logEntry{}, rawChange{}), cmp.Comparer(func(a, b time.Time) bool { return a.Equal(b) })); diff != "" {
		t.Errorf("parseLog (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		"garbage",
		"\x01nothash\x00\x00a\x00b\x002024-01-02T03:04:05Z\x00s\x00b",
		"\x01" + h1 + "\x00\x00a\x00b\x00yesterday\x00s\x00b",
		"\x01" + h1 + "\x00",
		rec(h1, "", "s", "") + "\nR100\x00only-one",
		rec(h1, "", "s", "") + "\nZ\x00x",
		rec(h1, "", "s", "") + "\nM\x00../escape",
		rec(h1, "", "s", "") + "\nM\x00/abs",
	} {
		if _, err := parseLog([]byte(bad)); err == nil {
			t.Errorf("parseLog(%q) succeeded", bad)
		}
	}
}

func TestParseDiff(t *testing.T) {
	out := ":100644 100644 aaaaaaa bbbbbbb M\x00edit.go\x00" +
		":100644 100644 aaaaaaa bbbbbbb R090\x00old.go\x00new.go\x00" +
		":000000 100644 0000000 bbbbbbb A\x00bin.dat\x00" +
		"2\t1\tedit.go\x00" + "1\t0\t\x00old.go\x00new.go\x00" + "-\t-\tbin.dat\x00"
	got, err := parseDiff([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{Path: "edit.go", Status: Modified, Added: 2, Deleted: 1},
		{Path: "new.go", OldPath: "old.go", Status: Renamed, Similarity: 90, Added: 1},
		{Path: "bin.dat", Status: Added, Binary: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parseDiff (-want +got):\n%s", diff)
	}
	for _, bad := range []string{
		":100644 M\x00x\x00",
		"1\t2\tnot-listed\x00",
		"x\ty\tedit.go\x00",
		":100644 100644 a b M\x00a\x00:100644 100644 a b M\x00a\x00",
		"1\t0\t\x00old\x00",
	} {
		if _, err := parseDiff([]byte(bad)); err == nil {
			t.Errorf("parseDiff(%q) succeeded", bad)
		}
	}
}

func TestParseBlame(t *testing.T) {
	out := strings.Join([]string{
		h1 + " 1 1 2", "author Ada", "author-mail <ada@x>", "author-time 1704067200", "author-tz +0100",
		"summary first", "boundary", "filename a.txt", "\tline one",
		h1 + " 2 2", "\tline two",
		h2 + " 5 3 1", "author Bob", "author-mail <bob@x>", "author-time 1704067260", "author-tz -0230",
		"summary second", "previous " + h1 + " a.txt", "filename b.txt", "\t\tindented",
		"",
	}, "\n")
	lines, info, err := parseBlame([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	wantLines := []blameLine{{hash: h1, origLine: 1, line: 1, origPath: "a.txt"}, {hash: h1, origLine: 2, line: 2, origPath: "a.txt"},
		{hash: h2, origLine: 5, line: 3, origPath: "b.txt"}}
	if diff := cmp.Diff(wantLines, lines, cmp.AllowUnexported(blameLine{})); diff != "" {
		t.Errorf("parseBlame lines (-want +got):\n%s", diff)
	}
	if b := info[h2]; b.author != "Bob" || b.email != "bob@x" || b.summary != "second" || b.boundary ||
		!b.date.Equal(time.Unix(1704067260, 0)) || b.date.Format("-0700") != "-0230" {
		t.Errorf("parseBlame info for %s = %+v", h2, b)
	}
	if !info[h1].boundary {
		t.Errorf("boundary not read")
	}
	for _, bad := range []string{"x 1 1\n\tl\n", h1 + " 0 1\n\tl\n", h1 + " 1 1 1\nauthor-time x\n", h1 + " 1 1 1\nfilename ../x\n\tl\n", h1 + " 1 1 1\nauthor A\n"} {
		if _, _, err := parseBlame([]byte(bad)); err == nil {
			t.Errorf("parseBlame(%q) succeeded", bad)
		}
	}
}

func TestParseProbe(t *testing.T) {
	got, err := parseProbe([]byte("true\nfalse\n/work/repo\nsub/dir/\n/work/repo/.git\n/work/repo/.git\n"))
	if err != nil || got != (probe{inside: true, top: "/work/repo", prefix: "sub/dir/", gitDir: "/work/repo/.git", commonDir: "/work/repo/.git"}) {
		t.Errorf("parseProbe = %+v, %v", got, err)
	}
	const dirs = "/g\n/g\n"
	for _, bad := range []string{"", "true\nfalse\n/r\n" + dirs, "yes\nfalse\n/r\n\n" + dirs, "true\nfalse\nrel\n\n" + dirs,
		"true\nfalse\n/r\n../x/\n" + dirs, "true\nfalse\n/r\nx\n" + dirs, "true\nfalse\n/r\n\ng\n/g\n", "true\nfalse\n/r\n\n/g\n.git\n"} {
		if _, err := parseProbe([]byte(bad)); err == nil {
			t.Errorf("parseProbe(%q) succeeded", bad)
		}
	}
}

func TestVersionOK(t *testing.T) {
	for v, ok := range map[string]bool{
		"git version 2.39.5\n": true, "git version 2.32.0": true, "git version 2.31.9": false, "git version 3.0.0": true,
		"git version 2.45.1.windows.1": true, "git version 2.39.5 (Apple Git-143)": true,
		"git version 2.30.9": false, "git version 1.9": false, "hub version 2.39": false, "git version x.y": false, "": false,
	} {
		if err := versionOK(v); (err == nil) != ok {
			t.Errorf("versionOK(%q) = %v, want ok %v", v, err, ok)
		}
	}
}

func TestOverrides(t *testing.T) {
	got := overrides([]string{"filter.lfs.clean", "filter.lfs.smudge", "diff.Evil.textconv", "filter.a.b=c.process",
		"filter.clean", "diff.external", "core.fsmonitor", "protocol.evil.allow", "pager.log", "user.name", "include.path"})
	want := [][2]string{
		{"filter.lfs.clean", ""}, {"filter.lfs.smudge", ""}, {"filter.lfs.process", ""}, {"filter.lfs.required", "false"},
		{"diff.Evil.textconv", ""}, {"diff.Evil.command", ""},
		{"filter.a.b=c.clean", ""}, {"filter.a.b=c.smudge", ""}, {"filter.a.b=c.process", ""}, {"filter.a.b=c.required", "false"},
		{"protocol.evil.allow", "never"}, {"pager.log", "false"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("overrides (-want +got):\n%s", diff)
	}
}
